package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"time"

	errdocs "github.com/errdocs/errdocs"
	"github.com/errdocs/errdocs/generator/pipeline"
	"github.com/errdocs/errdocs/generator/read"
	"github.com/errdocs/errdocs/internal/hugepages"
	"github.com/errdocs/errdocs/internal/resident"
)

// siteFlags are the flags of every command that builds a site.
type siteFlags struct {
	out, cache, templates, rejects string
	cpuprofile, memprofile, trace  string
	strict, stats, quiet, verify   bool
	site                           siteSettings
}

func (f *siteFlags) register(fs *flag.FlagSet, defaultOut string) {
	fs.StringVar(&f.out, "out", defaultOut, "output `folder`")
	fs.StringVar(&f.cache, "cache", "", "cache `folder` for highlighted code and the search index (default .errdocs-cache beside the output)")
	fs.StringVar(&f.templates, "templates", "", "read templates from this `folder` instead of the built-in ones (missing files fall back to the built-in ones)")
	fs.StringVar(&f.rejects, "rejects", "", "write rejected records to this `file` as JSON Lines")
	fs.BoolVar(&f.strict, "strict", false, "fail (exit status 1) when any record is rejected, leaving the previous site untouched")
	fs.BoolVar(&f.stats, "stats", false, "print where the time went, stage by stage")
	fs.BoolVar(&f.quiet, "quiet", false, "print nothing but errors")
	fs.BoolVar(&f.verify, "verify", false, "look at every output file, and rewrite those edited or deleted by hand (a build whose inputs, settings and templates did not change since the last one otherwise touches nothing and looks at no output file)")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile (pprof) of the build to `file`")
	fs.StringVar(&f.memprofile, "memprofile", "", "write a heap profile (pprof) at the end of the build to `file`")
	fs.StringVar(&f.trace, "trace", "", "write an execution trace of the build to `file` (go tool trace): what each goroutine waited on, which a CPU profile does not show")
	f.site.register(fs)
}

func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func (f *siteFlags) config(fs *flag.FlagSet, paths []string, stderr io.Writer) (pipeline.Config, error) {
	if err := f.site.resolve(fs); err != nil {
		return pipeline.Config{}, err
	}
	tmpl, static, err := errdocs.Assets(f.templates)
	if err != nil {
		return pipeline.Config{}, errUsage{err.Error()}
	}
	c := pipeline.Config{
		Paths: paths, Out: f.out, CacheDir: f.cache, Templates: tmpl, Static: static,
		Strict: f.strict, RejectsFile: f.rejects, Verify: f.verify,
		Title: f.site.title, Description: f.site.description, BaseURL: f.site.baseURL, PerPage: f.site.perPage,
		ReportURL: f.site.reportURL,
		// Without a base URL the site is opened from disk or put on a host
		// at an unknown place: links name index.html, since a browser shows
		// a folder opened from disk as a listing. A hosted site (with a
		// base URL) keeps pretty folder links.
		IndexFile: f.site.baseURL == "",
		Garbage:   muchWork,
		// A rebuild's fresh memory faulted in on a core the build
		// leaves idle, ahead of the heap (internal/hugepages).
		ExpectHeap: func(n int64) int64 { return int64(hugepages.Prefault(int(n))) },
	}
	if governed {
		c.ExpectMapped = resident.Expect
	}
	c.Problem = func(msg string) {
		for _, line := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
			fmt.Fprintln(stderr, line)
		}
	}
	return c, nil
}

func cmdBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f siteFlags
	fs := newFlagSet("build", "Usage: errdocs build [PATH...] [flags]\n\nBuilds the site from the records in PATH (default content/) into --out (default site/).\nA record that breaks a rule is reported and left out; the others still build.", stderr)
	f.register(fs, "site")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	// A PATH that cannot be read at all (missing, a FIFO, a device) fails
	// before anything else is done.
	if err := read.CheckPaths(paths); err != nil {
		return fmt.Errorf("%w; the previous site is untouched", err)
	}
	c, err := f.config(fs, paths, stderr)
	if err != nil {
		return err
	}
	release, err := lockSite(c, describe("build", c))
	if err != nil {
		return err
	}
	defer release()
	bar := newProgress(stderr, f.quiet)
	c.Progress = bar.update
	start := time.Now()
	stopProfile, err := f.startProfile()
	if err != nil {
		return err
	}
	mt := startMemTrace()
	if mt != nil {
		c.StageDone = mt.stageDone
	}
	rep, err := pipeline.Build(ctx, c)
	mt.close()
	stopProfile()
	bar.clear()
	if err != nil {
		return err
	}
	if f.stats {
		printStats(stdout, rep)
	}
	if !f.quiet {
		fmt.Fprintf(stdout, "errdocs: read %d records from %d files%s, built %d, rejected %d; %d files written, %d unchanged → %s (%s)\n",
			rep.Read, rep.Files, unreadable(rep), rep.Built, rep.Rejected, rep.Written, rep.Unchanged, c.Out, time.Since(start).Round(time.Millisecond))
		if rep.Unusable > 0 {
			fmt.Fprintf(stdout, "errdocs: %d message patterns cannot run in the browser's linear-time matcher (backreferences, lookaround, or too large); pasting their errors falls back to text search\n", rep.Unusable)
		}
	}
	return nil
}

func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f siteFlags
	fs := newFlagSet("check", "Usage: errdocs check [PATH...] [flags]\n\nValidates the records in PATH (default content/) without building; reports as build does.", stderr)
	fs.StringVar(&f.rejects, "rejects", "", "write rejected records to this `file` as JSON Lines")
	fs.BoolVar(&f.strict, "strict", false, "fail (exit status 1) when any record is rejected")
	fs.BoolVar(&f.quiet, "quiet", false, "print nothing but errors")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	c, err := f.config(fs, paths, stderr)
	if err != nil {
		return err
	}
	rep, err := pipeline.Check(ctx, c)
	if err != nil {
		return err
	}
	if !f.quiet {
		fmt.Fprintf(stdout, "errdocs: read %d records from %d files%s, %d valid, rejected %d\n", rep.Read, rep.Files, unreadable(rep), rep.Built, rep.Rejected)
	}
	return nil
}

func printStats(w io.Writer, rep *pipeline.Report) {
	var total, totalCPU time.Duration
	for _, s := range rep.Stages {
		total += s.Time
		totalCPU += s.CPU
	}
	fmt.Fprintln(w, "stage            time       cpu   share")
	for _, s := range rep.Stages {
		share := 0.0
		if total > 0 {
			share = 100 * float64(s.Time) / float64(total)
		}
		fmt.Fprintf(w, "%-14s %8s  %8s   %5.1f%%\n", s.Name, s.Time.Round(time.Millisecond), s.CPU.Round(10*time.Millisecond), share)
	}
	fmt.Fprintf(w, "%-14s %8s  %8s\n", "total", total.Round(time.Millisecond), totalCPU.Round(10*time.Millisecond))
	if held := heldByStage(rep.Stages); held != "" {
		fmt.Fprintf(w, "anonymous memory resident at each stage's end (heap, stacks; not mapped files): %s\n", held)
	}
	if rep.MemoryAhead > 0 {
		fmt.Fprintf(w, "memory faulted in ahead of the heap, on an idle core: %s (what the previous rebuild took); the Go runtime's own use at most %s\n",
			byteSize(rep.MemoryAhead), byteSize(int64(rep.InUse)))
	}
	if rep.NoChange {
		fmt.Fprintf(w, "no change: every input file (%d stat calls), the settings and the templates as the last build left them, and its site in place: nothing read, no output file looked at (--verify looks)\n",
			rep.Inputs.Stats)
	} else if rep.NoChangeMissed != "" {
		fmt.Fprintf(w, "no change: not taken: %s\n", rep.NoChangeMissed)
	}
	if rep.StampSkipped != "" {
		fmt.Fprintf(w, "no-change stamp: none left for the next build: %s\n", rep.StampSkipped)
	}
	if rep.Cached > 0 {
		fmt.Fprintf(w, "%d record files unchanged since cached: not read again; the manifest check hashed %d files\n", rep.Cached, rep.Hashed)
	}
	in := rep.Inputs
	fmt.Fprintf(w, "read cache: %d of %d record files served, %d read; %d hashed by the manifest check; %d stat calls, %s read; %d younger than %s when looked at (not cached), %d that the previous build found so\n",
		in.Served, in.RecordFiles, in.Read, in.Hashed, in.Stats, byteSize(in.Bytes), in.Young, in.Margin, in.WereYoung)
	if rep.Built > 0 {
		fmt.Fprintf(w, "record pages: %d rendered, %d kept from the previous build; %s\n", rep.Built-rep.Reused, rep.Reused, rereadFiles(rep.Reread))
	}
	if rep.Search != "" {
		fmt.Fprintf(w, "search export: %s\n", rep.Search)
	}
	if u := processUsage(); u != "" {
		fmt.Fprintf(w, "process: %s\n", u)
	}
}

