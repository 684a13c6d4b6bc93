// Command benchmark measures errdocs builds on a generated dataset: a cold
// build, a rebuild with nothing changed, a rebuild after one record's
// documentation changed and one after a record was removed; optionally the
// same records built by Hugo with the same highlighting options. Figures are
// medians of -runs runs (the machines here are shared and noisy).
//
//	go run ./cmd/benchmark -records 10000 -runs 3 -hugo
//	go run ./cmd/benchmark -records 100000 -runs 1 -json bench.json
//
// The errdocs binary is built once (go build) and run as a child process,
// so wall time and peak RSS are the process's own; per-stage times come
// from its --stats table.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// baseURL is passed to every build so the sitemap and feed are made too.
const baseURL = "https://errors.example.org/"

type options struct {
	records  int
	seed     int64
	runs     int
	hugo     bool
	realCode bool
	rebuilds int
	bin      string
	hugoBin  string
	work     string
	keep     bool
	warm     bool
	gap      time.Duration
	json     string
}

// Results is what -json saves.
type Results struct {
	Date     string  `json:"date"`
	Machine  Machine `json:"machine"`
	Records  int     `json:"records"`
	Repos    int     `json:"repos"`
	Seed     int64   `json:"seed"`
	RealCode bool    `json:"realCode"`
	Runs     int     `json:"runs"`
	// GapSeconds is the idle time before each timed rebuild (-gap).
	GapSeconds float64       `json:"gapSeconds"`
	Edited     string        `json:"editedRecord"`
	Removed    string        `json:"removedRecord"`
	Cold       Summary       `json:"cold"`
	NoChange   Summary       `json:"noChange"`
	OneChange  Summary       `json:"oneChange"`
	OneRemoved Summary       `json:"oneRemoved"`
	Hugo       *HugoResults  `json:"hugo,omitempty"`
	Notes      []string      `json:"notes,omitempty"`
	startedAt  time.Time     `json:"-"`
	elapsed    time.Duration `json:"-"`
}

// Machine describes where the figures were taken.
type Machine struct {
	NumCPU    int    `json:"numCPU"`
	MemBytes  int64  `json:"memBytes"`
	CPU       string `json:"cpu,omitempty"`
	GoVersion string `json:"goVersion"`
	OS        string `json:"os"`
	// FreshGB is what touching a gigabyte of fresh memory cost, at the
	// start of the benchmark and at its end (freshMemoryCost).
	FreshGB []FreshMemory `json:"freshMemoryPerGB,omitempty"`
	// NewPages is what making a folder and a file in it cost, at the
	// start and at the end (newPagesCost).
	NewPages []NewPages `json:"newPages,omitempty"`
	// PageReporting is the machine's free page reporting (nil: none).
	PageReporting *PageReporting `json:"pageReporting,omitempty"`
}

// FreshMemory is one measure of freshMemoryCost, for 1 GB: in 4 KB pages,
// and in huge pages (2 MB) where the kernel gives them (0 elsewhere). A
// build's heap is marked for huge pages, its other memory is not: what its
// memory cost lies between the two.
type FreshMemory struct {
	Seconds        float64 `json:"seconds"`
	SysSeconds     float64 `json:"sysSeconds"`
	HugeSeconds    float64 `json:"hugeSeconds,omitempty"`
	HugeSysSeconds float64 `json:"hugeSysSeconds,omitempty"`
}

// probeFreshMemory adds a measure of freshMemoryCost to m.
func (m *Machine) probeFreshMemory() {
	wall, sys, ok := freshMemoryCost(1<<30, false)
	if !ok {
		return
	}
	f := FreshMemory{Seconds: wall, SysSeconds: sys}
	if wall, sys, ok := freshMemoryCost(1<<30, true); ok {
		f.HugeSeconds, f.HugeSysSeconds = wall, sys
	}
	m.FreshGB = append(m.FreshGB, f)
}

// Summary is one scenario over all runs.
type Summary struct {
	Runs          []Run   `json:"runs"`
	MedianSeconds float64 `json:"medianSeconds"`
	MinSeconds    float64 `json:"minSeconds"`
	MedianCPU     float64 `json:"medianCPUSeconds"` // user+sys of the child`
	MedianSys     float64 `json:"medianSysSeconds"` // sys alone
	MaxSeconds    float64 `json:"maxSeconds"`
	MedianRSS     int64   `json:"medianPeakRSSBytes"`
	MedianFaults  int64   `json:"medianPageFaults"`
	// MedianAnonHeld is the most anonymous memory a build held at a
	// stage's end (Run.AnonHeld), the median over the runs.
	MedianAnonHeld int64   `json:"medianAnonHeldBytes,omitempty"`
	MaxRSS         int64   `json:"maxPeakRSSBytes"`
	Stages         []Stage `json:"medianStages,omitempty"`
}

