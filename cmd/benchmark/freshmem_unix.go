//go:build unix

package main

import (
	"syscall"
	"time"
	"unsafe"

	"github.com/errdocs/errdocs/internal/cputime"
)

// freshMemoryCost maps size bytes of anonymous memory, writes one byte in
// each 4 KB page, and returns the wall and system time that took; with
// huge, the memory is first marked for transparent huge pages
// (MADV_HUGEPAGE), as a cold build marks its heap (internal/hugepages),
// and ok is false where that cannot be asked. A build is a new process: every
// page of its heap is memory the kernel has to find, clear and map first.
// On a plain machine that is a small part of a rebuild; on a virtual
// machine whose host takes back the memory a guest frees, it can be the
// larger part of a rebuild's time, and it varies from minute to minute
// with the host (BENCHMARKS.md). The benchmark reports it beside the
// figures so that they can be read against the machine they were taken
// on.
func freshMemoryCost(size int, huge bool) (wall, sys float64, ok bool) {
	start := time.Now()
	_, sys0, ok := cputime.Times()
	if !ok {
		return 0, 0, false
	}
	// Huge pages are 2 MB, aligned: the mapping is one longer, and the
	// aligned stretch of size bytes in it is the one touched.
	const hugeSize = 2 << 20
	mapped, err := syscall.Mmap(-1, 0, size+hugeSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return 0, 0, false
	}
	defer syscall.Munmap(mapped)
	skip := (hugeSize - int(uintptrOf(mapped)%hugeSize)) % hugeSize
	mem := mapped[skip : skip+size]
	if huge && !adviseHugePages(mem) {
		return 0, 0, false
	}
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = 1
	}
	_, sys1, _ := cputime.Times()
	wall = time.Since(start).Seconds()
	return wall, (sys1 - sys0).Seconds(), true
}

// uintptrOf is the address of mem's first byte.
func uintptrOf(mem []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(mem))) }
