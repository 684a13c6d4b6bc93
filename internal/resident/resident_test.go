package resident

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestLimit(t *testing.T) {
	for _, c := range []struct{ budget, file, floor, want int64 }{
		{1000, 0, 100, 1000},
		{1000, 300, 100, 700},
		{1000, 950, 100, 100}, // never below the floor
		{1000, 2000, 100, 100},
	} {
		if got := Limit(c.budget, c.file, c.floor); got != c.want {
			t.Errorf("Limit(%d, %d, %d) = %d, want %d", c.budget, c.file, c.floor, got, c.want)
		}
	}
}

// TestGovernFollowsMappedFiles maps a file, touches every page of it, and
// checks that the heap's limit drops by what the mapping holds resident,
// and comes back when stopped.
func TestGovernFollowsMappedFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/statm")
	}
	const size = 64 << 20
	path := filepath.Join(t.TempDir(), "mapped")
	if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := debug.SetMemoryLimit(-1)
	const budget, floor = 8 << 30, 1 << 20
	stop := Govern(budget, floor, 10*time.Millisecond)
	defer stop()
	unmapped := budget - debug.SetMemoryLimit(-1) // what was resident already

	data, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(data)
	sum := 0
	for i := 0; i < size; i += os.Getpagesize() {
		sum += int(data[i])
	}
	if sum != 0 {
		t.Fatalf("the file of zeros read as %d", sum)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		lowered := budget - debug.SetMemoryLimit(-1) - unmapped
		if lowered >= size*9/10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the limit dropped by %d bytes after %d bytes of a mapped file were touched", lowered, size)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after stop the limit is %d, want the one before, %d", got, before)
	}
}

// TestExpectLowersAtOnce checks that an Expect lowers the limit by the
// bytes it announces before any page of them is resident, and that
// cancelling it gives them back.
func TestExpectLowersAtOnce(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/statm")
	}
	const budget, floor, announced = 8 << 30, 1 << 20, 1 << 30
	stop := Govern(budget, floor, time.Hour) // no tick: only Expect moves it
	defer stop()
	before := debug.SetMemoryLimit(-1)
	Expect(announced)
	defer Expect(0)
	waitFor(t, func() bool { return debug.SetMemoryLimit(-1) <= budget-announced }, "the limit to drop by the announced bytes")
	if before <= budget-announced {
		t.Fatalf("the limit was %d before the Expect: nothing to see", before)
	}
	Expect(0)
	waitFor(t, func() bool { return debug.SetMemoryLimit(-1) > budget-announced }, "the limit to come back")
}

func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 5 s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
