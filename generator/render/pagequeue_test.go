package render

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// emitOrder renders the binding pages with GOMAXPROCS at procs and returns
// the paths in the order emit got them, failing if emit is ever called
// from two goroutines at once.
func emitOrder(t *testing.T, procs int) []string {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	recs := append(sample(t), manyRecords(450)...)
	var inside atomic.Int32
	var order []string
	err := newRenderer(t, Options{}).Pages(build(recs), func(p string, b []byte) error {
		if inside.Add(1) != 1 {
			t.Errorf("emit called for %s while another call was running", p)
		}
		order = append(order, p)
		time.Sleep(50 * time.Microsecond) // leave room for an overlapping call
		inside.Add(-1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return order
}

func TestPagesEmitInAFixedOrder(t *testing.T) {
	one := emitOrder(t, 1)
	for _, procs := range []int{2, 4} {
		if many := emitOrder(t, procs); !slices.Equal(one, many) {
			t.Errorf("GOMAXPROCS %d: %d pages emitted in another order than on one core (%d pages)", procs, len(many), len(one))
		}
	}
	if len(one) < 20 || one[0] != "index.html" || one[len(one)-1] != "404.html" {
		t.Errorf("pages emitted: %d, first %q, last %q; want the home page first and 404.html last", len(one), one[0], one[len(one)-1])
	}
	for _, p := range []string{"big/repo/page/2/index.html", "tags/common/page/3/index.html", "families/fam/index.html"} {
		if !slices.Contains(one, p) {
			t.Errorf("%s was not emitted", p)
		}
	}
}

// meetingCache is a ListingCache whose Keep returns only once two calls
// are in it at the same time (or after a while): it shows whether
// listings are worked on side by side.
type meetingCache struct {
	mu     sync.Mutex
	in     int
	met    chan struct{}
	closed bool
	made   []string
}

func (c *meetingCache) Keep(base string, k ListingKey) bool {
	c.mu.Lock()
	c.in++
	if c.in == 2 && !c.closed {
		c.closed = true
		close(c.met)
	}
	c.mu.Unlock()
	select {
	case <-c.met:
	case <-time.After(2 * time.Second):
	}
	c.mu.Lock()
	c.in--
	c.mu.Unlock()
	return false
}

func (c *meetingCache) Made(base string, k ListingKey, path string) {
	c.mu.Lock()
	c.made = append(c.made, path)
	c.mu.Unlock()
}

func TestPagesRenderListingsSideBySide(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	recs := manyRecords(30)
	c := &meetingCache{met: make(chan struct{})}
	r := newRenderer(t, Options{})
	r.SetCache(c)
	var emitted []string
	err := r.Pages(build(recs), func(p string, b []byte) error { emitted = append(emitted, p); return nil })
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.met:
	default:
		t.Error("no two listings were worked on at the same time")
	}
	for _, p := range c.made {
		if !slices.Contains(emitted, p) {
			t.Errorf("the cache was told of %s, which was not emitted", p)
		}
	}
	if len(c.made) == 0 {
		t.Error("the cache was told of no listing page")
	}
}

func TestPagesStopAtTheFirstFailedEmit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	recs := manyRecords(450)
	full := 0
	if err := newRenderer(t, Options{}).Pages(build(recs), func(string, []byte) error { full++; return nil }); err != nil {
		t.Fatal(err)
	}
	diskFull := errors.New("disk full")
	calls, failAt := 0, full/2
	err := newRenderer(t, Options{}).Pages(build(recs), func(p string, b []byte) error {
		calls++
		if calls >= failAt {
			return diskFull
		}
		return nil
	})
	if !errors.Is(err, diskFull) {
		t.Errorf("Pages returned %v, want the emit's error", err)
	}
	if calls != failAt {
		t.Errorf("emit was called %d times; the failure was at call %d of %d, and nothing should follow it", calls, failAt, full)
	}
}

// keyCache is a ListingCache that notes each listing's key and keeps none.
type keyCache struct {
	mu   sync.Mutex
	keys map[string]ListingKey
}

func (c *keyCache) Keep(base string, k ListingKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keys[base] = k
	return false
}

func (c *keyCache) Made(string, ListingKey, string) {}

// TestListingKeysDependOnlyOnTheListing renders the same site twice in
// one process, on one core and then on four: each listing's key must be
// the same both times (its hasher, kept for the next listing, starts
// afresh), and no two listings may share one.
func TestListingKeysDependOnlyOnTheListing(t *testing.T) {
	recs := manyRecords(120)
	keysOn := func(procs int) map[string]ListingKey {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := &keyCache{keys: map[string]ListingKey{}}
		r := newRenderer(t, Options{})
		r.SetCache(c)
		if err := r.Pages(build(recs), func(string, []byte) error { return nil }); err != nil {
			t.Fatal(err)
		}
		return c.keys
	}
	one, four := keysOn(1), keysOn(4)
	if len(one) < 5 || len(one) != len(four) {
		t.Fatalf("%d and %d listings keyed; want the same number, at least 5", len(one), len(four))
	}
	seen := map[ListingKey]string{}
	for base, k := range one {
		if four[base] != k {
			t.Errorf("%s: key %x on one core, %x on four", base, k, four[base])
		}
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s have the same key", base, other)
		}
		seen[k] = base
	}
}
