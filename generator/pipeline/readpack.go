package pipeline

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// The read cache's entries live in one file, the pack, mapped once, and a
// served file's summaries are decoded in place from it: their messages
// are the mapping's bytes (model.SummaryDecoder.DecodeInPlace). Read into
// the heap, every summary's message and the buffers the entries were read
// into were fresh memory, which on a virtual machine costs more than
// decoding them (BENCHMARKS.md); thousands of entry files mapped one by one
// waited on the thread that faults in the heap ahead
// (internal/hugepages), which holds the process's memory map.
//
// A build writes the entries of the files it read as files of their own,
// as before; an entry file shadows the pack's entry of the same name. Once
// the entry files outnumber an eighth of the pack's (at once after a cold
// build), the build writes a new pack of the entries of the files it
// looked at: entry files and the pack's entries they do not shadow.
// Entries of files no longer in the dataset are so left out.
//
// The file is a sealed cache file (internal/cachefile) of kind packKind,
// whose body is the index, followed by the entries:
//
//	binary[32] uvarint(n) (name[nameSize] offset(uint64le) length(uint64le))[n]
//
// The records are sorted by name, and each entry's offset is counted from
// the end of the sealed index. An entry is an entry file's bytes, sealed
// as one: a damaged entry fails its own checksum only. binary is the hash
// of the errdocs that wrote the pack (every entry's header holds it too):
// a new errdocs leaves the pack unread, rather than checking every entry
// to find that none is its own.
const (
	packFile      = "pack"
	packKind      = "read pack"
	packVersion   = 1
	packEntrySize = nameSize + 16
	nameSize      = 12
)

// entryName is an entry's name: the first bytes of the sha256 of its
// file's key. An entry file's name is its hex.
type entryName [nameSize]byte

func (n entryName) String() string { return hex.EncodeToString(n[:]) }

// isEntryFile reports whether a file of the read cache's folder is an
// entry file, by its name.
func isEntryFile(name string) bool {
	_, err := hex.DecodeString(name)
	return len(name) == 2*nameSize && err == nil
}

// readPack is a pack as mapped.
type readPack struct {
	binary  [32]byte
	index   []byte // the index's records
	entries []byte
}

// find returns the bytes of the entry named name, if the pack holds it.
func (p *readPack) find(name entryName) ([]byte, bool) {
	if p == nil {
		return nil, false
	}
	n := p.len()
	i := sort.Search(n, func(i int) bool { return bytes.Compare(p.record(i), name[:]) >= 0 })
	if i == n || !bytes.Equal(p.record(i), name[:]) {
		return nil, false
	}
	r := p.index[i*packEntrySize+nameSize:]
	off, length := binary.LittleEndian.Uint64(r), binary.LittleEndian.Uint64(r[8:])
	if off > uint64(len(p.entries)) || length > uint64(len(p.entries))-off {
		return nil, false
	}
	return p.entries[off : off+length : off+length], true
}

// record is the name of the i'th entry of the index.
func (p *readPack) record(i int) []byte {
	return p.index[i*packEntrySize : i*packEntrySize+nameSize]
}

// len is the number of entries in the pack.
func (p *readPack) len() int {
	if p == nil {
		return 0
	}
	return len(p.index) / packEntrySize
}

// packMaps are the packs this process mapped, by path. A mapping is never
// closed: summaries decoded from it hold its bytes, and whatever keeps one
// of their strings must not find them gone. A process that builds again
// (serve, watching) finds the same pack mapped while its file is the same;
// a pack written since is mapped anew, and the old one's pages stay
// mapped, clean pages of a deleted file the kernel may reclaim.
var packMaps struct {
	sync.Mutex
	byPath map[string]mappedPack
}

type mappedPack struct {
	fi   os.FileInfo
	pack *readPack
}

// openPack returns the pack in dir, nil when there is none, it is not
// whole, or another errdocs binary than bin wrote it.
func openPack(dir string, bin [32]byte) *readPack {
	if p := mapPack(dir); p != nil && p.binary == bin {
		return p
	}
	return nil
}

