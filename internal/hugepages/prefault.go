package hugepages

import (
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// An addrRange is a stretch of address space: where it starts, how long.
type addrRange struct{ start, size uintptr }

// stretch is the heap Reserve marked, lowest address first.
var stretch []addrRange

// Prefault faults in up to n bytes of the stretch Reserve marked, from its
// lowest address (where the heap grows first), in huge pages where the
// kernel leaves them to the program, in the background, on a thread of the
// lowest priority, and returns how many bytes it will fault in: none when
// Reserve marked nothing, or on a second call.
//
// It is for a program that knows about how much fresh heap it is about to
// touch (a rebuild, from the previous one): on a virtual machine whose host
// takes back the memory the guest frees, each first touch of a page is a
// trap to the host, paid on the path of the goroutine that touches it.
// Faulted in ahead, the page costs the same, but on a core the program
// leaves idle (the thread yields to every other); the heap finds it
// resident. The contents of the heap are untouched: a page already
// present is left as it is, a missing one arrives zeroed, as the heap
// expects of memory it has not used.
//
// The stretch faulted in is marked for huge pages first. In 4 KB pages,
// populating is only the guest kernel's share of a first touch: some hosts
// back a populated page only at its first write from user space, which the
// heap then pays on its own path, a page at a time; a huge page populated
// ahead costs the heap nothing more at its first write (BENCHMARKS.md,
// sessions 33 and 39). The thread stays in system calls: running Go code
// at the lowest priority, it could hold up a stop-the-world pause for as
// long as the kernel leaves it waiting.
func Prefault(n int) int {
	total := 0
	prefaultOnce.Do(func() {
		var todo []addrRange
		for _, r := range stretch {
			if n <= 0 {
				break
			}
			r.size = min(r.size, uintptr(n))
			todo = append(todo, r)
			n -= int(r.size)
			total += int(r.size)
		}
		if total > 0 {
			markHuge(todo)
			go faultIn(todo)
		}
	})
	return total
}

var prefaultOnce sync.Once

// faultIn faults in the regions a huge page at a time: each call holds the
// process's memory map for reading while the kernel clears the page, so a
// thread that must change the map (a file mapped, the heap growing) waits
// for one page, not the whole stretch, even though this thread runs last.
func faultIn(todo []addrRange) {
	// The thread is given up when the goroutine ends locked to it: no
	// other goroutine inherits its priority.
	runtime.LockOSThread()
	unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), lowestPriority)
	for _, r := range todo {
		for off := uintptr(0); off < r.size; off += hugePageSize {
			length := min(hugePageSize, r.size-off)
			// MADV_POPULATE_WRITE (Linux 5.14): an older kernel
			// refuses it, and the heap faults its pages in itself.
			if _, _, errno := unix.Syscall(unix.SYS_MADVISE, r.start+off, length, unix.MADV_POPULATE_WRITE); errno != 0 {
				return
			}
		}
	}
}

// lowestPriority is the nice value of the faulting thread.
const lowestPriority = 19
