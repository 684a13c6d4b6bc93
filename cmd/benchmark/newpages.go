package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/errdocs/errdocs/internal/cputime"
)

// A cold build makes a folder and an index.html in it for every record.
// What that costs is the file system's, and it is not always the same on
// one machine. On ext4 without a journal, the inode allocator steps over
// every inode freed in the last minutes (longer when its inode table
// block is still dirty) while it looks for a free one: right after a
// large deletion, making a folder and a file cost several times what it
// cost once the file system had settled (BENCHMARKS.md). The benchmark measures it at its start and at its end,
// as it measures fresh memory, so that a cold build's figure can be read
// against it.

// probePages is how many folders a measure makes, and pageBytes the size
// of the file in each: about a real-code record page.
const (
	probePages = 2000
	pageBytes  = 12 << 10
)

// NewPages is one measure of newPagesCost: the CPU time (user+sys) and the
// system time one folder and its file took, on average.
type NewPages struct {
	CPUMicros float64 `json:"cpuMicroseconds"`
	SysMicros float64 `json:"sysMicroseconds"`
}

// newPagesCost makes n folders under dir, each holding an index.html of
// size bytes, and returns the CPU and system time each took. The folders
// are left for the caller to delete after the last timed build: deleting
// them would be the very disturbance measured.
func newPagesCost(dir string, n, size int) (NewPages, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return NewPages{}, err
	}
	body := make([]byte, size)
	for i := range body {
		body[i] = "<p>errdocs</p>\n"[i%15]
	}
	cpu0, sys0, ok := cputime.Times()
	if !ok {
		return NewPages{}, fmt.Errorf("the process's CPU time cannot be read here")
	}
	for i := range n {
		page := filepath.Join(dir, strconv.Itoa(i))
		if err := os.Mkdir(page, 0o755); err != nil {
			return NewPages{}, err
		}
		if err := os.WriteFile(filepath.Join(page, "index.html"), body, 0o644); err != nil {
			return NewPages{}, err
		}
	}
	cpu1, sys1, _ := cputime.Times()
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(n) }
	return NewPages{CPUMicros: per(cpu1 - cpu0), SysMicros: per(sys1 - sys0)}, nil
}

// probeNewPages adds a measure of newPagesCost to m, made in a folder of
// the trash under work (the file system the builds write to).
func (m *Machine) probeNewPages(t *trash) {
	dir, err := t.reserve()
	if err == nil {
		var np NewPages
		if np, err = newPagesCost(dir, probePages, pageBytes); err == nil {
			m.NewPages = append(m.NewPages, np)
			return
		}
	}
	t.logf("new pages not measured: %v", err)
}
