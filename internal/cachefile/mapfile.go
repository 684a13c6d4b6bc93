package cachefile

import (
	"math"
	"os"

	"golang.org/x/sys/unix"
)

// A Mapping is a cache file's bytes mapped read-only into memory.
//
// Reading a large cache file into the heap costs fresh memory, and on a
// virtual machine the first touch of fresh memory is far dearer than
// reading pages the kernel holds in its page cache already (the figures:
// BENCHMARKS.md). A mapping shares those pages. Its bytes stay valid until
// Close, also after the file is replaced: cache files are written whole and
// renamed into place (WriteFile), and a log (the side store) only grows.
// The one exception is a SealedWriter given the mapped bytes as the old
// file: its Finish patches the file where it stands, for a caller done
// with them. A file cut short by another program
// while mapped would fault; the build's lock on the cache keeps errdocs'
// own builds from doing that.
type Mapping struct {
	data []byte
}

// Map maps the file at path. An empty file maps to no bytes.
func Map(path string) (*Mapping, error) {
	return mapFile(path, unix.PROT_READ, unix.MAP_SHARED)
}

// MapPrivate maps the file at path copy-on-write: its bytes may be
// written, and a page written is copied into the process's memory, never
// into the file. A table kept in a cache file is used where it lies and
// changed in a few places (the side store's table of entries): only the
// pages changed become fresh memory. Evict must not be used on such a
// mapping: it would drop the pages written.
func MapPrivate(path string) (*Mapping, error) {
	return mapFile(path, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE)
}

func mapFile(path string, prot, flags int) (*Mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	n := fi.Size()
	if n == 0 {
		return &Mapping{}, nil
	}
	if n < 0 || n > math.MaxInt {
		return nil, ErrDamaged
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(n), prot, flags)
	if err != nil {
		return nil, &os.PathError{Op: "mmap", Path: path, Err: err}
	}
	return &Mapping{data: data}, nil
}

// MapFile maps the file at path and returns its body (Open) and the
// mapping, for the caller to Close once nothing it decoded refers to the
// body. On error nothing stays mapped.
func MapFile(path, kind string, version uint64) ([]byte, *Mapping, error) {
	m, err := Map(path)
	if err != nil {
		return nil, nil, err
	}
	body, err := Open(m.Bytes(), kind, version)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return body, m, nil
}

// Bytes is the file's content, read-only (writing to it faults) unless
// mapped by MapPrivate.
func (m *Mapping) Bytes() []byte { return m.data }

// Close unmaps the file; its bytes, and any string or slice taken from
// them, must not be used after.
func (m *Mapping) Close() error {
	if m == nil || m.data == nil {
		return nil
	}
	data := m.data
	m.data = nil
	return unix.Munmap(data)
}

// Evict lets the pages of the mapping from byte offset from on (rounded
// up to a page) leave the process's resident memory: the kernel keeps
// them in its page cache, and a later touch maps them again. A build that
// maps what it has just written and reads it only much later (the side
// store's spilled entries) would otherwise hold every page it touched
// resident beside its heap. It is advice: an error changes nothing.
func (m *Mapping) Evict(from int) {
	page := os.Getpagesize()
	from = (from + page - 1) / page * page
	if m == nil || from < 0 || from >= len(m.data) {
		return
	}
	unix.Madvise(m.data[from:], unix.MADV_DONTNEED)
}
