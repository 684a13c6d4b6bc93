package read

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// FuzzRead: any bytes in a record file, plain or gzipped, read through
// Read with a small size limit: no panic, every problem names the file,
// no record is longer than the limit, and a file either gives records or
// is named barren.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`{"id":"a"}`, `[{"id":"a"},{"id":"b"}]`, "{\"a\":1}\n{\"b\":2}\n", "\x1f\x8b\x08\x00", "[" + strings.Repeat(" ", 300) + "]",
		`{"record":{"id":"\xff"},"datasetVersion":"2026-01-01T00:00:00Z"}`, "", "\x00\x00",
	} {
		f.Add([]byte(s), false, false)
		f.Add([]byte(s), true, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, gz, lines bool) {
		dir := t.TempDir()
		name := "f.json"
		if lines {
			name = "f.jsonl"
		}
		if gz {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			w.Write(data)
			w.Close()
			data = b.Bytes()
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		const limit = 256
		n := 0
		extras, errs := Options{MaxFileSize: limit, Workers: 1}.Read([]string{p}, func(it Item) error {
			if len(it.Raw) > limit {
				t.Fatalf("a record of %d bytes from a file limited to %d", len(it.Raw), limit)
			}
			n++
			return nil
		})
		for _, e := range errs {
			var fe *FileError
			if !errors.As(e, &fe) || fe.File != p {
				t.Fatalf("problem not naming the file: %v", e)
			}
		}
		if (n == 0) != (len(extras.Barren) == 1) {
			t.Fatalf("%d records, barren %q", n, extras.Barren)
		}
	})
}

// TestReadCappedGrowth: reading stops as soon as the limit is passed, and
// the buffer never grows past it, whatever the stated size.
func TestReadCappedGrowth(t *testing.T) {
	for _, hint := range []int64{0, 10, 1 << 20} {
		_, err := readCapped(io.LimitReader(zeros{}, 5000), hint, 4096)
		if !errors.Is(err, errOverLimit) {
			t.Errorf("hint %d: %v, want over the limit", hint, err)
		}
		b, err := readCapped(io.LimitReader(zeros{}, 4096), hint, 4096)
		if err != nil || len(b) != 4096 || cap(b) > 4096+bytes.MinRead {
			t.Errorf("hint %d: %d bytes (cap %d), %v", hint, len(b), cap(b), err)
		}
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
