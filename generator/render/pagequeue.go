package render

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
)

// A pageQueue renders the listings of Pages on every core and emits their
// pages in the order they were queued, so that Pages keeps its fixed
// order. A listing is one unit of work (its key, and its pages when they
// cannot be kept): a cold build renders tens of thousands of listing pages,
// which on one goroutine left the other cores idle for the whole stage.
//
// At most a few listings wait, rendered, for the one before them to be
// emitted: a listing's pages are held until then, and one tag can list a
// large share of the records.
type pageQueue struct {
	emit  func(string, []byte) error
	cache ListingCache // nil: no listing is kept or noted

	work   chan func()
	order  chan *queued
	failed atomic.Bool // an emit or a render failed: render no more
	done   chan struct{}
	err    error // the first failure in queue order (the consumer's)
	busy   sync.WaitGroup
}

// queued is a listing (or a page) in the queue: its pages once ready.
type queued struct {
	ready chan struct{}
	pages listingPages
	err   error
}

// listingPages are the pages of a listing, to emit in order; with keyed,
// the listing cache is told of each (ListingCache.Made) before it is
// emitted.
type listingPages struct {
	base  string
	key   ListingKey
	keyed bool
	paths []string
	html  [][]byte
}

// errStopped is what queueing returns once an earlier listing failed;
// pageQueue.wait returns that failure.
var errStopped = errors.New("render: stopped by an earlier failure")

var readyNow = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func newPageQueue(emit func(string, []byte) error, cache ListingCache) *pageQueue {
	workers := runtime.GOMAXPROCS(0)
	q := &pageQueue{emit: emit, cache: cache, work: make(chan func()),
		order: make(chan *queued, workers), done: make(chan struct{})}
	for range workers {
		q.busy.Add(1)
		go func() {
			defer q.busy.Done()
			for fn := range q.work {
				fn()
			}
		}()
	}
	go q.consume()
	return q
}

// listing queues a listing, rendered by a worker.
func (q *pageQueue) listing(render func() (listingPages, error)) error {
	if q.failed.Load() {
		return errStopped
	}
	j := &queued{ready: make(chan struct{})}
	q.order <- j
	q.work <- func() {
		defer close(j.ready)
		if q.failed.Load() {
			j.err = errStopped
			return
		}
		j.pages, j.err = render()
	}
	return nil
}

// page queues a page rendered already.
func (q *pageQueue) page(path string, html []byte) error {
	if q.failed.Load() {
		return errStopped
	}
	q.order <- &queued{ready: readyNow, pages: listingPages{paths: []string{path}, html: [][]byte{html}}}
	return nil
}

func (q *pageQueue) consume() {
	defer close(q.done)
	for j := range q.order {
		<-j.ready
		if q.err == nil {
			if q.err = j.err; q.err == nil {
				q.err = q.emitAll(&j.pages)
			}
			if q.err != nil {
				q.failed.Store(true)
			}
		}
		j.pages = listingPages{}
	}
}

func (q *pageQueue) emitAll(lp *listingPages) error {
	for k, path := range lp.paths {
		if lp.keyed {
			q.cache.Made(lp.base, lp.key, path)
		}
		if err := q.emit(path, lp.html[k]); err != nil {
			return err
		}
	}
	return nil
}

// wait emits what is queued and returns the first failure, in queue order.
func (q *pageQueue) wait() error {
	close(q.order)
	close(q.work)
	<-q.done
	q.busy.Wait()
	return q.err
}
