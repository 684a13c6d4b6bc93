package hugepages

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestReserveBacksTheHeapWithHugePages grows the heap into the reserved
// stretch, marked by Huge, and reads from the kernel how much of the
// process's memory is in huge pages: most of what was touched when the
// kernel leaves huge pages to the program, nothing marked otherwise.
//
// Reserve itself touches (almost) nothing, even when the heap has used and
// freed memory just below the stretch, which the runtime clears before it
// hands it out again.
func TestReserveBacksTheHeapWithHugePages(t *testing.T) {
	const stretch, touched = 256 << 20, 64 << 20
	usedAndFreed()
	before := anonHugeBytes(t)
	faults := minorFaults(t)
	if reserved := Reserve(stretch); reserved < stretch-2<<20 {
		t.Fatalf("Reserve reserved %d bytes of a %d-byte stretch", reserved, stretch)
	}
	if faulted := (minorFaults(t) - faults) * int64(os.Getpagesize()); faulted > 16<<20 {
		t.Errorf("Reserve touched %d MB of a %d MB stretch", faulted>>20, stretch>>20)
	}
	advised := Huge()
	if !askOnly() {
		if advised != 0 {
			t.Fatalf("the kernel's mode is not madvise, yet Huge marked %d bytes", advised)
		}
		return
	}
	if advised < stretch-2<<20 {
		t.Fatalf("Huge marked %d bytes of a %d-byte stretch", advised, stretch)
	}
	block := make([]byte, touched)
	for i := 0; i < len(block); i += 4096 {
		block[i] = 1
	}
	grown := anonHugeBytes(t) - before
	if grown < touched/2 {
		t.Errorf("after touching %d MB of heap, huge pages grew by %d MB; want most of it", touched>>20, grown>>20)
	}
	if again := Reserve(stretch); again != 0 {
		t.Errorf("a second Reserve reserved %d bytes; want 0 (it would clear used heap)", again)
	}
	if again := Huge(); again != 0 {
		t.Errorf("a second Huge marked %d bytes; want 0", again)
	}
	_ = block[len(block)-1]
}

// usedAndFreed leaves freed heap just below where the stretch will begin:
// the last object allocated, used, dropped and collected.
func usedAndFreed() {
	last := make([]byte, 8<<20)
	for i := range last {
		last[i] = 1
	}
	runtime.KeepAlive(last)
	last = nil
	runtime.GC()
}

// minorFaults is the process's count of page faults served without I/O.
func minorFaults(t *testing.T) int64 {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return ru.Minflt
}

// anonHugeBytes is the process's anonymous memory in transparent huge
// pages, as /proc/self/smaps_rollup counts it.
func anonHugeBytes(t *testing.T) int64 {
	t.Helper()
	return procKB(t, "/proc/self/smaps_rollup", "AnonHugePages") << 10
}

// procKB is the field of a /proc file that counts kilobytes ("Name:   123 kB").
func procKB(t *testing.T, file, field string) int64 {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			t.Fatalf("%s in %s: %v", field, file, err)
		}
		return kb
	}
	t.Fatalf("no %s in %s", field, file)
	return 0
}

func TestPageAligned(t *testing.T) {
	b := make([]byte, 3<<20)
	for _, c := range []struct{ from, to int }{{0, len(b)}, {1, len(b)}, {100, 5000}, {4095, 4097}} {
		got := pageAligned(b[c.from:c.to])
		if len(got) == 0 {
			continue
		}
		page := os.Getpagesize()
		start := int(uintptrOf(got))
		if start%page != 0 || len(got)%page != 0 {
			t.Errorf("pageAligned(b[%d:%d]) starts at %#x, %d bytes: not whole pages", c.from, c.to, start, len(got))
		}
		if off := start - int(uintptrOf(b)); off < c.from || off+len(got) > c.to {
			t.Errorf("pageAligned(b[%d:%d]) = b[%d:%d]: outside its input", c.from, c.to, off, off+len(got))
		}
	}
	if got := pageAligned(b[100:5000]); len(got) != 0 && len(got) != 4096 {
		t.Errorf("pageAligned of 4,900 bytes = %d bytes", len(got))
	}
}
