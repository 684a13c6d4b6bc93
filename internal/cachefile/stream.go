package cachefile

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
)

// A StreamWriter writes a cache file through a small buffer, framed as
// Begin and Seal frame one in memory, for a file too large to build in
// the heap first: fresh memory costs more than the writing (BENCHMARKS.md).
// Commit puts it in place (written whole and renamed, as WriteFile);
// Abort drops it.
type StreamWriter struct {
	path string
	f    *os.File
	w    *bufio.Writer
	n    uint64 // bytes written
	crc  uint32
	// sealed: the bytes written carry their own seal (a SealedWriter's,
	// which took their checksum): none is taken here.
	sealed bool
	err    error
}

// CreateStream begins the file of kind and version at path.
func CreateStream(path, kind string, version uint64) (*StreamWriter, error) {
	s, err := createStream(path)
	if err != nil {
		return nil, err
	}
	s.Write(Begin(nil, kind, version))
	return s, nil
}

// createStream begins a file at path whose header the caller writes.
func createStream(path string) (*StreamWriter, error) {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-")
	if err != nil {
		return nil, err
	}
	return &StreamWriter{path: path, f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// Write appends p to the body. Its first error is kept, returned by
// Commit, and ends the writing.
func (s *StreamWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if !s.sealed {
		s.crc = crc32.Update(s.crc, table, p)
	}
	s.n += uint64(len(p))
	_, s.err = s.w.Write(p)
	return len(p), s.err
}

// Len is the number of bytes written so far, header included: where the
// next Write lands in the file.
func (s *StreamWriter) Len() uint64 { return s.n }

// Commit seals the file and renames it into place.
func (s *StreamWriter) Commit() error {
	s.Write(binary.LittleEndian.AppendUint64(nil, s.n))
	if s.err == nil {
		_, s.err = s.w.Write(binary.LittleEndian.AppendUint32(nil, s.crc))
	}
	return s.commitSealed()
}

// commitSealed renames into place a file whose bytes, its seal with them,
// were written as they are (SealedWriter).
func (s *StreamWriter) commitSealed() error {
	if err := s.w.Flush(); s.err == nil {
		s.err = err
	}
	if err := s.f.Close(); s.err == nil {
		s.err = err
	}
	if s.err == nil {
		s.err = os.Rename(s.f.Name(), s.path)
	}
	if s.err != nil {
		os.Remove(s.f.Name())
	}
	return s.err
}

// Abort drops the file.
func (s *StreamWriter) Abort() {
	s.f.Close()
	os.Remove(s.f.Name())
}
