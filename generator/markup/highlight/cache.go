package highlight

import (
	"bufio"
	"bytes"
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// memCache is a least-recently-used map from key to HTML, bounded in bytes:
// a 500,000-record build would not fit in memory whole, and repeats of one
// text tend to come close together (one repo's records share patterns).
type memCache struct {
	mu    sync.Mutex
	limit int64
	size  int64
	ll    *list.List
	items map[[32]byte]*list.Element
}

type memEntry struct {
	key [32]byte
	val string
}

func newMemCache(limit int64) *memCache {
	return &memCache{limit: limit, ll: list.New(), items: map[[32]byte]*list.Element{}}
}

func (c *memCache) get(k [32]byte) (string, bool) {
	if c.limit <= 0 {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return "", false
	}
	c.ll.MoveToFront(e)
	return e.Value.(*memEntry).val, true
}

func (c *memCache) put(k [32]byte, v string) {
	cost := int64(len(v)) + 96
	if c.limit <= 0 || cost > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return
	}
	c.items[k] = c.ll.PushFront(&memEntry{k, v})
	c.size += cost
	for c.size > c.limit {
		e := c.ll.Back()
		me := e.Value.(*memEntry)
		c.ll.Remove(e)
		delete(c.items, me.key)
		c.size -= int64(len(me.val)) + 96
	}
}

// flightGroup lets one goroutine compute a key while others asking for the
// same key wait for its result, so that parallel renders of records sharing
// a code field highlight it once.
type flightGroup struct {
	mu    sync.Mutex
	calls map[[32]byte]*flightCall
}

type flightCall struct {
	done chan struct{}
	val  string
	err  error
}

// do runs fn for k, or waits for the run already in progress; shared
// reports the latter.
func (g *flightGroup) do(k [32]byte, fn func() (string, error)) (val string, shared bool, err error) {
	g.mu.Lock()
	if g.calls == nil {
		g.calls = map[[32]byte]*flightCall{}
	}
	if c, ok := g.calls[k]; ok {
		g.mu.Unlock()
		<-c.done
		return c.val, true, c.err
	}
	c := &flightCall{done: make(chan struct{})}
	g.calls[k] = c
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.calls, k)
		g.mu.Unlock()
		close(c.done)
	}()
	c.val, c.err = fn()
	return c.val, false, c.err
}

// The disk cache is a folder of pack files. Each build appends the entries
// it highlighted to a pack of its own ("pack-*.pack", one record per entry:
// the key, the sha256 of the body, the body's length, the body) and the
// pack's index beside it ("pack-*.idx": key, offset, length of each entry),
// written under a temporary name and renamed when it closes. A later build
// reads every index into memory and reads bodies with one positioned read
// each.
//
// One file per entry was simpler, but on the file systems this runs on
// creating a file is costly: five entries per record made the disk cache
// a large share of a cold build's system time. A pack whose
// index is missing (its build was killed) is never read, and a body is used
// only if its stored key and checksum match, so a damaged pack is a miss,
// never wrong output. Deleting the folder empties the cache.
const (
	packMagic  = "errdocs-highlight-pack\n"
	entryHead  = 32 + 32 + 4 // key, sha256 of body, body length
	indexEntry = 32 + 8 + 4  // key, offset of the entry, body length
)

type packLoc struct {
	pack int32
	off  int64
	n    uint32
}

// diskCache is the pack store of one Highlighter.
type diskCache struct {
	dir     string
	mu      sync.Mutex
	packs   []*os.File // open packs to read
	indexes [][]byte   // their indexes, sorted by key (loadLocked)
	// maps are the indexes' mappings: an index is mapped, not read into
	// the heap, since a rebuild looks up a handful of its entries, and
	// fresh memory for all of them cost more than the lookups.
	maps   []*cachefile.Mapping
	loaded bool

	out    *os.File // this build's pack, made on first write
	outBuf *bufio.Writer
	outOff int64
	// The pack's index is written as the pack is, to a temporary file
	// renamed into place by close: at half a million records it is a
	// hundred megabytes, which need not stay in memory.
	idx    *os.File
	idxBuf *bufio.Writer
	outErr error
}

// openDiskCache opens the pack store in dir. The indexes of its complete
// packs are read on the first lookup, so a build that highlights nothing (a
// rebuild with no page to render) does not read them; a missing or
// unreadable folder is an empty cache.
func openDiskCache(dir string) *diskCache {
	return &diskCache{dir: dir}
}

