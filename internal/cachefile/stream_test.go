package cachefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A file written by a StreamWriter in pieces is the file Begin and Seal
// make of the same body, and reads back; an aborted one leaves nothing.
func TestStreamWriter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	body := bytes.Repeat([]byte("stream body \x00\xff"), 10000) // past the buffer
	s, err := CreateStream(path, "kind", 3)
	if err != nil {
		t.Fatal(err)
	}
	for rest := body; len(rest) > 0; {
		n := min(len(rest), 777)
		if _, err := s.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := Seal(append(Begin(nil, "kind", 3), body...)); !bytes.Equal(data, want) {
		t.Fatalf("streamed file (%d bytes) differs from the sealed one (%d bytes)", len(data), len(want))
	}
	if got, err := ReadFile(path, "kind", 3); err != nil || !bytes.Equal(got, body) {
		t.Fatalf("ReadFile: %v, body equal %v", err, bytes.Equal(got, body))
	}
	if _, err := ReadFile(path, "kind", 4); !errors.Is(err, ErrOther) {
		t.Fatalf("another version read: %v", err)
	}

	other := filepath.Join(dir, "g")
	s, err = CreateStream(other, "kind", 3)
	if err != nil {
		t.Fatal(err)
	}
	s.Write(body)
	s.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("after Abort the folder holds %d files, want the committed one alone", len(ents))
	}
}
