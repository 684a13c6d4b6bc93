package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// report prints the results table.
func report(w io.Writer, r *Results) {
	runs := "runs"
	if r.Runs == 1 {
		runs = "run"
	}
	excerpts := "generated excerpts"
	if r.RealCode {
		excerpts = "real-code excerpts"
	}
	fmt.Fprintf(w, "\nerrdocs benchmark: %d records (%s), %d repos, seed %d, %d %s (medians; min/max over runs; CPU = user+sys)\n", r.Records, excerpts, r.Repos, r.Seed, r.Runs, runs)
	if r.GapSeconds > 0 {
		fmt.Fprintf(w, "each timed rebuild starts %.0f s after the last build or look at the output ended (-gap)\n", r.GapSeconds)
	}
	fmt.Fprintf(w, "machine: %d CPUs, %s memory, %s, %s, %s\n", r.Machine.NumCPU, size(r.Machine.MemBytes), r.Machine.CPU, r.Machine.OS, r.Machine.GoVersion)
	if line := pageReportingLine(r.Machine.PageReporting); line != "" {
		fmt.Fprintln(w, line)
	}
	if len(r.Machine.FreshGB) > 0 {
		var at []string
		for _, f := range r.Machine.FreshGB {
			a := fmt.Sprintf("%.2f s (sys %.2f s)", f.Seconds, f.SysSeconds)
			if f.HugeSeconds > 0 {
				a += fmt.Sprintf(", in huge pages %.2f s (sys %.2f s)", f.HugeSeconds, f.HugeSysSeconds)
			}
			at = append(at, a)
		}
		fmt.Fprintf(w, "fresh memory: a gigabyte first touched in 4 KB pages in %s, at the start and at the end (each build pays this for the memory it takes)\n", strings.Join(at, "; and "))
	}
	if len(r.Machine.NewPages) > 0 {
		var at []string
		for _, p := range r.Machine.NewPages {
			at = append(at, fmt.Sprintf("%.0f µs of CPU (sys %.0f µs)", p.CPUMicros, p.SysMicros))
		}
		fmt.Fprintf(w, "new pages: a folder and a %d KB file in it made in %s, at the start and at the end (a cold build makes one for each record)\n", pageBytes>>10, strings.Join(at, " and "))
	}
	if len(r.Cold.Runs) > 0 { // none with -warm
		fmt.Fprintf(w, "%-19s %s  peak RSS %s\n", "cold build", secs(r.Cold), memory(r.Cold))
		if len(r.Cold.Stages) > 0 {
			fmt.Fprintf(w, "  %s\n", stages(r.Cold.Stages))
		}
		inputs(w, r.Cold)
		machineCost(w, r.Cold, r.Machine, r.Records)
		machineLoad(w, r.Cold, r.Machine.NumCPU)
	}
	fmt.Fprintf(w, "%-19s %s  peak RSS %s  files rewritten: %s\n", "no-change rebuild", secs(r.NoChange), memory(r.NoChange), counts(r.NoChange.Runs))
	if len(r.NoChange.Stages) > 0 {
		fmt.Fprintf(w, "  %s\n", stages(r.NoChange.Stages))
	}
	inputs(w, r.NoChange)
	machineCost(w, r.NoChange, r.Machine, 0)
	machineLoad(w, r.NoChange, r.Machine.NumCPU)
	handedBackLine(w, r.NoChange)
	fmt.Fprintf(w, "%-19s %s  peak RSS %s  files rewritten: %s\n", "one record changed", secs(r.OneChange), memory(r.OneChange), counts(r.OneChange.Runs))
	if n := len(r.OneChange.Runs); n > 0 {
		fmt.Fprintf(w, "  (%s)\n", formatKinds(r.OneChange.Runs[n-1].Kinds))
	}
	if len(r.OneChange.Stages) > 0 {
		fmt.Fprintf(w, "  %s\n", stages(r.OneChange.Stages))
	}
	inputs(w, r.OneChange)
	machineCost(w, r.OneChange, r.Machine, 0)
	machineLoad(w, r.OneChange, r.Machine.NumCPU)
	handedBackLine(w, r.OneChange)
	if n := len(r.OneRemoved.Runs); n > 0 { // none with -warm
		fmt.Fprintf(w, "%-19s %s  peak RSS %s  files rewritten: %s\n", "one record removed", secs(r.OneRemoved), memory(r.OneRemoved), counts(r.OneRemoved.Runs))
		last := r.OneRemoved.Runs[n-1]
		fmt.Fprintf(w, "  (%s)\n", formatKinds(last.Kinds))
		fmt.Fprintf(w, "  page gone: %s; search entries gone: %s; sitemap entry gone: %s\n",
			allTrue(r.OneRemoved.Runs, func(r Run) *bool { return r.PageGone }),
			allTrue(r.OneRemoved.Runs, func(r Run) *bool { return r.SearchGone }),
			allTrue(r.OneRemoved.Runs, func(r Run) *bool { return r.SitemapGone }))
		machineLoad(w, r.OneRemoved, r.Machine.NumCPU)
	}
	if h := r.Hugo; h != nil {
		fmt.Fprintf(w, "%-19s %s  peak RSS %s  %s; %s\n", "hugo cold", secs(h.Cold), size(h.Cold.MaxRSS), faster(h.ColdRatio), lessCPU(h.ColdCPURatio))
		fmt.Fprintf(w, "%-19s %s  peak RSS %s  files rewritten: %s  %s; %s\n", "hugo no-change", secs(h.NoChange), size(h.NoChange.MaxRSS), counts(h.NoChange.Runs), faster(h.NoChangeRatio), lessCPU(h.NoChangeCPURatio))
		fmt.Fprintf(w, "  %s; %d pages → %d files; content written in %.1f s (not timed)\n", h.Version, h.Pages, h.OutputFiles, h.ContentSeconds)
		machineLoad(w, h.Cold, r.Machine.NumCPU)
	}
	fmt.Fprintf(w, "edited record %s", r.Edited)
	if r.Removed != "" {
		fmt.Fprintf(w, "; removed record %s", r.Removed)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "benchmark took %s\n", r.elapsed.Round(time.Second))
}

