package publish

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// The file list (FileList) is gzip, one path a line, in members of a few
// thousand paths each. A member ends after a path chosen by the path
// alone (listCut), so adding or removing a file changes the member that
// holds it and leaves the others as they were: a rebuild that renames a
// few files (a one-record change renames search files) copies the other
// members from the previous list instead of compressing half a million
// paths again. Each member's header carries, in an extra field, the hash
// of the paths it holds and its length, by which the next list finds it.
// Readers see one gzip stream (members are concatenated) and ignore the
// field.

// listField is the extra field's subfield id: "ED", then 20 bytes, the
// first 16 bytes of the SHA-256 of the member's lines and the member's
// length (little-endian uint32), written once the member is compressed.
const (
	listFieldID  = "ED"
	listFieldLen = 20
	// listLenAt is where the member's length is in a member's bytes: the
	// fixed header (10), XLEN (2), the subfield's id and length (4), the
	// hash (16).
	listLenAt = 10 + 2 + 4 + 16
)

// listCutBits sets the members' size: a path ends a member when the low
// bits of its checksum are zero, one path in 2^listCutBits.
const listCutBits = 11

// maxListChunk bounds a member's paths, whatever the paths are.
const maxListChunk = 1 << 15

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// listCut reports whether rel ends a member.
func listCut(rel string) bool {
	b := unsafe.Slice(unsafe.StringData(rel), len(rel))
	return crc32.Checksum(b, castagnoli)&(1<<listCutBits-1) == 0
}

// listChunks cuts rels into the members' paths.
func listChunks(rels []string) [][]string {
	var chunks [][]string
	start := 0
	for i, rel := range rels {
		if listCut(rel) || i+1-start == maxListChunk {
			chunks = append(chunks, rels[start:i+1])
			start = i + 1
		}
	}
	if start < len(rels) {
		chunks = append(chunks, rels[start:])
	}
	return chunks
}

// writeList writes rels as the file list to w: each member copied from
// old (the previous list's bytes, may be nil) when it holds the same
// paths, compressed otherwise, side by side on every core.
func writeList(w io.Writer, rels []string, old []byte) error {
	chunks := listChunks(rels)
	members := make([][]byte, len(chunks))
	previous := oldMembers(old)
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(chunks))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lines []byte
			for c := range work {
				lines = appendLines(lines[:0], chunks[c])
				sum := listSum(lines)
				if m, ok := previous[sum]; ok && holds(m, lines) {
					members[c] = m
				} else {
					members[c] = zipLines(lines, sum)
				}
			}
		}()
	}
	for c := range chunks {
		work <- c
	}
	close(work)
	wg.Wait()
	for _, m := range members {
		if _, err := w.Write(m); err != nil {
			return err
		}
	}
	return nil
}

func appendLines(b []byte, rels []string) []byte {
	for _, rel := range rels {
		b = append(append(b, rel...), '\n')
	}
	return b
}

func listSum(lines []byte) [16]byte {
	full := sha256.Sum256(lines)
	return [16]byte(full[:16])
}

// holds checks a member found by its header against its gzip trailer:
// the CRC-32 and length of what it holds are those of lines.
func holds(member, lines []byte) bool {
	t := member[len(member)-8:]
	return binary.LittleEndian.Uint32(t) == crc32.ChecksumIEEE(lines) &&
		binary.LittleEndian.Uint32(t[4:]) == uint32(len(lines))
}

// zipLines compresses lines as one member whose header carries sum and,
// once known, the member's length.
func zipLines(lines []byte, sum [16]byte) []byte {
	var buf bytes.Buffer
	// The fastest level: the members that change are compressed again by
	// the build that waits for them, for a file only a later build reads.
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	field := append([]byte(listFieldID), listFieldLen, 0)
	field = append(append(field, sum[:]...), 0, 0, 0, 0)
	zw.Extra = field
	zw.Write(lines)
	zw.Close() // a buffer's writes do not fail
	m := buf.Bytes()
	binary.LittleEndian.PutUint32(m[listLenAt:], uint32(len(m)))
	return m
}

// oldMembers returns the members of a previous list by the hash of their
// lines, as far as their headers can be followed. A list of an older
// errdocs, or one changed by hand, gives what it can (its bytes are
// trusted as far as the headers say: a member copied that was not what
// its header claims is only a wrong list, which a later build writes
// again once a member changes).
func oldMembers(old []byte) map[[16]byte][]byte {
	out := map[[16]byte][]byte{}
	for len(old) > listLenAt+4 {
		if old[0] != 0x1f || old[1] != 0x8b || old[2] != 8 || old[3]&0x04 == 0 ||
			binary.LittleEndian.Uint16(old[10:]) != 4+listFieldLen ||
			string(old[12:14]) != listFieldID || binary.LittleEndian.Uint16(old[14:]) != listFieldLen {
			break
		}
		n := int(binary.LittleEndian.Uint32(old[listLenAt:]))
		if n <= listLenAt+4 || n > len(old) {
			break
		}
		out[[16]byte(old[16:32])] = old[:n:n]
		old = old[n:]
	}
	return out
}

// writeFileList writes FileList into the stage: the new site's files,
// reusing what it can of the previous site's list. The files kept as a
// block are sorted already: only the others are sorted, and the two
// merged.
func (s *Site) writeFileList() error {
	rels := make([]string, 0, len(s.prints))
	for rel := range s.prints {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	rels = mergeSorted(rels, s.block.rels)
	old := readOldList(filepath.Join(s.out, FileList))
	f, err := os.Create(filepath.Join(s.stage, FileList))
	if err != nil {
		return err
	}
	err = writeList(f, rels, old)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readOldList reads the previous site's list, nil when there is none or
// it is too large to be one.
func readOldList(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileList+1))
	if err != nil || len(b) > maxFileList {
		return nil
	}
	return b
}

// mergeSorted merges two sorted lists of distinct paths, none in both.
func mergeSorted(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := make([]string, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0] < b[0] {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// readFileList returns the files FileList in out names, or nil when it is
// missing or unreadable (a site of an older errdocs: then the folder is
// walked, and every file in it taken for the previous site's).
func readFileList(out string) []string {
	f, err := os.Open(filepath.Join(out, FileList))
	if err != nil {
		return nil
	}
	defer f.Close()
	zr, err := gzip.NewReader(io.LimitReader(f, maxFileList))
	if err != nil {
		return nil
	}
	var rels []string
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		if rel := sc.Text(); CheckPath(rel) == nil {
			rels = append(rels, rel)
		}
	}
	if sc.Err() != nil {
		return nil
	}
	return rels
}

// maxFileList bounds what readFileList reads of a FileList (whose bytes
// anyone with write access to the output could have replaced).
const maxFileList = 256 << 20