// HugoResults is the Hugo comparison.
type HugoResults struct {
	Version        string  `json:"version"`
	ContentSeconds float64 `json:"contentSeconds"` // converting the records (not part of the builds)
	Pages          int     `json:"pages"`
	OutputFiles    int     `json:"outputFiles"`
	Cold           Summary `json:"cold"`
	NoChange       Summary `json:"noChange"`
	// ColdRatio is Hugo cold / errdocs cold (median): how many times faster
	// errdocs is.
	ColdRatio     float64 `json:"coldRatio"`
	NoChangeRatio float64 `json:"noChangeRatio"`
	// The same by CPU time (user+sys), the stable figure on a shared
	// machine.
	ColdCPURatio     float64 `json:"coldCPURatio"`
	NoChangeCPURatio float64 `json:"noChangeCPURatio"`
}

func main() {
	var o options
	fs := flag.NewFlagSet("benchmark", flag.ExitOnError)
	fs.IntVar(&o.records, "records", 100000, "records in the generated dataset")
	fs.Int64Var(&o.seed, "seed", 1, "generator seed")
	fs.IntVar(&o.runs, "runs", 3, "runs of each scenario (figures are medians)")
	fs.IntVar(&o.rebuilds, "rebuilds", 0, "one cold build, then this many no-change and one-change rebuilds over it (and one removal); -runs is then ignored, and Hugo is built once: for sizes whose cold build is too slow to repeat")
	fs.StringVar(&o.bin, "bin", "", "time this errdocs `binary` (e.g. an earlier version's) instead of building one from this checkout")
	fs.BoolVar(&o.realCode, "real-code", false, "records' source excerpts are real code from public repositories (internal/corpus/testdata/realcode.jsonl.gz), not generated")
	fs.BoolVar(&o.hugo, "hugo", false, "also build the same records with Hugo ("+hugoVersion+", installed with go install under -work if -hugo-bin is not given)")
	fs.StringVar(&o.hugoBin, "hugo-bin", "", "the hugo `binary` to compare with (default: "+hugoVersion+" installed under -work)")
	fs.StringVar(&o.work, "work", filepath.Join(os.TempDir(), "errdocs-benchmark"), "work `folder`: binary, dataset (kept and reused), outputs")
	fs.BoolVar(&o.warm, "warm", false, "with -rebuilds: start from the output and cache an earlier -keep run left in -work (brought up to date by an untimed build) instead of a cold build; no removal is timed")
	fs.DurationVar(&o.gap, "gap", 20*time.Second, "idle time before each timed rebuild, as between a user's edits: a build started the moment the previous one ended reuses memory that a virtual machine's host would otherwise have taken back (BENCHMARKS.md)")
	fs.BoolVar(&o.keep, "keep", false, "keep the sites and caches built (default: removed at the end; the dataset is always kept)")
	fs.StringVar(&o.json, "json", "", "also save the results to this `file` as JSON")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: go run ./cmd/benchmark [flags]\n\nTimes errdocs cold, no-change, one-change and one-removed builds on a\ngenerated dataset (and Hugo on the same records with -hugo).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	fs.Parse(os.Args[1:])
	if o.records < 1 || o.runs < 1 || fs.NArg() > 0 {
		fs.Usage()
		os.Exit(2)
	}
	res, err := benchmark(o, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchmark:", err)
		os.Exit(1)
	}
	report(os.Stdout, res)
	if o.json != "" {
		b, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(o.json, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "benchmark:", err)
			os.Exit(1)
		}
	}
}