// machineLoad prints what disturbed a scenario's runs, if anything did.
func machineLoad(w io.Writer, s Summary, cores int) {
	if d := disturbed(s.Runs, cores); d != "" {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

// machineCost prints what the machine's own rates (Machine.FreshGB,
// Machine.NewPages) make of a scenario's CPU time: the fresh memory its
// builds held, and the pages (a folder and a file each) a build that
// writes newPages of them makes. The same build costs more on a machine
// where these cost more; the rest of its CPU time is its own work, the
// figure to compare between machines.
func machineCost(w io.Writer, s Summary, m Machine, newPages int) {
	var parts []string
	if gb := float64(s.MedianAnonHeld) / (1 << 30); gb > 0 && len(m.FreshGB) > 0 {
		var small, huge float64
		for _, f := range m.FreshGB {
			small += f.Seconds / float64(len(m.FreshGB))
			huge += f.HugeSeconds / float64(len(m.FreshGB))
		}
		at := fmt.Sprintf("%.2f s", gb*small)
		if huge > 0 {
			at = fmt.Sprintf("%.2f s in huge pages to %.2f s in 4 KB pages", gb*huge, gb*small)
		}
		parts = append(parts, fmt.Sprintf("the %s of anonymous memory it held, %s", size(s.MedianAnonHeld), at))
	}
	if newPages > 0 && len(m.NewPages) > 0 {
		var per float64
		for _, p := range m.NewPages {
			per += p.CPUMicros / float64(len(m.NewPages))
		}
		parts = append(parts, fmt.Sprintf("its %d new pages, %.1f s", newPages, per*float64(newPages)/1e6))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "  at this machine's rates (above): %s of its CPU time\n", strings.Join(parts, "; "))
	}
}

// inputs prints what the read stage of a scenario's first run did with the
// input files, as the build reported it.
func inputs(w io.Writer, s Summary) {
	if len(s.Runs) > 0 && s.Runs[0].ReadCache != "" {
		fmt.Fprintf(w, "  read cache (run 1): %s\n", s.Runs[0].ReadCache)
	}
}

// faster words a Hugo/errdocs time ratio.
func faster(ratio float64) string {
	switch {
	case ratio <= 0:
		return ""
	case ratio >= 1:
		return fmt.Sprintf("errdocs is %.1fx faster", ratio)
	}
	return fmt.Sprintf("errdocs is %.1fx SLOWER", 1/ratio)
}

// lessCPU words a Hugo/errdocs CPU time ratio.
func lessCPU(ratio float64) string {
	switch {
	case ratio <= 0:
		return ""
	case ratio >= 1:
		return fmt.Sprintf("errdocs takes %.1fx less CPU", ratio)
	}
	return fmt.Sprintf("errdocs takes %.1fx MORE CPU", 1/ratio)
}

func secs(s Summary) string {
	if len(s.Runs) == 1 {
		return fmt.Sprintf("%7.2f s  CPU %.2f s (sys %.2f)", s.MedianSeconds, s.MedianCPU, s.MedianSys)
	}
	return fmt.Sprintf("%7.2f s (min %.2f, max %.2f)  CPU %.2f s (sys %.2f)", s.MedianSeconds, s.MinSeconds, s.MaxSeconds, s.MedianCPU, s.MedianSys)
}

func stages(st []Stage) string {
	var parts []string
	for _, s := range st {
		parts = append(parts, fmt.Sprintf("%s %.2f s (cpu %.2f)", s.Name, s.Seconds, s.CPUSeconds))
	}
	return strings.Join(parts, "  ")
}

// counts gives the changed-file count, or each run's when they differ.
func counts(runs []Run) string {
	var parts []string
	same := true
	for i, r := range runs {
		parts = append(parts, itoa(r.FilesChanged))
		same = same && (i == 0 || r.FilesChanged == runs[0].FilesChanged)
	}
	if len(runs) == 0 {
		return "-"
	}
	if same {
		return parts[0]
	}
	return strings.Join(parts, "/") + " (per run)"
}

func allTrue(runs []Run, f func(Run) *bool) string {
	yes, n := 0, 0
	for _, r := range runs {
		if b := f(r); b != nil {
			n++
			if *b {
				yes++
			}
		}
	}
	switch {
	case n == 0:
		return "n/a (not listed before)"
	case yes == n:
		return "yes"
	case yes == 0:
		return "NO"
	}
	return fmt.Sprintf("in %d of %d runs", yes, n)
}

func size(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.2f GB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
	case b > 0:
		return fmt.Sprintf("%d KB", b>>10)
	}
	return "?"
}

// memory is a scenario's peak resident memory (the largest over its runs)
// and its median count of page faults.
func memory(s Summary) string {
	if s.MedianFaults == 0 {
		return size(s.MaxRSS)
	}
	return fmt.Sprintf("%s (%d page faults)", size(s.MaxRSS), s.MedianFaults)
}
