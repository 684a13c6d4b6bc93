package export

import "sync"

// A readGate holds back a run's read-ahead at the terms where the run may
// end. A run of re-encoded shards usually ends at the first term of the
// next shard the change left alone, and the groups read ahead past that
// term would be read for nothing: the gate lets the group at such a term
// through (the run must see it to decide) and holds the next until the
// run has gone on past it.
type readGate struct {
	mu     sync.Mutex
	moved  sync.Cond
	ends   []string // terms where the run may end, ascending
	atEnd  bool     // the group at ends[0] (or the first after it) is through
	closed bool     // the run is over: let nothing more through
}

// newReadGate returns a gate at ends (ascending), or nil when there are
// none: a nil gate lets every group through.
func newReadGate(ends []string) *readGate {
	if len(ends) == 0 {
		return nil
	}
	g := &readGate{ends: ends}
	g.moved.L = &g.mu
	return g
}

// pass is asked by the producer before a group at term is read: it waits
// while the run has not gone past an end before term, and reports whether
// the group may be read (false: the run is over).
func (g *readGate) pass(term string) bool {
	if g == nil {
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.closed && len(g.ends) > 0 && term >= g.ends[0] {
		if !g.atEnd {
			g.atEnd = true
			return true
		}
		g.moved.Wait()
	}
	return !g.closed
}

// wentOn is told by the run that it took the group at term and goes on:
// the ends at or before term are behind it.
func (g *readGate) wentOn(term string) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.ends) == 0 || term < g.ends[0] {
		return
	}
	for len(g.ends) > 0 && g.ends[0] <= term {
		g.ends = g.ends[1:]
	}
	g.atEnd = false
	g.moved.Broadcast()
}

// close lets a waiting producer go, with nothing more to read: the run
// calls it before it stops taking groups.
func (g *readGate) close() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	g.moved.Broadcast()
}
