package read

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSplit: no input makes the splitter panic, every record it returns is
// a slice of the input, and every problem names the file.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		`{"id":"a"}`, `[{"id":"a"},{"id":"b"}]`, "{\"a\":1}\n{\"b\":2}\n", `{"record":{"id":"a"},"datasetVersion":"v"}`,
		`{"record":{"id":"a"},"record":{"id":"b"}}`, `{"datasetVersion":5,"record":{}}`, "[", "{", "\xef\xbb\xbf[]", "\n\n{\n", `"x"`, "{\"record\"",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, lines bool) {
		items, errs := splitRecords("f.json", data, lines)
		for _, it := range items {
			if !bytes.Contains(data, it.Raw) {
				t.Fatalf("raw %q not in input", it.Raw)
			}
		}
		for _, e := range errs {
			if fe, ok := e.(*FileError); !ok || fe.File != "f.json" {
				t.Fatalf("bad problem %#v", e)
			}
		}
	})
}

// TestTinyGzip: files that start like gzip but are cut short are problems,
// not crashes.
func TestTinyGzip(t *testing.T) {
	dir := t.TempDir()
	for i, s := range []string{"\x1f\x8b", "\x1f\x8b\x08", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00"} {
		os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".json"), []byte(s), 0o644)
	}
	_, errs := Read([]string{dir}, func(Item) error { return nil })
	if len(errs) != 3 {
		t.Fatalf("want 3 problems, got %v", errs)
	}
}
