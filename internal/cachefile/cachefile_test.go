package cachefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/errdocs/errdocs/internal/resident"
)

func sample() []byte {
	b := Begin(nil, "pages", 3)
	b = AppendString(b, "héllo")
	b = AppendBytes(b, []byte{0, 1, 2})
	b = append(b, 7)
	return Seal(b)
}

func TestRoundTrip(t *testing.T) {
	body, err := Open(sample(), "pages", 3)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(body)
	s, raw, c := r.String(), r.Bytes(), r.Byte()
	if err := r.Done(); err != nil || s != "héllo" || !bytes.Equal(raw, []byte{0, 1, 2}) || c != 7 {
		t.Fatalf("read back %q %v %d (%v)", s, raw, c, err)
	}
}

// A file of another kind or version, or of the formats before this
// package (a magic line of their own), is ErrOther; one cut short or
// changed anywhere is ErrDamaged. Neither is ever read.
func TestOthersAndDamageAreRefused(t *testing.T) {
	good := sample()
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"other kind", Seal(Begin(nil, "pager", 3)), ErrOther},
		{"other version", Seal(Begin(nil, "pages", 2)), ErrOther},
		{"older format", append([]byte("errdocs-pages-2\n"), good...), ErrOther},
		{"empty", nil, ErrOther},
	} {
		if _, err := Open(tc.data, "pages", 3); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	head := len(Begin(nil, "pages", 3))
	for cut := head; cut < len(good); cut++ {
		if _, err := Open(good[:cut], "pages", 3); !errors.Is(err, ErrDamaged) {
			t.Fatalf("cut at %d of %d: %v, want ErrDamaged", cut, len(good), err)
		}
	}
	for i := head; i < len(good); i++ {
		bad := bytes.Clone(good)
		bad[i] ^= 0x20
		if _, err := Open(bad, "pages", 3); !errors.Is(err, ErrDamaged) {
			t.Fatalf("byte %d changed: %v, want ErrDamaged", i, err)
		}
	}
}

// The Reader keeps its first error: reads after it give zero values and
// the error stays the first one.
func TestReaderKeepsFirstError(t *testing.T) {
	r := NewReader([]byte{0x80}) // a varint cut short
	if v := r.Uvarint(); v != 0 || r.Err() == nil {
		t.Fatalf("Uvarint of a cut varint: %d, %v", v, r.Err())
	}
	first := r.Err()
	if r.String() != "" || r.Byte() != 0 || r.Uint64() != 0 || r.Entry() != nil || r.Err() != first {
		t.Fatal("reads after the first error were not empty, or changed the error")
	}
	r = NewReader([]byte{5, 'a'}) // a string longer than the bytes left
	if s := r.String(); s != "" || r.Err() == nil {
		t.Fatalf("an overlong string read as %q", s)
	}
	r = NewReader([]byte{1, 2})
	r.Byte()
	if r.Done() == nil {
		t.Fatal("Done with a byte left reported no error")
	}
}

