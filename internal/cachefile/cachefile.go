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
	"unsafe"
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
// the rest. Until Finish, the file at path is the old one. The pieces
// must not change until Finish or Abort.
//
// When old is given it must be the file's bytes as they are at path (the
// caller's mapping of it, say). While the new bytes differ from old's in
// at most half the file, the stretches that differ are noted, not
// written, and Finish writes them into the file where it stands: a large
// cache that a build changes in a few places (the page cache after one
// record changed) is then not copied into a new file, which would cost as
// many fresh pages of the kernel's as it has. A build killed while it
// patches leaves a file whose checksum fails, which the next build
// ignores; a mapping of the file sees the patched bytes, so the caller
// must be done with old's bytes before Finish. Past half the file, or
// once a piece taken from old's bytes is to lie elsewhere (the bytes
// shifted), the new bytes are written to a new file renamed into place,
// as WriteFile does.
type SealedWriter struct {
	path string
	old  []byte
	// patching: the bytes taken so far are old's but for the patches.
	patching bool
	patches  []patch
	patched  int    // bytes in patches
	n        int    // bytes taken
	crc      uint32 // of the bytes taken
	s        *StreamWriter
	err      error
}

// A patch is bytes of the new file at off that old does not hold: a
// stretch of a piece, or a copy of it where Write took it, whose caller
// may reuse it. A piece that lies in old's own bytes elsewhere than it is
// to lie in the file (moved: the file's bytes shifted) ends the patching.
type patch struct {
	off int
	b   []byte
}

// patchShare is the largest share of a file's bytes that Finish writes
// where the file stands (one in patchShare); more is written as a new
// file.
const patchShare = 2

// patchUnit is the stretch of bytes compared at once: a page, the least
// the kernel writes back.
const patchUnit = 4096

// BeginSealed starts the file at path with pieces, as WriteSealed would
// write it, for Finish to end. old is as for WriteSealed.
func BeginSealed(path string, old []byte, pieces ...[]byte) *SealedWriter {
	w := &SealedWriter{path: path, old: old, patching: old != nil}
	w.add(pieces)
	return w
}

// Finish appends the last pieces and the seal, and puts the file in
// place: patched where it stands, or written anew and renamed. It writes
// nothing when old holds exactly the file's bytes.
func (w *SealedWriter) Finish(last ...[]byte) (wrote bool, err error) {
	w.add(last)
	var trailer [12]byte
	binary.LittleEndian.PutUint64(trailer[:], uint64(w.n))
	binary.LittleEndian.PutUint32(trailer[8:], crc32.Update(w.crc, table, trailer[:8]))
	w.note(trailer[:], false)
	if w.patching {
		if len(w.patches) == 0 && len(w.old) == w.n {
			return false, nil
		}
		if err := w.patch(); err != errMoved {
			return err == nil, err
		}
		w.replay()
	}
	if !w.stream() {
		return false, w.err
	}
	if err := w.s.commitSealed(); err != nil {
		return false, err
	}
	return true, nil
}

// errMoved says the file at path is not the one old was read from.
var errMoved = errors.New("cache file: not the file it was read as")

// patch writes the patches into the file at path and cuts it to the new
// length. A file of another size than old is not touched (errMoved); one
// that fails half-patched is removed, not left for a checksum to catch.
func (w *SealedWriter) patch() error {
	f, err := os.OpenFile(w.path, os.O_WRONLY, 0)
	if err != nil {
		return errMoved
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(w.old)) {
		f.Close()
		return errMoved
	}
	for _, p := range w.patches {
		if _, err = f.WriteAt(p.b, int64(p.off)); err != nil {
			break
		}
	}
	if err == nil && w.n < len(w.old) {
		err = f.Truncate(int64(w.n))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.path)
	}
	return err
}

// Abort drops what was written; the file at path stays as it was.
func (w *SealedWriter) Abort() {
	if w.s != nil {
		w.s.Abort()
	}
}

// add takes pieces: noted against old while patching, written otherwise.
func (w *SealedWriter) add(pieces [][]byte) {
	for _, p := range pieces {
		w.crc = crc32.Update(w.crc, table, p)
		w.note(p, false)
	}
}

// Write takes p as the next bytes of the file, as a piece of BeginSealed
// or Finish would be, but copies what it keeps of it: p may be used
// again once Write returns (an encoder's buffer). Its error is the
// file's first, which Finish returns too.
func (w *SealedWriter) Write(p []byte) (int, error) {
	w.crc = crc32.Update(w.crc, table, p)
	w.note(p, true)
	return len(p), w.err
}

// note takes p, whose checksum the caller took (or which is the seal);
// copying says it must be copied if kept.
func (w *SealedWriter) note(p []byte, copying bool) {
	if w.patching {
		switch inOld, inPlace := w.lies(p); {
		case inPlace:
			w.n += len(p) // old's own bytes, where they lie
			return
		case inOld:
			// The file's bytes shifted: what follows would all differ.
			w.replay()
		}
	}
	if w.patching {
		w.diff(p, copying)
		w.n += len(p)
		if w.patched > len(w.old)/patchShare {
			w.replay() // too much changed: the file is written anew
		}
		return
	}
	w.n += len(p)
	if w.stream() {
		w.s.Write(p)
	}
}

// replay ends the patching: the file is written anew, beginning with the
// bytes taken so far, which are old's but for the patches.
func (w *SealedWriter) replay() {
	w.patching = false
	if !w.stream() {
		return
	}
	at := 0
	for _, p := range w.patches {
		w.s.Write(w.old[at:p.off])
		w.s.Write(p.b)
		at = p.off + len(p.b)
	}
	if at < w.n {
		w.s.Write(w.old[at:w.n])
	}
	w.patches = nil
}

// diff notes the stretches of p, taken at w.n, that old does not hold,
// compared a page of the file at a time.
func (w *SealedWriter) diff(p []byte, copying bool) {
	run := -1 // where the stretch that differs began in p
	for at := 0; at < len(p); {
		off := w.n + at
		end := min(len(p), at+patchUnit-off%patchUnit)
		same := off+end-at <= len(w.old) && bytes.Equal(p[at:end], w.old[off:off+end-at])
		if !same && run < 0 {
			run = at
		}
		if same && run >= 0 {
			w.addPatch(w.n+run, p[run:at], copying)
			run = -1
		}
		at = end
	}
	if run >= 0 {
		w.addPatch(w.n+run, p[run:], copying)
	}
}

// lies reports whether p lies in old's own bytes, and whether there
// where it is to lie in the file (at w.n): then it holds old's bytes
// there, and nothing of it need be compared.
func (w *SealedWriter) lies(p []byte) (inOld, inPlace bool) {
	if !overlaps(p, w.old) {
		return false, false
	}
	at := uintptr(unsafe.Pointer(unsafe.SliceData(p))) - uintptr(unsafe.Pointer(unsafe.SliceData(w.old)))
	return true, at == uintptr(w.n) && len(p) <= len(w.old)-w.n
}

func (w *SealedWriter) addPatch(off int, b []byte, copying bool) {
	if copying {
		b = bytes.Clone(b)
	}
	w.patches = append(w.patches, patch{off, b})
	w.patched += len(b)
}

// overlaps reports whether a and b share bytes of memory.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0, b0 := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a0 < b0+uintptr(len(b)) && b0 < a0+uintptr(len(a))
}

// stream makes sure the file is being written.
func (w *SealedWriter) stream() bool {
	if w.s == nil && w.err == nil {
		w.patching = false
		if w.s, w.err = createStream(w.path); w.err == nil {
			w.s.sealed = true
		}
	}
	return w.err == nil
}
