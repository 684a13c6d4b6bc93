package export

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// The state file's body: uvarint(shards), then each shard's doc set as a
// byte string; the filter sums (filterOut.sums) as a byte string; then
// the gob of the rest of the state. The doc sets are most of its bytes (a bitset of the records for a shard of common
// terms); out of the gob they are written straight from where they are
// (the previous state's mapping, for the shards an incremental export
// kept) through a small buffer, and read in place from the mapped file,
// where the next export asks a few of them about the changed records
// alone. A gob of them grew its buffers to several times their size on
// every save and copied them all on every load.

func saveExportState(dir string, s *exportState, marker string) error {
	return finishStateFile(beginStateFile(dir, s), s, marker)
}

// beginStateFile writes the doc sets and the filter sums of s, most of
// the file and nothing of the site it will describe; finishStateFile
// adds the rest, with the marker of that site, and puts it in place.
// When s kept the doc sets of the state saved before (s.m maps its file)
// and none of the others changed length, they lie where they lay, and the
// file is patched where it stands (cachefile.SealedWriter) rather than
// written whole again: the caller must then be done with the mapping's
// bytes before finishStateFile.
func beginStateFile(dir string, s *exportState) *cachefile.SealedWriter {
	os.Remove(filepath.Join(dir, oldExportStateFile))
	var old []byte
	if s.m != nil {
		old = s.m.Bytes()
	}
	pieces := [][]byte{cachefile.Begin(nil, exportStateKind, exportStateVersion), binary.AppendUvarint(nil, uint64(len(s.Shards)))}
	for i := range s.Shards {
		pieces = append(pieces, binary.AppendUvarint(nil, uint64(len(s.Shards[i].docs))), s.Shards[i].docs)
	}
	var sums []byte
	if s.Filters != nil {
		sums = s.Filters.sums
	}
	pieces = append(pieces, binary.AppendUvarint(nil, uint64(len(sums))), sums)
	return cachefile.BeginSealed(filepath.Join(dir, exportStateFile), old, pieces...)
}

func finishStateFile(w *cachefile.SealedWriter, s *exportState, marker string) error {
	s.Marker = marker
	if err := gob.NewEncoder(w).Encode(s); err != nil {
		w.Abort()
		return err
	}
	_, err := w.Finish()
	return err
}

// loadExportState maps the state file and decodes it; its doc sets refer
// to the mapping (exportState.m), which the caller closes once nothing
// refers to them.
func loadExportState(dir string) (*exportState, error) {
	body, m, err := cachefile.MapFile(filepath.Join(dir, exportStateFile), exportStateKind, exportStateVersion)
	if err != nil {
		return nil, err
	}
	s, err := decodeExportState(body)
	if err != nil {
		m.Close()
		return nil, err
	}
	s.m = m
	return s, nil
}

func decodeExportState(body []byte) (*exportState, error) {
	r := cachefile.NewReader(body)
	docs := make([][]byte, r.Count())
	for i := range docs {
		docs[i] = r.Bytes()
	}
	sums := r.Bytes()
	if r.Err() != nil {
		return nil, r.Err()
	}
	var s exportState
	if err := gob.NewDecoder(bytes.NewReader(body[len(body)-r.Len():])).Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", cachefile.ErrDamaged, err)
	}
	if len(s.Shards) != len(docs) {
		return nil, fmt.Errorf("%w: %d doc sets for %d shards", cachefile.ErrDamaged, len(docs), len(s.Shards))
	}
	for i := range docs {
		s.Shards[i].docs = docs[i]
	}
	if s.Filters != nil {
		s.Filters.sums = sums
	}
	return &s, nil
}