func TestLogEntries(t *testing.T) {
	log := Begin(nil, "side", 2)
	log = AppendEntry(log, []byte("one"))
	log = AppendEntry(log, []byte("two"))
	rest, err := Header(log, "side", 2)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReader(rest)
	if a, b := r.Entry(), r.Entry(); string(a) != "one" || string(b) != "two" || r.Done() != nil {
		t.Fatalf("entries %q %q, %v", a, b, r.Err())
	}
	bad := bytes.Clone(rest)
	bad[len(bad)-1] ^= 1
	r = NewReader(bad)
	r.Entry()
	if r.Entry() != nil || r.Err() == nil {
		t.Fatal("an entry failing its checksum was read")
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := WriteFile(p, sample()); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil || string(got) != "x" {
		t.Fatalf("read back %q, %v", got, err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("%d files in the folder, want 1 (no temporary left)", len(ents))
	}
	if _, err := ReadFile(p, "pages", 3); !errors.Is(err, ErrOther) {
		t.Fatalf("ReadFile of a non-cache file: %v", err)
	}
}

// ReadFileInto reads file after file into one buffer: each body is the
// file's, a shorter file after a longer one included, and a file that is
// empty, damaged or of another kind is refused as ReadFile refuses it.
func TestReadFileInto(t *testing.T) {
	dir := t.TempDir()
	long := Seal(AppendString(Begin(nil, "pages", 3), string(bytes.Repeat([]byte("x"), 5000))))
	files := map[string][]byte{"long": long, "short": sample(), "empty": nil, "cut": long[:len(long)-1], "other": Seal(Begin(nil, "pager", 3))}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf []byte
	for _, name := range []string{"long", "short", "empty", "cut", "other", "short", "missing"} {
		body, next, err := ReadFileInto(filepath.Join(dir, name), "pages", 3, buf)
		want, wantErr := ReadFile(filepath.Join(dir, name), "pages", 3)
		if !bytes.Equal(body, want) || (err == nil) != (wantErr == nil) || !errors.Is(err, wantErr) && !os.IsNotExist(err) {
			t.Fatalf("%s: body %d bytes, err %v; ReadFile: %d bytes, err %v", name, len(body), err, len(want), wantErr)
		}
		buf = next
	}
	if cap(buf) < len(long) {
		t.Fatalf("the buffer did not keep its size (%d)", cap(buf))
	}
}

// MapFile gives what ReadFile gives, for every kind of file ReadFile
// meets; a mapping outlives its file being replaced by WriteFile.
func TestMapFile(t *testing.T) {
	dir := t.TempDir()
	long := Seal(AppendString(Begin(nil, "pages", 3), string(bytes.Repeat([]byte("x"), 50000))))
	files := map[string][]byte{"long": long, "short": sample(), "empty": nil, "cut": long[:len(long)-1], "other": Seal(Begin(nil, "pager", 3))}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"long", "short", "empty", "cut", "other", "missing"} {
		path := filepath.Join(dir, name)
		body, m, err := MapFile(path, "pages", 3)
		want, wantErr := ReadFile(path, "pages", 3)
		if !bytes.Equal(body, want) || (err == nil) != (wantErr == nil) || !errors.Is(err, wantErr) && !os.IsNotExist(err) {
			t.Fatalf("%s: body %d bytes, err %v; ReadFile: %d bytes, err %v", name, len(body), err, len(want), wantErr)
		}
		if err != nil && m != nil {
			t.Fatalf("%s: a mapping left open on error", name)
		}
		if err == nil {
			if err := m.Close(); err != nil {
				t.Fatalf("%s: Close: %v", name, err)
			}
		}
	}
	path := filepath.Join(dir, "long")
	body, m, err := MapFile(path, "pages", 3)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := WriteFile(path, sample()); err != nil {
		t.Fatal(err)
	}
	if s := NewReader(body).String(); len(s) != 50000 || s[49999] != 'x' {
		t.Fatalf("after the file was replaced the mapping reads %d bytes", len(s))
	}
}

// TestMapPrivate checks that bytes written to a copy-on-write mapping are
// read back from it and never reach the file.
func TestMapPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table")
	data := Seal(AppendString(Begin(nil, "table", 1), string(bytes.Repeat([]byte("y"), 20000))))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := MapPrivate(path)
	if err != nil {
		t.Fatal(err)
	}
	b := m.Bytes()
	b[len(b)/2] = 'z'
	if b[len(b)/2] != 'z' {
		t.Fatal("a byte written to the mapping does not read back")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the file changed under its copy-on-write mapping (err %v)", err)
	}
}

// WriteSealed writes what Seal makes of the pieces put together, and
// nothing when the file holds those bytes already.
func TestWriteSealed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	pieces := [][]byte{Begin(nil, "k", 1), []byte("one"), nil, []byte("three")}
	want := Seal(bytes.Join(pieces, nil))
	wrote, err := WriteSealed(path, nil, pieces...)
	if err != nil || !wrote {
		t.Fatalf("first write: %v, %v", wrote, err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("wrote %q (%v), want %q", got, err, want)
	}
	if body, err := Open(got, "k", 1); err != nil || string(body) != "onethree" {
		t.Fatalf("Open: %q, %v", body, err)
	}
	before, _ := os.Stat(path)
	if wrote, err := WriteSealed(path, got, pieces...); err != nil || wrote {
		t.Fatalf("the same bytes again: wrote %v, %v", wrote, err)
	}
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) {
		t.Fatal("the file was replaced though its bytes were the same")
	}
	changed := append(bytes.Clone(got[:len(got)-1]), got[len(got)-1]^1) // another seal
	if wrote, err := WriteSealed(path, changed, pieces...); err != nil || !wrote {
		t.Fatalf("other old bytes: wrote %v, %v", wrote, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Fatal("rewritten with other bytes")
	}
}

