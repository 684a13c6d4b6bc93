//go:build linux

package resident

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestEvictUnder maps two files, one under the folder evicted and one
// beside it, touches every page of both, and checks that EvictUnder lets
// go of the first one's pages alone (the process's file-backed resident
// memory drops by about its size), advises no writable mapping, and that
// the evicted file still reads as it is.
func TestEvictUnder(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/maps and /proc/self/statm")
	}
	const size = 32 << 20
	root := t.TempDir()
	under := filepath.Join(root, "index dir", "bleve") // a space in the path
	beside := filepath.Join(root, "index dir", "bleve-beside")
	content := bytes.Repeat([]byte("errdocs!"), size/8)
	mapTouched := func(dir string) []byte {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "segment.zap")
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		data, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Munmap(data) })
		sum := 0
		for i := 0; i < size; i += os.Getpagesize() {
			sum += int(data[i])
		}
		if sum == 0 {
			t.Fatal("nothing read")
		}
		return data
	}
	evicted, kept := mapTouched(under), mapTouched(beside)
	// A writable private mapping of the heap's kind, under no folder:
	// MADV_DONTNEED would zero it, so it must never be advised.
	anon, err := unix.Mmap(-1, 0, 1<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(anon)
	anon[0] = 42

	before, ok := FileResident()
	if !ok || before < 2*size*9/10 {
		t.Fatalf("%d bytes of mapped files resident before, want both files' %d", before, 2*size)
	}
	if advised := EvictUnder(filepath.Join(root, "index dir", "bleve")); advised != size {
		t.Errorf("EvictUnder advised %d bytes, want the one file's %d", advised, size)
	}
	after, _ := FileResident()
	if dropped := before - after; dropped < size*9/10 || dropped > size*11/10 {
		t.Errorf("resident mapped files went %d → %d bytes, want a drop of about %d", before, after, size)
	}
	if !bytes.Equal(evicted, content) || !bytes.Equal(kept, content) || anon[0] != 42 {
		t.Error("a mapping reads differently after EvictUnder")
	}
}

func TestFileMappingUnder(t *testing.T) {
	dir := "/cache/index dir/bleve"
	for _, c := range []struct {
		line       string
		start, end uintptr
		ok         bool
	}{
		{"7f0000000000-7f0000002000 r--s 00000000 fd:00 123  /cache/index dir/bleve/store/0001.zap", 0x7f0000000000, 0x7f0000002000, true},
		{"7f0000000000-7f0000002000 r--s 00000000 fd:00 123  /cache/index dir/bleve/store/0001.zap (deleted)", 0x7f0000000000, 0x7f0000002000, true},
		{"7f0000000000-7f0000002000 rw-s 00000000 fd:00 123  /cache/index dir/bleve/root.bolt", 0, 0, false},
		{"7f0000000000-7f0000002000 r--s 00000000 fd:00 123  /cache/index dir/bleve-old/0001.zap", 0, 0, false},
		{"7f0000000000-7f0000002000 r--s 00000000 fd:00 123  /cache/index dir/bleve", 0, 0, false},
		{"7f0000000000-7f0000002000 rw-p 00000000 00:00 0 ", 0, 0, false},
		{"7f0000000000-7f0000002000 r--p 00000000 00:00 0  [vvar]", 0, 0, false},
		{"zz-7f0000002000 r--s 00000000 fd:00 123  /cache/index dir/bleve/a.zap", 0, 0, false},
	} {
		start, end, ok := fileMappingUnder([]byte(c.line), dir)
		if start != c.start || end != c.end || ok != c.ok {
			t.Errorf("%q: %#x-%#x %v, want %#x-%#x %v", c.line, start, end, ok, c.start, c.end, c.ok)
		}
	}
}
