package pipeline

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// oldMagic is the magic line each cache file had before internal/cachefile
// framed them all, by kind.
var oldMagic = map[string]string{
	readCacheKind: "errdocs read cache 1\n",
	sumsKind:      "errdocs manifest sums 1\n",
	relatedKind:   "errdocs related 1\n",
	pageCacheKind: "errdocs-pages-2\n",
	"side store":  "errdocs side store 1\n",
	"terms":       "errdocs-terms-1\n",
}

// toOldFormat rewrites every cache file under dir as the errdocs before
// internal/cachefile wrote it: the kind's magic line, the body, a CRC of
// both; the export state as a bare gob under its old name, the page cache
// under its old ".gob" name. It returns how many files it rewrote.
func toOldFormat(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		kind, body, ok := framed(data)
		if !ok {
			return nil // bleve's files, the highlight cache's
		}
		var old []byte
		switch kind {
		case noChangeKind, binaryKind, "pattern words", countKind, groupsKind, "export numbering", assetKind, "side store table", rebuildMemoryKind:
			return nil // kinds made since: no old format
		case "export state":
			os.Remove(p)
			n++
			return os.WriteFile(filepath.Join(filepath.Dir(p), "export.gob"), body, 0o644)
		case packKind: // made since; before it, each entry was a file
			for _, entry := range unpack(t, filepath.Dir(p)) {
				data, _ := os.ReadFile(entry)
				_, body, _ := framed(data)
				n++
				if err := os.WriteFile(entry, oldFramed(readCacheKind, body), 0o644); err != nil {
					return err
				}
			}
			return nil
		case "side store": // a log: header, then entries as they were
			old = append([]byte(oldMagic[kind]), body...)
		default:
			if _, known := oldMagic[kind]; !known {
				t.Fatalf("%s: a cache file of kind %q the test does not know", p, kind)
			}
			old = oldFramed(kind, body)
		}
		if kind == pageCacheKind {
			os.Remove(p)
			p += ".gob"
		}
		n++
		return os.WriteFile(p, old, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// oldFramed is a file of kind holding body as the errdocs before
// internal/cachefile framed it.
func oldFramed(kind string, body []byte) []byte {
	old := append([]byte(oldMagic[kind]), body...)
	return binary.LittleEndian.AppendUint32(old, crc32.Checksum(old, crc32.MakeTable(crc32.Castagnoli)))
}

// framed takes a cache file apart into kind and body (a log's body is its
// entries).
func framed(data []byte) (kind string, body []byte, ok bool) {
	const magic = "errdocs cache\n"
	if !bytes.HasPrefix(data, []byte(magic)) {
		return "", nil, false
	}
	r := cachefile.NewReader(data[len(magic):])
	kind = r.String()
	version := r.Uvarint()
	if r.Err() != nil {
		return "", nil, false
	}
	if b, err := cachefile.Open(data, kind, version); err == nil {
		return kind, b, true
	}
	b, err := cachefile.Header(data, kind, version)
	return kind, b, err == nil
}

// A cache written by the errdocs before internal/cachefile is ignored,
// never misread: the rebuild over it reads every record file, makes the
// search export whole, and makes the site a build without a cache makes.
func TestOldCachesAreIgnored(t *testing.T) {
	trustAll(t)
	in, _ := testInput(t)
	p := newPair(t, in)
	p.build()
	if n := toOldFormat(t, p.cache); n < 6 {
		t.Fatalf("rewrote %d cache files in the old formats, want every kind's (6 or more)", n)
	}
	again := p.build()
	if again.rep.Cached != 0 {
		t.Errorf("the rebuild over old caches took %d files from the read cache", again.rep.Cached)
	}
	if !strings.HasPrefix(again.rep.Search, "whole") {
		t.Errorf("the rebuild over an old export state made the export %q, want whole", again.rep.Search)
	}
	// And the caches it left are read again by the next build.
	if third := p.build(); third.rep.Cached == 0 {
		t.Error("the caches written over the old ones were not used by the next build")
	}
}