// A file written in two steps (BeginSealed, Finish) is the file
// WriteSealed writes of all its pieces; until Finish the old file stays,
// and Abort leaves it so, with no temporary file behind.
func TestSealedInTwoSteps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	bulk := [][]byte{Begin(nil, "k", 1), bytes.Repeat([]byte("bulk "), 1000)}
	last := []byte("last")
	want := Seal(bytes.Join(append(bulk, last), nil))
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := BeginSealed(path, nil, bulk...)
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("before Finish the file reads %q", got)
	}
	if wrote, err := w.Finish(last); err != nil || !wrote {
		t.Fatalf("Finish: %v, %v", wrote, err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("two steps wrote %d bytes (%v), want the %d WriteSealed writes", len(got), err, len(want))
	}
	// The same bytes again: nothing written, held pieces never flushed.
	before, _ := os.Stat(path)
	if wrote, err := BeginSealed(path, got, bulk...).Finish(last); err != nil || wrote {
		t.Fatalf("the same bytes again: wrote %v, %v", wrote, err)
	}
	if after, _ := os.Stat(path); !os.SameFile(before, after) {
		t.Fatal("the file was replaced though its bytes were the same")
	}
	// The bulk as before, the last piece not: the held bulk is written too.
	want2 := Seal(bytes.Join(append(bulk, []byte("other")), nil))
	if wrote, err := BeginSealed(path, got, bulk...).Finish([]byte("other")); err != nil || !wrote {
		t.Fatalf("another last piece: wrote %v, %v", wrote, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want2) {
		t.Fatalf("another last piece: the file is %d bytes, want %d", len(got), len(want2))
	}
	// Aborted after the bulk was written: the file stays, nothing is left.
	w = BeginSealed(path, got, [][]byte{Begin(nil, "k", 2)}...)
	w.Abort()
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want2) {
		t.Fatal("Abort changed the file")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("after Abort the folder holds %d files, want 1", len(ents))
	}
}

