package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Stage is one row of `errdocs build --stats`.
type Stage struct {
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the CPU time (user and system, every core) the
	// process used during the stage.
	CPUSeconds float64 `json:"cpuSeconds"`
}

// Run is one timed child process.
type Run struct {
	Seconds float64 `json:"seconds"`
	// SyncSeconds is how long flushing the data earlier steps left to be
	// written took before this build (not part of Seconds).
	SyncSeconds float64 `json:"syncSeconds"`
	// IdleSeconds is how long nothing ran before a timed rebuild (the
	// gap, -gap): since the last build or look at the output ended.
	IdleSeconds float64 `json:"idleSeconds,omitempty"`
	// HandedBackBytes is the free memory the machine reported to its host
	// meanwhile (pagereport.go); nil where the kernel does not count it.
	HandedBackBytes *int64  `json:"handedBackBytes,omitempty"`
	PeakRSS         int64   `json:"peakRSSBytes"`
	CPUSeconds      float64 `json:"cpuSeconds"` // user+sys of the child
	SysSeconds      float64 `json:"sysSeconds"` // of which sys: page faults and file system work
	PageFaults      int64   `json:"pageFaults"` // minor page faults of the child
	// AnonHeld is the most anonymous memory (heap, stacks) the build
	// held at a stage's end, as it reports it (--stats): the fresh memory
	// it took, whose cost is the machine's (FreshMemory).
	AnonHeld int64 `json:"anonHeldBytes,omitempty"`
	// ReadCache is the build's own account of its input files (the
	// "read cache:" line of --stats), when it prints one.
	ReadCache string `json:"readCache,omitempty"`
	// NoChangeMissed is why the build did not take the no-change fast
	// path, and StampSkipped why it left the next build none to take, as
	// the build says (--stats).
	NoChangeMissed string  `json:"noChangeMissed,omitempty"`
	StampSkipped   string  `json:"stampSkipped,omitempty"`
	Stages         []Stage `json:"stages,omitempty"`
	// Disturbance is what else the machine did meanwhile.
	Disturbance Disturbance `json:"disturbance"`
	Written     int64       `json:"written"`   // as the build reports it
	Unchanged   int64       `json:"unchanged"` // as the build reports it
	// Files whose mtime or size changed, or that appeared or went, as seen
	// by comparing the output before and after (not for cold builds).
	FilesChanged int            `json:"filesChanged"`
	Kinds        map[string]int `json:"kinds,omitempty"`
	Paths        []string       `json:"paths,omitempty"` // changed paths, first few
	// one-removed checks
	PageGone    *bool `json:"pageGone,omitempty"`
	SearchGone  *bool `json:"searchGone,omitempty"`
	SitemapGone *bool `json:"sitemapGone,omitempty"`
}

// timed runs a command in dir, returning wall time, peak RSS of the child
// and its standard output. A failing command is an error carrying the end
// of its standard error.
func timed(dir string, name string, args ...string) (Run, string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	// What earlier steps wrote (a cold build writes gigabytes)
	// is written back to disk first, not while the build runs: the kernel
	// flushes it over the next half minute, which a rebuild timed right
	// after a cold build would pay for and a daily rebuild never does.
	t0 := time.Now()
	syscall.Sync()
	synced := time.Since(t0)
	before := markLoad()
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	after := markLoad()
	r := Run{Seconds: wall.Seconds(), SyncSeconds: synced.Seconds()}
	if cmd.ProcessState != nil {
		r.PeakRSS = maxRSS(cmd.ProcessState)
		r.CPUSeconds = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		r.SysSeconds = cmd.ProcessState.SystemTime().Seconds()
		r.PageFaults = pageFaults(cmd.ProcessState)
	}
	r.Disturbance = disturbance(before, after, r.CPUSeconds, r.Seconds)
	if err != nil {
		tail := stderr.String()
		if len(tail) > 2000 {
			tail = "…" + tail[len(tail)-2000:]
		}
		return r, stdout.String(), fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail)
	}
	return r, stdout.String(), nil
}

var summaryRE = regexp.MustCompile(`(\d+) files written, (\d+) unchanged`)

// parseStats reads the stage table `errdocs build --stats` prints: a
// header line, then one "NAME DURATION SHARE%" line per stage, then
// "total DURATION". Lines that do not parse are skipped, so stage renames
// and extra lines do not break it; the total line is left out.
func parseStats(out string) []Stage {
	var stages []Stage
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 3 && strings.HasSuffix(f[len(f)-1], "%") {
			f = f[:len(f)-1]
		}
		// The durations at the end of the row: its time, then its CPU.
		var ds []float64
		for len(f) > 1 && len(ds) < 2 {
			d, err := time.ParseDuration(f[len(f)-1])
			if err != nil {
				break
			}
			ds = append([]float64{d.Seconds()}, ds...)
			f = f[:len(f)-1]
		}
		if len(ds) == 0 {
			continue
		}
		name := strings.Join(f, " ")
		if name == "total" {
			continue
		}
		st := Stage{Name: name, Seconds: ds[0]}
		if len(ds) == 2 {
			st.CPUSeconds = ds[1]
		}
		stages = append(stages, st)
	}
	return stages
}

// parseSummary reads "N files written, M unchanged" from the build's
// summary line.
func parseSummary(out string) (written, unchanged int64) {
	m := summaryRE.FindStringSubmatch(out)
	if m == nil {
		return -1, -1
	}
	w, _ := strconv.ParseInt(m[1], 10, 64)
	u, _ := strconv.ParseInt(m[2], 10, 64)
	return w, u
}

// anonHeld is the largest of the sizes on the --stats line "anonymous
// memory resident at each stage's end …: STAGE SIZE, …" (0 without one).
func anonHeld(out string) int64 {
	line := statsLine(out, "anonymous memory resident at each stage's end")
	_, list, _ := strings.Cut(line, ": ")
	var most int64
	for _, m := range heldRE.FindAllStringSubmatch(list, -1) {
		n, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			continue
		}
		most = max(most, int64(n*float64(unitBytes[m[2]])))
	}
	return most
}

var (
	heldRE    = regexp.MustCompile(`([0-9.]+) (B|KB|MB|GB)(?:,|$)`)
	unitBytes = map[string]int64{"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}
)

// readCacheLine is the build's account of its input files: the text of
// the "read cache:" line of --stats, or "".
func readCacheLine(out string) string { return statsLine(out, "read cache: ") }

// statsLine is the rest of the first line of --stats output out that
// starts with prefix ("" when none does).
func statsLine(out, prefix string) string {
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return rest
		}
	}
	return ""
}