// rereadFiles says how many record files render+index read again.
func rereadFiles(n int) string {
	if n < 0 {
		return "every record file read again to render and index them"
	}
	return fmt.Sprintf("%d record files read again to render and index them", n)
}

// heldByStage lists Stage.Held stage by stage ("" when not measured).
func heldByStage(stages []pipeline.Stage) string {
	var parts []string
	for _, s := range stages {
		if s.Held == 0 {
			return ""
		}
		parts = append(parts, s.Name+" "+byteSize(int64(s.Held)))
	}
	return strings.Join(parts, ", ")
}

// progress draws a one-line progress bar on a terminal, only once a build
// has run for a second; it stays silent when output is not a terminal.
type progress struct {
	w     io.Writer
	on    bool
	start time.Time
	last  time.Time
	drawn bool
}

func newProgress(w io.Writer, quiet bool) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, on: !quiet && ok && isTerminal(f), start: time.Now()}
}

func (p *progress) update(stage string, done, total int) {
	if !p.on || time.Since(p.start) < time.Second || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.drawn = true
	if total <= 0 {
		fmt.Fprintf(p.w, "\r\x1b[K%-8s %d", stage, done)
		return
	}
	const width = 30
	filled := width * done / total
	fmt.Fprintf(p.w, "\r\x1b[K%-8s [%s%s] %d/%d", stage, strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
}

func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// startProfile starts the CPU profile and the execution trace the flags
// ask for and returns what stops them and writes the heap profile.
func (f *siteFlags) startProfile() (stop func(), err error) {
	stopCPU, err := startCPUProfile(f.cpuprofile)
	if err != nil {
		return nil, err
	}
	stopTrace, err := startTrace(f.trace)
	if err != nil {
		stopCPU()
		return nil, err
	}
	return func() {
		stopCPU()
		stopTrace()
		writeHeapProfile(f.memprofile)
	}, nil
}

// noStop is the stop of what was not asked for.
func noStop() {}

// startCPUProfile starts a CPU profile into the file at path ("": none)
// and returns what stops it.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return noStop, nil
	}
	cpu, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		cpu.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		cpu.Close()
	}, nil
}

// startTrace starts an execution trace into the file at path ("": none)
// and returns what stops it.
func startTrace(path string) (stop func(), err error) {
	if path == "" {
		return noStop, nil
	}
	tr, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := trace.Start(tr); err != nil {
		tr.Close()
		return nil, err
	}
	return func() {
		trace.Stop()
		tr.Close()
	}, nil
}

// writeHeapProfile writes a heap profile, after a collection, to the file
// at path ("": none).
func writeHeapProfile(path string) {
	if path == "" {
		return
	}
	if m, err := os.Create(path); err == nil {
		runtime.GC()
		pprof.WriteHeapProfile(m)
		m.Close()
	}
}

// unreadable is the summary's note of the files that failed whole.
func unreadable(rep *pipeline.Report) string {
	if rep.FilesFailed == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d more could not be read)", rep.FilesFailed)
}

// byteSize words a byte count.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