// loadLocked reads the indexes of the complete packs, once; d.mu is held.
// An index is kept as read, its entries sorted by key (close writes them
// in write order, to hold none in memory: the first build to read a pack
// sorts its index and writes it back), and searched by bisection: a
// rebuild that renders one page looks up a handful of keys among hundreds
// of thousands, and a map of them all cost it more memory and time than
// the page it renders.
func (d *diskCache) loadLocked() {
	if d.loaded {
		return
	}
	d.loaded = true
	idxs, _ := filepath.Glob(filepath.Join(d.dir, "pack-*.idx"))
	sort.Strings(idxs)
	for _, ip := range idxs {
		m, err := cachefile.Map(ip)
		if err != nil {
			continue
		}
		data := m.Bytes()
		f, err := os.Open(strings.TrimSuffix(ip, ".idx") + ".pack")
		if err != nil || len(data)%indexEntry != 0 {
			m.Close()
			continue
		}
		if !looksSorted(data) {
			// Written in write order (by an older errdocs): sorted in the
			// heap, and kept sorted, so that the sort is paid once. A
			// failure only costs the next build the sort again.
			data = bytes.Clone(data)
			m.Close()
			m = nil
			sortIndex(data)
			if tmp := ip + ".tmp"; os.WriteFile(tmp, data, 0o644) == nil {
				os.Rename(tmp, ip)
			}
		}
		d.packs = append(d.packs, f)
		d.indexes = append(d.indexes, data)
		d.maps = append(d.maps, m)
	}
}

// looksSorted reports whether a pack index's entries are sorted by key,
// from a sample of neighbouring entries: its first and last ones and
// some spread between. Reading all of them would page in the whole
// index, which grows with the records, for a rebuild that looks up a few
// keys. An index in write order has its keys (hashes) in no order, which
// the first pairs show; and a bisection of an index that is not sorted
// only misses keys (what it finds has the key asked for), costing their
// highlighting again, not wrong output.
func looksSorted(data []byte) bool {
	const edge, spread = 256, 256
	n := len(data) / indexEntry
	if n <= 2*edge+spread {
		return indexSorted(data)
	}
	for i := 1; i <= edge; i++ {
		if !entryInOrder(data, i) || !entryInOrder(data, n-i) {
			return false
		}
	}
	for k := 1; k <= spread; k++ {
		if !entryInOrder(data, k*(n-1)/(spread+1)) {
			return false
		}
	}
	return true
}

// indexSorted reports whether a pack index's entries are sorted by key.
func indexSorted(data []byte) bool {
	for i := 1; i < len(data)/indexEntry; i++ {
		if !entryInOrder(data, i) {
			return false
		}
	}
	return true
}

// entryInOrder reports whether entry i of a pack index has a key no
// smaller than entry i-1's.
func entryInOrder(data []byte, i int) bool {
	a, b := (i-1)*indexEntry, i*indexEntry
	return bytes.Compare(data[a:a+32], data[b:b+32]) <= 0
}

// sortIndex sorts a pack index's entries by key, unless they are already,
// and reports whether it had to.
func sortIndex(data []byte) bool {
	n := len(data) / indexEntry
	entry := func(i int) []byte { return data[i*indexEntry : (i+1)*indexEntry] }
	if indexSorted(data) {
		return false
	}
	// Sorted as offsets into data (cheaper to swap than 44-byte entries).
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return bytes.Compare(entry(int(a))[:32], entry(int(b))[:32]) })
	out := make([]byte, 0, len(data))
	for _, i := range order {
		out = append(out, entry(int(i))...)
	}
	copy(data, out)
	return true
}

// lookLocked finds a key in the indexes, the newest pack first; d.mu is
// held.
func (d *diskCache) lookLocked(k [32]byte) (packLoc, bool) {
	for p := len(d.indexes) - 1; p >= 0; p-- {
		data := d.indexes[p]
		n := len(data) / indexEntry
		i := sort.Search(n, func(i int) bool { return bytes.Compare(data[i*indexEntry:i*indexEntry+32], k[:]) >= 0 })
		if i < n && bytes.Equal(data[i*indexEntry:i*indexEntry+32], k[:]) {
			e := data[i*indexEntry:]
			return packLoc{int32(p), int64(binary.LittleEndian.Uint64(e[32:])), binary.LittleEndian.Uint32(e[40:])}, true
		}
	}
	return packLoc{}, false
}