// mapPack maps the pack in dir, or returns the mapping made before.
func mapPack(dir string) *readPack {
	path := filepath.Join(dir, packFile)
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	packMaps.Lock()
	defer packMaps.Unlock()
	if mp, ok := packMaps.byPath[path]; ok && os.SameFile(mp.fi, fi) && mp.fi.Size() == fi.Size() && mp.fi.ModTime().Equal(fi.ModTime()) {
		return mp.pack
	}
	m, err := cachefile.Map(path)
	if err != nil {
		return nil
	}
	p, err := decodePack(m.Bytes())
	if err != nil {
		m.Close()
		return nil
	}
	if packMaps.byPath == nil {
		packMaps.byPath = map[string]mappedPack{}
	}
	packMaps.byPath[path] = mappedPack{fi, p}
	return p
}

var errBadPack = errors.New("read cache: bad pack")

// decodePack checks a pack's index and returns the pack.
func decodePack(data []byte) (*readPack, error) {
	rest, err := cachefile.Header(data, packKind, packVersion)
	if err != nil {
		return nil, err
	}
	if len(rest) < 32 {
		return nil, errBadPack
	}
	count, k := binary.Uvarint(rest[32:])
	k += 32
	if k <= 32 || count > uint64(len(rest))/packEntrySize {
		return nil, errBadPack
	}
	end := len(data) - len(rest) + k + int(count)*packEntrySize + 12 // the trailer
	if end > len(data) {
		return nil, errBadPack
	}
	body, err := cachefile.Open(data[:end], packKind, packVersion)
	if err != nil {
		return nil, err
	}
	p := &readPack{index: body[k:], entries: data[end:]}
	copy(p.binary[:], body)
	for i := 1; i < p.len(); i++ {
		if bytes.Compare(p.record(i-1), p.record(i)) >= 0 {
			return nil, errBadPack
		}
	}
	return p, nil
}

// writePack writes the pack of the named entries to dir: each entry's
// file if it has one there, else the entry of old. The entries are copied
// one at a time, not gathered in memory: after a cold build they are the
// whole read cache.
func writePack(dir string, bin [32]byte, old *readPack, names []entryName) error {
	slices.SortFunc(names, func(a, b entryName) int { return bytes.Compare(a[:], b[:]) })
	names = slices.Compact(names)
	var index []byte // the records; their count goes first
	var sources []packSource
	off := uint64(0)
	for _, name := range names {
		src := packSource{file: filepath.Join(dir, name.String())}
		if fi, err := os.Stat(src.file); err == nil && fi.Mode().IsRegular() {
			src.size = uint64(fi.Size())
		} else if data, ok := old.find(name); ok {
			src.file, src.data, src.size = "", data, uint64(len(data))
		} else {
			continue
		}
		index = append(index, name[:]...)
		index = binary.LittleEndian.AppendUint64(index, off)
		index = binary.LittleEndian.AppendUint64(index, src.size)
		sources = append(sources, src)
		off += src.size
	}
	head := append(cachefile.Begin(nil, packKind, packVersion), bin[:]...)
	head = binary.AppendUvarint(head, uint64(len(sources)))
	sealed := cachefile.Seal(append(head, index...))
	f, err := os.CreateTemp(dir, ".tmp-pack-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing
	w := bufio.NewWriterSize(f, 256<<10)
	w.Write(sealed)
	var buf []byte
	for _, src := range sources {
		data := src.data
		if src.file != "" {
			if buf, err = readExactly(src.file, buf, src.size); err != nil {
				f.Close()
				return err
			}
			data = buf
		}
		w.Write(data)
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, packFile))
	}
	return err
}

// packSource is where a new pack's entry comes from: an entry file, or
// the bytes of the old pack's entry.
type packSource struct {
	file string
	data []byte
	size uint64
}

// readExactly reads the file at path, which must be size bytes long, into
// buf (grown as needed) and returns its bytes.
func readExactly(path string, buf []byte, size uint64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if uint64(cap(buf)) < size {
		buf = make([]byte, size)
	}
	buf = buf[:size]
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, err
	}
	return buf, nil
}