func benchmark(o options, stdout, stderr io.Writer) (*Results, error) {
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "[%s] %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, a...))
	}
	work, err := filepath.Abs(o.work)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	trash := newTrash(work, logf)
	defer trash.empty()
	res := &Results{Date: time.Now().UTC().Format(time.RFC3339), Machine: machine(), Records: o.records, Seed: o.seed, RealCode: o.realCode, Runs: o.runs, GapSeconds: o.gap.Seconds(), startedAt: time.Now()}
	res.Machine.probeFreshMemory()
	defer res.Machine.probeFreshMemory() // before report reads it
	res.Machine.probeNewPages(trash)
	defer res.Machine.probeNewPages(trash) // before the trash is emptied

	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(work, "bin", "errdocs")
	if o.bin != "" {
		bin = o.bin
	} else {
		logf("building errdocs → %s", bin)
		if out, err := goBuild(root, bin); err != nil {
			return nil, fmt.Errorf("go build: %v\n%s", err, out)
		}
	}

	dataset, reused, err := ensureDataset(work, o.records, o.seed, o.realCode, logf)
	if err != nil {
		return nil, err
	}
	if reused {
		logf("reusing dataset %s", dataset)
	}
	repoFiles, err := filepath.Glob(filepath.Join(dataset, "repos", "*", "*.json"))
	if err != nil {
		return nil, err
	}
	res.Repos = len(repoFiles)
	editT, removeTs, err := pickTargets(dataset)
	if err != nil {
		return nil, err
	}
	res.Edited = editT.ID + " (" + editT.Path + ")"
	var removeT *target
	if o.rebuilds > 0 {
		sr := &scenarios{res: res, bin: bin, dataset: dataset, editT: editT, removeTs: removeTs, chosen: &removeT, logf: logf, trash: trash, gap: o.gap}
		if err := sr.rebuildsOnly(work, o.rebuilds, o.keep, o.warm); err != nil {
			return nil, err
		}
		res.Runs = o.rebuilds
	}
	for i := 1; i <= o.runs && o.rebuilds == 0; i++ {
		sr := &scenarios{res: res, bin: bin, dataset: dataset, editT: editT, removeTs: removeTs, chosen: &removeT, logf: logf, trash: trash, gap: o.gap}
		if err := sr.run(work, i, o.keep); err != nil {
			return nil, err
		}
	}
	if removeT != nil {
		res.Removed = removeT.ID + " (" + removeT.Path + ")"
	}
	for _, s := range []*Summary{&res.Cold, &res.NoChange, &res.OneChange, &res.OneRemoved} {
		s.summarise()
	}

	if o.hugo {
		// Hugo is built as many times cold as errdocs was: once with
		// -rebuilds, which is for sizes whose cold build is too slow to
		// repeat, and Hugo's cold build is slower than errdocs's.
		hugoRuns := o.runs
		if o.rebuilds > 0 {
			hugoRuns = 1
		}
		h, err := hugoBench(dataset, work, o.hugoBin, hugoRuns, o.keep, trash, logf)
		if err != nil {
			return nil, err
		}
		if res.Cold.MedianSeconds > 0 {
			h.ColdRatio = h.Cold.MedianSeconds / res.Cold.MedianSeconds
		}
		if res.NoChange.MedianSeconds > 0 {
			h.NoChangeRatio = h.NoChange.MedianSeconds / res.NoChange.MedianSeconds
		}
		if res.Cold.MedianCPU > 0 {
			h.ColdCPURatio = h.Cold.MedianCPU / res.Cold.MedianCPU
		}
		if res.NoChange.MedianCPU > 0 {
			h.NoChangeCPURatio = h.NoChange.MedianCPU / res.NoChange.MedianCPU
		}
		res.Hugo = h
	}
	res.elapsed = time.Since(res.startedAt)
	return res, nil
}

// inSitemaps says whether the sitemap files under out list the page.
func inSitemaps(out, pagePath string) (bool, error) {
	for _, p := range []string{filepath.Join(out, "sitemap.xml"), filepath.Join(out, "sitemaps")} {
		found, err := containsAnywhere(p, "<loc>"+baseURL+pagePath+"</loc>")
		if err != nil || found {
			return found, err
		}
	}
	return false, nil
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (s *Summary) summarise() {
	if len(s.Runs) == 0 {
		return
	}
	var secs, cpu, sys []float64
	var rss, faults, held []int64
	stages, stageCPU := map[string][]float64{}, map[string][]float64{}
	var order []string
	for _, r := range s.Runs {
		secs = append(secs, r.Seconds)
		cpu = append(cpu, r.CPUSeconds)
		sys = append(sys, r.SysSeconds)
		rss = append(rss, r.PeakRSS)
		faults = append(faults, r.PageFaults)
		held = append(held, r.AnonHeld)
		for _, st := range r.Stages {
			if _, ok := stages[st.Name]; !ok {
				order = append(order, st.Name)
			}
			stages[st.Name] = append(stages[st.Name], st.Seconds)
			stageCPU[st.Name] = append(stageCPU[st.Name], st.CPUSeconds)
		}
	}
	s.MedianSeconds = median(secs)
	s.MedianCPU = median(cpu)
	s.MedianSys = median(sys)
	s.MinSeconds = slicesMin(secs)
	s.MaxSeconds = slicesMax(secs)
	sort.Slice(rss, func(i, j int) bool { return rss[i] < rss[j] })
	s.MedianRSS = rss[len(rss)/2]
	s.MaxRSS = rss[len(rss)-1]
	sort.Slice(faults, func(i, j int) bool { return faults[i] < faults[j] })
	s.MedianFaults = faults[len(faults)/2]
	sort.Slice(held, func(i, j int) bool { return held[i] < held[j] })
	s.MedianAnonHeld = held[len(held)/2]
	s.Stages = nil
	for _, name := range order {
		s.Stages = append(s.Stages, Stage{name, median(stages[name]), median(stageCPU[name])})
	}
}

// median of xs; the mean of the middle two for an even count.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func slicesMin(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func slicesMax(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run the benchmark inside the errdocs module")
	}
	return filepath.Dir(mod), nil
}

func goBuild(root, bin string) ([]byte, error) {
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/errdocs")
	cmd.Dir = root
	return cmd.CombinedOutput()
}

func machine() Machine {
	m := Machine{NumCPU: runtime.NumCPU(), GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				m.MemBytes = kb * 1024
			}
		}
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	m.PageReporting = pageReporting()
	return m
}

func itoa(n int) string { return strconv.Itoa(n) }