func (d *diskCache) read(k [32]byte) (string, bool) {
	d.mu.Lock()
	d.loadLocked()
	loc, ok := d.lookLocked(k)
	var f *os.File
	if ok {
		f = d.packs[loc.pack]
	}
	d.mu.Unlock()
	if !ok || f == nil {
		return "", false
	}
	buf := make([]byte, entryHead+int(loc.n))
	if _, err := f.ReadAt(buf, loc.off); err != nil {
		return "", false
	}
	body := buf[entryHead:]
	if !bytes.Equal(buf[:32], k[:]) || binary.LittleEndian.Uint32(buf[64:]) != loc.n {
		return "", false
	}
	if sum := sha256.Sum256(body); !bytes.Equal(buf[32:64], sum[:]) {
		return "", false
	}
	return string(body), true
}

func (d *diskCache) write(k [32]byte, body string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.outErr != nil {
		return d.outErr
	}
	if d.out == nil {
		if err := os.MkdirAll(d.dir, 0o755); err != nil {
			d.outErr = fmt.Errorf("highlight cache: %w", err)
			return d.outErr
		}
		f, err := os.CreateTemp(d.dir, "pack-*.pack")
		if err != nil {
			d.outErr = fmt.Errorf("highlight cache: %w", err)
			return d.outErr
		}
		idx, err := os.Create(d.idxName(f) + ".tmp")
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			d.outErr = fmt.Errorf("highlight cache: %w", err)
			return d.outErr
		}
		d.out, d.outBuf = f, bufio.NewWriterSize(f, 1<<20)
		d.idx, d.idxBuf = idx, bufio.NewWriterSize(idx, 64<<10)
		if _, err := d.outBuf.WriteString(packMagic); err != nil {
			d.outErr = err
			return err
		}
		d.outOff = int64(len(packMagic))
	}
	var head [entryHead]byte
	copy(head[:32], k[:])
	sum := sha256.Sum256([]byte(body))
	copy(head[32:64], sum[:])
	binary.LittleEndian.PutUint32(head[64:], uint32(len(body)))
	d.outBuf.Write(head[:])
	if _, err := d.outBuf.WriteString(body); err != nil {
		d.outErr = fmt.Errorf("highlight cache: %w", err)
		return d.outErr
	}
	var ie [indexEntry]byte
	copy(ie[:32], k[:])
	binary.LittleEndian.PutUint64(ie[32:], uint64(d.outOff))
	binary.LittleEndian.PutUint32(ie[40:], uint32(len(body)))
	if _, err := d.idxBuf.Write(ie[:]); err != nil {
		d.outErr = fmt.Errorf("highlight cache: %w", err)
		return d.outErr
	}
	d.outOff += int64(entryHead + len(body))
	return nil
}

// idxName is the name of a pack's index.
func (d *diskCache) idxName(pack *os.File) string {
	return strings.TrimSuffix(pack.Name(), ".pack") + ".idx"
}

// close finishes this build's pack: flushed, then its index written
// (through a temporary file), which is what makes the pack readable.
func (d *diskCache) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, f := range d.packs {
		f.Close()
	}
	for _, m := range d.maps {
		m.Close()
	}
	d.packs, d.indexes, d.maps = nil, nil, nil
	if d.out == nil {
		return d.outErr
	}
	out, idx := d.out, d.idx
	d.out, d.idx = nil, nil
	name := d.idxName(out)
	err := firstErr(d.outErr, d.outBuf.Flush(), out.Close(), d.idxBuf.Flush(), idx.Close())
	if err == nil {
		// Sorted now, from the file (written in write order so that no
		// build holds its entries while rendering): the sort, a tenth of
		// a second at 100,000 records, falls to the build that wrote the
		// entries, not to the next one, which renders a few pages.
		if data, rerr := os.ReadFile(idx.Name()); rerr == nil && len(data)%indexEntry == 0 && sortIndex(data) {
			err = os.WriteFile(idx.Name(), data, 0o644)
		}
	}
	if err == nil {
		err = os.Rename(idx.Name(), name)
	}
	if err != nil {
		os.Remove(idx.Name())
		os.Remove(out.Name())
		return fmt.Errorf("highlight cache: %w", err)
	}
	return nil
}

func (h *Highlighter) readDisk(k [32]byte) (string, bool) {
	if h.disk == nil {
		return "", false
	}
	body, ok := h.disk.read(k)
	if !ok || !formatterMarkup(body) {
		return "", false
	}
	return body, true
}

func (h *Highlighter) writeDisk(k [32]byte, body string) error {
	if h.disk == nil {
		return nil
	}
	return h.disk.write(k, body)
}

// Close writes this build's new cache entries for later builds to read.
// Entries highlighted after Close are not kept.
func (h *Highlighter) Close() error {
	if h.disk == nil {
		return nil
	}
	return h.disk.close()
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
