package highlight

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
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

// A cache file is a header line naming the format, the key and the sha256
// of the body, then the body. The header makes a misplaced or damaged file
// a miss rather than wrong output; the file name alone is not trusted.
const fileMagic = "errdocs-highlight-cache"

func (h *Highlighter) cachePath(k [32]byte) string {
	x := keyHex(k)
	return filepath.Join(h.opts.CacheDir, x[:2], x[2:]+".html")
}

func header(k [32]byte, body string) string {
	sum := sha256.Sum256([]byte(body))
	return fmt.Sprintf("%s %s %s %s\n", fileMagic, formatVersion, keyHex(k), hex.EncodeToString(sum[:]))
}

func (h *Highlighter) readDisk(k [32]byte) (string, bool) {
	if h.opts.CacheDir == "" {
		return "", false
	}
	data, err := os.ReadFile(h.cachePath(k))
	if err != nil {
		return "", false
	}
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return "", false
	}
	body := string(data[i+1:])
	if string(data[:i+1]) != header(k, body) {
		return "", false
	}
	return body, true
}

// writeDisk writes to a temporary file in the target folder and renames
// it into place, so a concurrent build (or a crash) never leaves a half
// file under a key's name.
func (h *Highlighter) writeDisk(k [32]byte, body string) error {
	if h.opts.CacheDir == "" {
		return nil
	}
	p := h.cachePath(k)
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("highlight cache: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("highlight cache: %w", err)
	}
	tmp := f.Name()
	_, werr := f.WriteString(header(k, body) + body)
	cerr := f.Close()
	if err := firstErr(werr, cerr); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("highlight cache: writing %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("highlight cache: %w", err)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
