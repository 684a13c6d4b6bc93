// Package cachefile frames the files of the build cache (.errdocs-cache),
// so that a file of another kind or version, one written by an older
// errdocs, one cut short or one damaged is told from a good one and
// ignored, never misread. A file is
//
//	"errdocs cache\n" uvarint(len(kind)) kind uvarint(version)
//	body
//	uint64le(n) crc32c
//
// where n is the length of everything before it and the CRC-32C covers
// everything before the CRC. A log that grows by appending (the search
// index's side store) has the header alone, then entries framed one by one
// (AppendEntry, Reader.Entry) with the same CRC.
//
// Writers append to a byte slice (Begin, then the body, then Seal); readers
// take a body apart with a Reader, which keeps its first error so that a
// decoder checks once, at the end.
package cachefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
)

const magic = "errdocs cache\n"

// table is the CRC-32C (Castagnoli) table, built once for every file.
var table = crc32.MakeTable(crc32.Castagnoli)

// Checksum is the CRC-32C of b, the checksum of every cache file.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, table) }

var (
	// ErrOther is a file of another kind or version, or not a cache file
	// of this format (an older errdocs wrote it).
	ErrOther = errors.New("cache file: another kind, version or format")
	// ErrDamaged is a file cut short, failing its checksum, or whose body
	// does not decode.
	ErrDamaged = errors.New("cache file: damaged")
)

// Begin appends the header of a file of kind and version to dst: append
// the body to the result, then Seal it.
func Begin(dst []byte, kind string, version uint64) []byte {
	dst = append(dst, magic...)
	dst = binary.AppendUvarint(dst, uint64(len(kind)))
	dst = append(dst, kind...)
	return binary.AppendUvarint(dst, version)
}

// Seal appends the trailer (length and checksum) to a file begun by Begin.
func Seal(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(len(b)))
	return binary.LittleEndian.AppendUint32(b, Checksum(b))
}

// Header checks that data starts with the header of kind and version and
// returns what follows it (for a log: its entries).
func Header(data []byte, kind string, version uint64) ([]byte, error) {
	head := Begin(make([]byte, 0, len(magic)+len(kind)+12), kind, version)
	if !bytes.HasPrefix(data, head) {
		return nil, ErrOther
	}
	return data[len(head):], nil
}

// Open returns the body of a sealed file of kind and version.
func Open(data []byte, kind string, version uint64) ([]byte, error) {
	rest, err := Header(data, kind, version)
	if err != nil {
		return nil, err
	}
	if len(rest) < 12 {
		return nil, ErrDamaged
	}
	n := len(data) - 12
	if binary.LittleEndian.Uint64(data[n:]) != uint64(n) || Checksum(data[:n+8]) != binary.LittleEndian.Uint32(data[n+8:]) {
		return nil, ErrDamaged
	}
	return rest[:len(rest)-12], nil
}

// ReadFile reads the file at path and returns its body (Open).
func ReadFile(path, kind string, version uint64) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Open(data, kind, version)
}

// ReadFileInto is ReadFile reading into buf, grown as needed, for a
// caller that decodes (copies out) what it needs and reads the next file
// into the same memory: a rebuild reads hundreds of cache files, and
// fresh memory for each cost more than decoding them. It returns the body
// and the buffer to pass next time (also on error).
func ReadFileInto(path, kind string, version uint64, buf []byte) (body, next []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, buf, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, buf, err
	}
	n := fi.Size()
	if n < 0 || n > math.MaxInt32 {
		return nil, buf, ErrDamaged
	}
	if int64(cap(buf)) < n+1 {
		buf = make([]byte, n+1)
	}
	// One byte more than the size, so a file that grew since the stat
	// is not taken for whole.
	k, err := io.ReadFull(f, buf[:n+1])
	if err != io.ErrUnexpectedEOF && err != io.EOF {
		if err == nil {
			err = ErrDamaged // it grew
		}
		return nil, buf, err
	}
	if int64(k) != n {
		return nil, buf, ErrDamaged
	}
	body, err = Open(buf[:k], kind, version)
	return body, buf, err
}

// WriteFile writes data through a temporary file in the same folder
// renamed into place, so a killed build never leaves half a file.
func WriteFile(path string, data []byte) error {
	tmp, err := WriteTemp(filepath.Dir(path), data)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// WriteTemp writes data to a new temporary file in dir and returns its
// name, for the caller to rename into place (or remove).
func WriteTemp(dir string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, ".tmp-")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// AppendEntry appends one entry of a log: uvarint(len(body)) body crc32c.
func AppendEntry(dst, body []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(body)))
	dst = append(dst, body...)
	return binary.LittleEndian.AppendUint32(dst, Checksum(body))
}

// AppendBytes appends a byte string as Reader.Bytes reads it.
func AppendBytes(dst, v []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	return append(dst, v...)
}

// AppendString appends a string as Reader.String reads it.
func AppendString(dst []byte, v string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	return append(dst, v...)
}

// A Reader takes a body apart. After its first error every read returns
// a zero value; Err (or Done) reports the error.
type Reader struct {
	b   []byte
	err error
}

// NewReader returns a Reader of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

func (r *Reader) fail() {
	if r.err == nil {
		r.err = ErrDamaged
	}
	r.b = nil
}

// Err is the first error met, if any.
func (r *Reader) Err() error { return r.err }

// Len is the number of bytes left.
func (r *Reader) Len() int { return len(r.b) }

