// Package resident keeps a process's resident memory inside a budget by
// moving the Go runtime's soft memory limit.
//
// The runtime's limit (debug.SetMemoryLimit) counts only the memory the
// runtime itself maps: the heap, stacks and their metadata. A build also
// maps files read-only (the search index's segments, the side store's
// log, large cache files), and every page of them it touches counts in its
// resident memory as well: with a fixed limit, a large build holds the
// heap at the limit while the mapped pages grow beside it, past the
// budget. Govern lowers the heap's limit by what the
// mapped files hold resident, as that grows, so that the two together stay
// inside the budget; the collector then runs more often only when the
// mappings are large.
package resident

import (
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Limit is the soft memory limit for the heap that keeps the process's
// resident memory inside budget when mapped files hold fileResident bytes
// resident: what is left of the budget, but never below floor (a heap
// squeezed below what it holds live would make the collector run back to
// back, which costs more than the memory).
func Limit(budget, fileResident, floor int64) int64 {
	return max(budget-fileResident, floor)
}

// FileResident is how much of the process's resident memory is pages of
// mapped files and shared memory (the "shared" column of
// /proc/self/statm), or false where the system does not say.
func FileResident() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(b)
	if len(f) < 3 {
		return 0, false
	}
	pages, err := strconv.ParseInt(string(f[2]), 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// expected is what Expect announced: bytes of mapped files about to be
// read, counted as resident before they are.
var expected atomic.Int64

// Expect tells a running governor that the process is about to read
// bytes of mapped files: the limit is lowered for them at once, not only
// as their pages arrive, which can be faster than the collector can make
// room (an export reads the whole index at once). It stays until Expect is called again (0 to cancel).
func Expect(bytes int64) {
	expected.Store(max(bytes, 0))
	select {
	case expectedNow <- struct{}{}:
	default:
	}
}

// expectedNow wakes a governor to apply an Expect at once.
var expectedNow = make(chan struct{}, 1)

// Govern sets the soft memory limit to Limit(budget, FileResident(),
// floor) now and then every interval, until stop is called; while an
// Expect is in force, the file pages counted are at least the bytes it
// announced. It does
// nothing where the system does not say what mapped files hold (stop is
// then a no-op too), and leaves the limit as it found it when stopped.
func Govern(budget, floor int64, every time.Duration) (stop func()) {
	if _, ok := FileResident(); !ok {
		return func() {}
	}
	before := debug.SetMemoryLimit(-1)
	set := func() {
		if file, ok := FileResident(); ok {
			debug.SetMemoryLimit(Limit(budget, max(file, expected.Load()), floor))
		}
	}
	set()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				set()
			case <-expectedNow:
				set()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			debug.SetMemoryLimit(before)
		})
	}
}
