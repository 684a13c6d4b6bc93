package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestBuildWritesProfilesAndTrace builds the sample with -cpuprofile,
// -memprofile and -trace: each file is written, in its format (pprof's
// gzip; the runtime's trace header), and the site is built as without them.
func TestBuildWritesProfilesAndTrace(t *testing.T) {
	dir := t.TempDir()
	cpu, mem, tr := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof"), filepath.Join(dir, "build.trace")
	out := filepath.Join(dir, "site")
	code, _, stderr := runCLI(t, "build", contentDir(t), "--out", out, "--quiet",
		"-cpuprofile", cpu, "-memprofile", mem, "-trace", tr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("no site built: %v", err)
	}
	for _, p := range []string{cpu, mem} {
		b, err := os.ReadFile(p)
		if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: not a pprof profile (gzip): %d bytes, %v", filepath.Base(p), len(b), err)
		}
	}
	b, err := os.ReadFile(tr)
	if err != nil || !bytes.HasPrefix(b, []byte("go 1.")) || !bytes.Contains(b[:min(len(b), 32)], []byte(" trace")) || len(b) < 1024 {
		t.Errorf("build.trace: not an execution trace: %d bytes, %v", len(b), err)
	}
	// A trace file that cannot be created fails the build before it starts.
	code, _, stderr = runCLI(t, "build", contentDir(t), "--out", out, "--quiet", "-trace", filepath.Join(dir, "missing", "x.trace"))
	if code == 0 || !bytes.Contains([]byte(stderr), []byte("x.trace")) {
		t.Errorf("an uncreatable trace file: exit %d, %q", code, stderr)
	}
}