// TestEvictLeavesContent checks that an evicted mapping's pages leave the
// process's resident memory and read back the file's bytes when touched.
func TestEvictLeavesContent(t *testing.T) {
	const size = 32 << 20
	path := filepath.Join(t.TempDir(), "mapped")
	want := make([]byte, size)
	for i := range want {
		want[i] = byte(i*7 + i>>12)
	}
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Map(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !bytes.Equal(m.Bytes(), want) { // touches every page
		t.Fatal("the mapping does not hold the file's bytes")
	}
	touched, ok := resident.FileResident()
	if !ok {
		t.Skip("the system does not say what mapped files hold resident")
	}
	m.Evict(0)
	evicted, _ := resident.FileResident()
	if touched-evicted < size*9/10 {
		t.Errorf("evicting a %d-byte mapping freed %d resident bytes", size, touched-evicted)
	}
	if !bytes.Equal(m.Bytes(), want) {
		t.Error("an evicted mapping reads other bytes than the file's")
	}
}

// A file that changed in a few places is patched where it stands, also
// when old is a mapping of it and the pieces are slices of that mapping,
// as the page cache's are; grown or cut short at its end it is still
// patched; one that changed in many places, or that is not the file old
// was read from, is written anew. Each way, the file holds what Seal
// makes of the pieces.
func TestSealedPatchedInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	pieces := [][]byte{Begin(nil, "k", 1)}
	for i := range 64 {
		pieces = append(pieces, bytes.Repeat([]byte{byte('a' + i%26), byte(i)}, 2048))
	}
	if _, err := WriteSealed(path, nil, pieces...); err != nil {
		t.Fatal(err)
	}
	// write finishes a SealedWriter over the file as mapped now, with
	// pieces made by edit from slices of the mapping, and reports whether
	// the file stayed the same file (patched) and holds the bytes wanted.
	write := func(name string, edit func(mapped [][]byte) [][]byte) (inPlace bool) {
		t.Helper()
		m, err := Map(path)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		mapped, at := [][]byte{}, 0
		for _, p := range pieces {
			mapped = append(mapped, m.Bytes()[at:at+len(p)])
			at += len(p)
		}
		next := edit(mapped)
		want := Seal(bytes.Join(next, nil))
		before, _ := os.Stat(path)
		if wrote, err := BeginSealed(path, m.Bytes(), next[:len(next)-1]...).Finish(next[len(next)-1]); err != nil || !wrote {
			t.Fatalf("%s: wrote %v, %v", name, wrote, err)
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: the file is %d bytes (%v), want the %d Seal makes", name, len(got), err, len(want))
		}
		if _, err := Open(got, "k", 1); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		after, _ := os.Stat(path)
		pieces = next
		for i := range pieces {
			pieces[i] = bytes.Clone(pieces[i]) // the mapping goes
		}
		return os.SameFile(before, after)
	}
	if !write("one piece changed", func(p [][]byte) [][]byte {
		p[30] = bytes.Repeat([]byte("z"), len(p[30]))
		return p
	}) {
		t.Error("one piece changed: the file was written anew, not patched")
	}
	if !write("grown at its end", func(p [][]byte) [][]byte { return append(p, []byte("more")) }) {
		t.Error("grown at its end: the file was written anew, not patched")
	}
	if !write("cut short", func(p [][]byte) [][]byte { return p[:len(p)-3] }) {
		t.Error("cut short: the file was written anew, not patched")
	}
	if write("shifted", func(p [][]byte) [][]byte { return append([][]byte{p[0], []byte("x")}, p[1:]...) }) {
		t.Error("every byte shifted: the file was patched, not written anew")
	}
	// A file replaced since it was read (another size): written anew.
	m, err := Map(path)
	if err != nil {
		t.Fatal(err)
	}
	old := bytes.Clone(m.Bytes())
	m.Close()
	if err := os.WriteFile(path, []byte("another file"), 0o644); err != nil {
		t.Fatal(err)
	}
	next := slices.Clone(pieces)
	next[5] = []byte("five")
	want := Seal(bytes.Join(next, nil))
	if wrote, err := WriteSealed(path, old, next...); err != nil || !wrote {
		t.Fatalf("replaced file: wrote %v, %v", wrote, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Fatalf("replaced file: the file is %d bytes, want %d", len(got), len(want))
	}
}

// Bytes given to Write through a buffer used again make the file they
// make as pieces would, patched where it stands when few changed and
// written anew when many did (replayed from old and the patches taken).
func TestSealedWriteReusesBuffer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	body := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KB
	if _, err := WriteSealed(path, nil, Begin(nil, "k", 1), body); err != nil {
		t.Fatal(err)
	}
	for _, every := range []int{len(body), 100} { // a byte changed in every so many
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		next := bytes.Clone(body)
		for k := 0; k < len(next); k += every {
			next[k] ^= 0xff
		}
		before, _ := os.Stat(path)
		w := BeginSealed(path, old, Begin(nil, "k", 1))
		buf := make([]byte, 0, 1000)
		for at := 0; at < len(next); at += cap(buf) {
			buf = append(buf[:0], next[at:min(len(next), at+cap(buf))]...)
			w.Write(buf)
			clear(buf) // the caller's buffer, used again
		}
		if wrote, err := w.Finish(); err != nil || !wrote {
			t.Fatalf("a byte in %d changed: wrote %v, %v", every, wrote, err)
		}
		want := Seal(append(Begin(nil, "k", 1), next...))
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Fatalf("a byte in %d changed: the file is not what Seal makes of the bytes written", every)
		}
		after, _ := os.Stat(path)
		if inPlace := os.SameFile(before, after); inPlace != (every == len(body)) {
			t.Errorf("a byte in %d changed: patched where it stands %v", every, inPlace)
		}
		body = next
	}
}