// Done is the first error met, or ErrDamaged if bytes are left.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) != 0 {
		r.fail()
	}
	return r.err
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	return r.took(k, v)
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	v, k := binary.Varint(r.b)
	return int64(r.took(k, uint64(v)))
}

// took moves past the k bytes a varint decoder read and returns v, or
// fails when the decoder did (k <= 0).
func (r *Reader) took(k int, v uint64) uint64 {
	if k <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[k:]
	return v
}

// Int reads an unsigned varint that must be at most max.
func (r *Reader) Int(max int) int {
	v := r.Uvarint()
	if v > uint64(max) {
		r.fail()
		return 0
	}
	return int(v)
}

// Count reads a count of items that each take at least one byte: it
// cannot exceed the bytes left.
func (r *Reader) Count() int { return r.Int(len(r.b)) }

// Next reads n bytes (a sub-slice of the body, capped at its length).
func (r *Reader) Next(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.fail()
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if v := r.Next(1); v != nil {
		return v[0]
	}
	return 0
}

// Uint32 reads a little-endian uint32.
func (r *Reader) Uint32() uint32 {
	if v := r.Next(4); v != nil {
		return binary.LittleEndian.Uint32(v)
	}
	return 0
}

// Uint64 reads a little-endian uint64.
func (r *Reader) Uint64() uint64 {
	if v := r.Next(8); v != nil {
		return binary.LittleEndian.Uint64(v)
	}
	return 0
}

// Bytes reads a byte string written by AppendBytes.
func (r *Reader) Bytes() []byte { return r.Next(r.Int(len(r.b))) }

// String reads a string written by AppendString.
func (r *Reader) String() string { return string(r.Bytes()) }

// Expect reads len(p) bytes and reports whether they are p; when they are
// not, the Reader fails.
func (r *Reader) Expect(p []byte) bool {
	if !bytes.Equal(r.Next(len(p)), p) {
		r.fail()
		return false
	}
	return true
}

// Entry reads one log entry written by AppendEntry and returns its body.
func (r *Reader) Entry() []byte {
	body := r.Bytes()
	if sum := r.Uint32(); r.err != nil || Checksum(body) != sum {
		r.fail()
		return nil
	}
	return body
}

// Decode hands the bytes left to a decoder of its own and takes back what
// it leaves; a decoder's error becomes the Reader's.
func (r *Reader) Decode(f func(b []byte) (rest []byte, err error)) {
	if r.err != nil {
		return
	}
	rest, err := f(r.b)
	if err != nil {
		r.err = err
		r.b = nil
		return
	}
	r.b = rest
}

// WriteSealed writes the file Seal would make of the pieces put end to
// end, as WriteFile does (a temporary file renamed into place), without
// putting them into one buffer first: a large cache's copy is fresh
// memory. When old holds exactly those bytes (the file as it was read),
// nothing is written and wrote is false.
func WriteSealed(path string, old []byte, pieces ...[]byte) (wrote bool, err error) {
	return BeginSealed(path, old, pieces...).Finish()
}

// A SealedWriter writes a sealed file in two steps: the bulk of its bytes
// as soon as they are known (BeginSealed), the last pieces when they are
// (Finish), so that writing the bulk can overlap the work that decides
// the rest. Until Finish renames it into place, the file at path is the
// old one.
type SealedWriter struct {
	path string
	old  []byte // the file as it was read
	// While the pieces repeat old's first bytes they are held, not
	// written: a file that comes out the same is not written at all.
	same bool
	held [][]byte
	n    int    // bytes held
	crc  uint32 // of the bytes held
	s    *StreamWriter
	err  error
}

// BeginSealed starts the file at path with pieces, as WriteSealed would
// write it, for Finish to end. old is as for WriteSealed.
func BeginSealed(path string, old []byte, pieces ...[]byte) *SealedWriter {
	w := &SealedWriter{path: path, old: old, same: old != nil}
	w.add(pieces)
	return w
}

// Finish appends the last pieces and the seal, and renames the file into
// place; it writes nothing when old holds exactly the file's bytes.
func (w *SealedWriter) Finish(last ...[]byte) (wrote bool, err error) {
	w.add(last)
	if w.same && len(w.old) == w.n+12 {
		crc := crc32.Update(w.crc, table, w.old[w.n:w.n+8])
		if binary.LittleEndian.Uint64(w.old[w.n:]) == uint64(w.n) && binary.LittleEndian.Uint32(w.old[w.n+8:]) == crc {
			return false, nil
		}
	}
	if !w.stream() {
		return false, w.err
	}
	if err := w.s.Commit(); err != nil {
		return false, err
	}
	return true, nil
}

// Abort drops what was written; the file at path stays as it was.
func (w *SealedWriter) Abort() {
	if w.s != nil {
		w.s.Abort()
	}
}

// add takes pieces: held while they repeat old, written otherwise.
func (w *SealedWriter) add(pieces [][]byte) {
	for _, p := range pieces {
		if w.same && w.n+len(p) <= len(w.old) && bytes.Equal(w.old[w.n:w.n+len(p)], p) {
			w.held = append(w.held, p)
			w.n += len(p)
			w.crc = crc32.Update(w.crc, table, p)
			continue
		}
		w.same = false
		if w.stream() {
			w.s.Write(p)
		}
	}
}

// stream makes sure the file is being written, the pieces held first.
func (w *SealedWriter) stream() bool {
	if w.s == nil && w.err == nil {
		w.same = false
		if w.s, w.err = createStream(w.path); w.err != nil {
			return false
		}
		for _, p := range w.held {
			w.s.Write(p)
		}
		w.held = nil
	}
	return w.err == nil
}
