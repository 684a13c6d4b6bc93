package hugepages

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// childEnv makes the test binary run a test as a child process of its
// own: Reserve and Prefault act once per process.
const childEnv = "HUGEPAGES_TEST_CHILD"

// TestPrefaultFaultsInWhereTheHeapGrows: Prefault makes the start of the
// reserved stretch resident, in huge pages where the kernel gives them on
// request, without the program touching it, and the heap then grows into
// those very pages: touching fresh heap takes no more memory. A second
// call does nothing.
func TestPrefaultFaultsInWhereTheHeapGrows(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPrefaultFaultsInWhereTheHeapGrows$", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("child process: %v\n%s", err, out)
		}
		t.Logf("child process:\n%s", out)
		return
	}
	const stretch, ahead, touched = 256 << 20, 64 << 20, 48 << 20
	// Not marked for huge pages (Huge), as a rebuild of few pages leaves
	// it: Prefault marks what it faults in.
	if n := Reserve(stretch); n < stretch-2<<20 {
		t.Fatalf("Reserve(%d) = %d", stretch, n)
	}
	before, hugeBefore := anonResident(t), anonHugeBytes(t)
	if n := Prefault(ahead); n != ahead {
		t.Fatalf("Prefault(%d) = %d", ahead, n)
	}
	deadline := time.Now().Add(30 * time.Second)
	for anonResident(t)-before < ahead*9/10 {
		if time.Now().After(deadline) {
			t.Fatalf("30 s after Prefault of %d MB, anonymous memory grew by %d MB", ahead>>20, (anonResident(t)-before)>>20)
		}
		time.Sleep(10 * time.Millisecond)
	}
	faulted := anonResident(t)
	// Where huge pages are only given to memory that asks, what was
	// faulted in asked. (The kernel may find too few free huge pages for
	// the whole of it.)
	if grown := anonHugeBytes(t) - hugeBefore; askOnly() && grown < ahead/2 {
		t.Errorf("Prefault(%d MB) faulted in %d MB in huge pages; want most of it", ahead>>20, grown>>20)
	}
	block := make([]byte, touched)
	for i := 0; i < len(block); i += 4096 {
		block[i] = 1
	}
	if grown := anonResident(t) - faulted; grown > 8<<20 {
		t.Errorf("touching %d MB of fresh heap after %d MB were faulted in ahead took %d MB more: the heap did not grow into them",
			touched>>20, ahead>>20, grown>>20)
	}
	if n := Prefault(ahead); n != 0 {
		t.Errorf("a second Prefault says it faults in %d bytes; want 0", n)
	}
	_ = block[len(block)-1]
}

// anonResident is the process's resident anonymous memory (RssAnon).
func anonResident(t *testing.T) int64 {
	t.Helper()
	return procKB(t, "/proc/self/status", "RssAnon") << 10
}
