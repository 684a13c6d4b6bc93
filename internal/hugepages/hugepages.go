// Package hugepages reserves the stretch of address space the Go heap
// will grow into, so that Prefault can fault it in ahead of the heap, and
// Huge can ask Linux to back it with transparent huge pages (2 MB) where
// the kernel leaves that to each program
// (/sys/kernel/mm/transparent_hugepage/enabled is "madvise", as on many
// distributions and cloud machines).
//
// A build touches hundreds of megabytes of fresh heap. On a virtual
// machine every first touch of a page can trap to the hypervisor; there a
// rebuild spends more time faulting in pages than working (the figures:
// BENCHMARKS.md). Reserve makes the runtime map a stretch of heap it has
// not touched and gives it back; the heap then grows into it.
//
// Huge pages are a trade: a build that works through a large heap (a
// cold build) spends less CPU time with them, as the processor misses
// fewer address translations, but on a virtual machine whose host takes
// back the memory the guest frees, a fresh huge page faulted in by the
// heap itself can cost several times what its 512 small pages cost, and
// a rebuild of a few pages is mostly first touches (BENCHMARKS.md,
// session 27). So the whole stretch is marked by the build that needs it
// (Huge), not at start. The Go runtime does not ask for huge pages on its
// own (it did in Go 1.21.0 and stopped: a long-running server's memory
// grew).
//
// Prefault faults in the start of the stretch ahead of the heap, on a
// thread of the lowest priority: the first touches a build would pay on
// its own path are paid on a core it leaves idle. It marks what it faults
// in for huge pages: populated ahead, a huge page costs the heap nothing
// at its first write, where a small page still costs the host's share
// (session 39).
package hugepages

import (
	"bytes"
	"cmp"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// modeFile says whether the kernel gives huge pages to every program
// ("always"), to those that ask ("madvise") or to none ("never").
const modeFile = "/sys/kernel/mm/transparent_hugepage/enabled"

// Reserve takes note of up to size bytes of heap, not yet touched, for
// Prefault and Huge, and returns how many bytes it reserved, on its first
// call only. It is meant for the start of a program (the stretch is the
// heap's next size bytes) and costs a garbage collection of the still
// small heap. Memory is only committed when the heap grows into the
// stretch; the runtime's scavenger may return parts of it to the kernel
// while it is unused, as with any free heap memory.
func Reserve(size int) int {
	reserved := 0
	once.Do(func() { reserved = reserve(size) })
	return reserved
}

// once keeps Reserve to the first call: a later stretch would be heap
// the runtime has used and must clear, touching every page of it.
var once sync.Once

func reserve(size int) int {
	if size <= 0 {
		return 0
	}
	// The stretch is taken in chunks, not as one object: the runtime
	// clears an object that overlaps heap it has used before (the small
	// heap of the program's start, freed by a collection), and clearing
	// one object the size of the stretch would touch every page of it.
	// A chunk that overlaps is cleared alone.
	// No collection while the stretch is taken: the heap is tiny, and
	// its goal would be met again at every chunk.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	chunks := make([][]byte, 0, size/chunkSize+1)
	reserved := 0
	var taken []addrRange
	for left := size; left > 0; left -= chunkSize {
		chunk := make([]byte, min(left, chunkSize))
		chunks = append(chunks, chunk)
		if region := pageAligned(chunk); len(region) > 0 {
			reserved += len(region)
			taken = append(taken, addrRange{uintptrOf(region), uintptr(len(region))})
		}
	}
	runtime.KeepAlive(chunks)
	chunks = nil
	runtime.GC() // the stretch free again, for the heap to grow into
	// The heap takes the lowest free pages first: it grows into the
	// stretch from its lowest address.
	slices.SortFunc(taken, func(a, b addrRange) int { return cmp.Compare(a.start, b.start) })
	stretch = taken
	return reserved
}

// Huge marks the stretch Reserve took for transparent huge pages, where
// the kernel leaves them to the program, and returns how many bytes it
// marked: 0 when the kernel gives every program huge pages already, gives
// none, or refuses, or on a second call. The part of the heap already in
// small pages stays so; the heap grows into huge pages from then on.
func Huge() int {
	marked := 0
	hugeOnce.Do(func() {
		marked = markHuge(stretch)
	})
	return marked
}

// markHuge marks the regions for transparent huge pages where the kernel
// leaves them to the program, and returns how many bytes it marked.
func markHuge(regions []addrRange) int {
	if !askOnly() {
		return 0
	}
	marked := 0
	for _, r := range regions {
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, r.start, r.size, unix.MADV_HUGEPAGE); errno == 0 {
			marked += int(r.size)
		}
	}
	return marked
}

var hugeOnce sync.Once

// chunkSize is the size of the pieces the stretch is taken in: two huge
// pages. Marked for huge pages, the pieces, which lie side by side, are
// merged by the kernel into one region.
const chunkSize = 2 * hugePageSize

// hugePageSize is the size of a transparent huge page on x86-64 and on
// arm64 with 4 KB pages.
const hugePageSize = 2 << 20

// askOnly reports whether the kernel gives huge pages only to memory
// marked for them.
func askOnly() bool {
	mode, err := os.ReadFile(modeFile)
	return err == nil && bytes.Contains(mode, []byte("[madvise]"))
}

// pageAligned is the part of b that begins and ends on page boundaries,
// as madvise wants (a large Go allocation is aligned already).
func pageAligned(b []byte) []byte {
	page := uintptr(os.Getpagesize())
	start := uintptrOf(b)
	skip := (page - start%page) % page
	if uintptr(len(b)) < skip+page {
		return nil
	}
	n := (uintptr(len(b)) - skip) &^ (page - 1)
	return b[skip : skip+n]
}

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
