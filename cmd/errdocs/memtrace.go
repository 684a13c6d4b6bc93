package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"time"
)

// memTrace is a hidden aid to memory work: with ERRDOCS_MEMTRACE=DIR in
// the environment, a build appends a line to DIR/mem.log every few seconds
// (resident memory, anonymous and file-backed, the Go heap, and the
// collector's cycles and CPU time against the process's) and writes
// a heap profile (pprof, inuse_space) at the end of each stage and once a
// minute, DIR/NN-STAGE.prof and DIR/tSSSS.prof.
type memTrace struct {
	dir   string
	start time.Time
	log   *os.File
	mu    sync.Mutex
	stage string
	n     int
	stop  chan struct{}
	done  chan struct{}
}

func startMemTrace() *memTrace {
	dir := os.Getenv("ERRDOCS_MEMTRACE")
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil
	}
	f, err := os.Create(filepath.Join(dir, "mem.log"))
	if err != nil {
		return nil
	}
	t := &memTrace{dir: dir, start: time.Now(), log: f, stage: "start", stop: make(chan struct{}), done: make(chan struct{})}
	go t.run()
	return t
}

func (t *memTrace) run() {
	defer close(t.done)
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	lastProf := time.Now()
	for {
		select {
		case <-t.stop:
			return
		case <-tick.C:
			t.line("")
			if time.Since(lastProf) >= time.Minute {
				lastProf = time.Now()
				t.profile(fmt.Sprintf("t%04d", int(time.Since(t.start).Seconds())))
			}
		}
	}
}

// stageDone is build.Config.StageDone.
func (t *memTrace) stageDone(name string) {
	if t == nil {
		return
	}
	t.line(name + " done")
	t.mu.Lock()
	t.n++
	n := t.n
	t.stage = name
	t.mu.Unlock()
	t.profile(fmt.Sprintf("%02d-%s", n, strings.ReplaceAll(name, "+", "-")))
}

func (t *memTrace) profile(name string) {
	f, err := os.Create(filepath.Join(t.dir, name+".prof"))
	if err != nil {
		return
	}
	pprof.WriteHeapProfile(f)
	f.Close()
}

var memSamples = []metrics.Sample{
	{Name: "/gc/heap/live:bytes"},
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
	{Name: "/gc/cycles/total:gc-cycles"},
	{Name: "/cpu/classes/gc/total:cpu-seconds"},
	{Name: "/cpu/classes/total:cpu-seconds"},
	{Name: "/memory/classes/heap/free:bytes"},
	{Name: "/memory/classes/heap/unused:bytes"},
	{Name: "/memory/classes/metadata/other:bytes"},
	{Name: "/gc/gomemlimit:bytes"},
}

func (t *memTrace) line(note string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := procStatus()
	metrics.Read(memSamples)
	mb := func(v uint64) uint64 { return v >> 20 }
	fmt.Fprintf(t.log, "%6.0fs %-14s rss %5d anon %5d file %5d hwm %5d | live %5d objects %5d go-total %5d released %5d free %5d unused %5d meta %4d limit %5d MB | gc %5d cpu %6.1f of %7.1f s %s\n",
		time.Since(t.start).Seconds(), t.stage, st["VmRSS"]>>10, st["RssAnon"]>>10, st["RssFile"]>>10, st["VmHWM"]>>10,
		mb(memSamples[0].Value.Uint64()), mb(memSamples[1].Value.Uint64()), mb(memSamples[2].Value.Uint64()), mb(memSamples[3].Value.Uint64()),
		mb(memSamples[7].Value.Uint64()), mb(memSamples[8].Value.Uint64()), mb(memSamples[9].Value.Uint64()), mb(memSamples[10].Value.Uint64()),
		memSamples[4].Value.Uint64(), memSamples[5].Value.Float64(), memSamples[6].Value.Float64(), note)
}

func (t *memTrace) close() {
	if t == nil {
		return
	}
	close(t.stop)
	<-t.done
	t.line("end")
	t.log.Close()
}

// procStatus reads the kB figures of /proc/self/status.
func procStatus() map[string]uint64 {
	out := map[string]uint64{}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var n uint64
		if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &n); err == nil {
			out[k] = n
		}
	}
	return out
}
