package highlight

import (
	"math"

	"github.com/dlclark/regexp2/v2/syntax"
)

// A counted rule is matched by a backtracking search over regexp2's own
// tree for the rule's pattern, made here: the same search in the same
// order as regexp2's (runner.go: Branchmark, Branchcount and their lazy
// forms, for loops), so the same match, but with each step counted
// against the input's work budget. regexp2 itself can only be stopped by
// a clock, and some of chroma's rules backtrack exponentially on odd text
// ('(\\\\|\\'|[^'])*' on an unclosed string of backslashes). Rules with
// constructs the search does not know (conditionals, lookbehinds longer
// than one character, case-insensitive nodes) are left to regexp2.
type counted struct {
	root   *syntax.RegexNode
	groups int
}

// countedOf returns the counted form of a compiled rule pattern (with \G)
// with groups capture groups numbered 0 to groups-1, or nil.
func countedOf(pattern string, groups int) *counted {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil || tree.Root == nil || tree.Root.T != syntax.NtCapture || tree.Root.M != 0 || len(tree.Root.Children) != 1 {
		return nil
	}
	if !searchable(tree.Root.Children[0], groups) {
		return nil
	}
	prepareTree(tree.Root)
	return &counted{root: tree.Root.Children[0], groups: groups}
}

// searchable reports whether every node under n is one the search knows.
func searchable(n *syntax.RegexNode, groups int) bool {
	if isLook(n) {
		return (&validator{groups: groups}).ok(n, false, false)
	}
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript) != 0 {
		return false
	}
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtMulti,
		syntax.NtBol, syntax.NtEol, syntax.NtBeginning, syntax.NtStart, syntax.NtEndZ, syntax.NtEnd,
		syntax.NtBoundary, syntax.NtNonboundary, syntax.NtEmpty, syntax.NtNothing, syntax.NtUpdateBumpalong:
		return len(n.Children) == 0
	case syntax.NtSet:
		return len(n.Children) == 0 && n.Set != nil
	case syntax.NtOneloop, syntax.NtNotoneloop, syntax.NtOnelazy, syntax.NtNotonelazy,
		syntax.NtOneloopatomic, syntax.NtNotoneloopatomic:
		return len(n.Children) == 0 && n.M >= 0 && n.N >= n.M
	case syntax.NtSetloop, syntax.NtSetlazy, syntax.NtSetloopatomic:
		return len(n.Children) == 0 && n.Set != nil && n.M >= 0 && n.N >= n.M
	case syntax.NtRef:
		return len(n.Children) == 0 && n.M >= 0 && n.M < groups
	case syntax.NtCapture:
		if n.N != -1 || n.M <= 0 || n.M >= groups || len(n.Children) != 1 {
			return false
		}
	case syntax.NtLoop, syntax.NtLazyloop:
		if len(n.Children) != 1 || n.M < 0 || n.N < n.M {
			return false
		}
	case syntax.NtGroup, syntax.NtAtomic, syntax.NtPosLook, syntax.NtNegLook:
		if len(n.Children) != 1 {
			return false
		}
	case syntax.NtConcatenate, syntax.NtAlternate:
	default:
		return false
	}
	for _, c := range n.Children {
		if !searchable(c, groups) {
			return false
		}
	}
	return true
}

// maxMatchSteps bounds the steps of one counted match: a rule that needs
// more is taken not to match there, as chroma takes a rule whose regexp2
// match overran its 250 ms timeout, but by count, not by time. The real
// excerpts of internal/corpus take a few thousand steps per input, where
// an exponential rule (an unclosed string of backslashes) takes millions.
const maxMatchSteps = 1 << 18

// search is one counted match in progress.
type search struct {
	text  []rune
	start int // the \G position
	caps  []span
	it    *fastIterator // whose work is counted
	steps int
}

// match matches c at pos, filling caps (which must hold c.groups entries
// set to {0, -1}); it reports false also when the budget ran out
// (it.over).
func (s *search) match(c *counted, pos int) bool {
	end := -1
	ok := s.m(c.root, pos, func(q int) bool { end = q; return true })
	if ok {
		s.caps[0] = span{pos, end}
	}
	return ok && !s.stopped()
}

// step counts one step; false: the match or the input's budget is spent.
func (s *search) step() bool {
	it := s.it
	it.work++
	if it.work > it.limit {
		it.over = true
	}
	s.steps++
	return !s.stopped()
}

func (s *search) stopped() bool { return s.it.over || s.steps > maxMatchSteps }

// m matches n at p and then the rest of the pattern (k) after it,
// backtracking into n when k fails.
func (s *search) m(n *syntax.RegexNode, p int, k func(int) bool) bool {
	if !s.step() {
		return false
	}
	text := s.text
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
		return p < len(text) && charMatches(n, text[p]) && k(p+1)
	case syntax.NtMulti:
		return hasRunePrefix(text[p:], n.Str) && k(p+len(n.Str))
	case syntax.NtBol, syntax.NtEol, syntax.NtBeginning, syntax.NtStart,
		syntax.NtBoundary, syntax.NtNonboundary, syntax.NtEmpty, syntax.NtNothing, syntax.NtUpdateBumpalong:
		q, ok := linMatch(n, text, s.start, p, nil)
		return ok && k(q)
	case syntax.NtEndZ:
		return (p == len(text) || p == len(text)-1 && text[p] == '\n') && k(p)
	case syntax.NtEnd:
		return p == len(text) && k(p)
	case syntax.NtPosLook, syntax.NtNegLook:
		if isLook(n) {
			q, ok := linMatch(n, text, s.start, p, nil)
			return ok && k(q)
		}
		return s.look(n, p, k)
	case syntax.NtRef:
		c := s.caps[n.M]
		if c.end < 0 || !hasRunePrefix(text[p:], text[c.start:c.end]) {
			return false
		}
		return k(p + c.end - c.start)
	case syntax.NtConcatenate:
		return s.seq(n.Children, p, k)
	case syntax.NtAlternate:
		for _, c := range n.Children {
			if s.m(c, p, k) {
				return true
			}
			if s.stopped() {
				return false
			}
		}
		return false
	case syntax.NtGroup:
		return s.m(n.Children[0], p, k)
	case syntax.NtCapture:
		return s.capture(n, p, k)
	case syntax.NtAtomic:
		return s.atomic(n.Children[0], p, k)
	case syntax.NtLoop:
		return s.greedy(n, 0, -1, p, k)
	case syntax.NtLazyloop:
		return s.lazy(n, 0, -1, p, k)
	}
	return s.charLoop(n, p, k)
}

// seq matches the nodes ns in turn from p, then k.
func (s *search) seq(ns []*syntax.RegexNode, p int, k func(int) bool) bool {
	if len(ns) == 0 {
		return k(p)
	}
	return s.m(ns[0], p, func(q int) bool { return s.seq(ns[1:], q, k) })
}

// capture sets group n.M for the rest of the match, and unsets it when
// the search backtracks past it.
func (s *search) capture(n *syntax.RegexNode, p int, k func(int) bool) bool {
	return s.m(n.Children[0], p, func(q int) bool {
		old := s.caps[n.M]
		s.caps[n.M] = span{p, q}
		if k(q) {
			return true
		}
		s.caps[n.M] = old
		return false
	})
}

// atomic matches n once, its first way, keeping what it captured unless
// the rest fails.
func (s *search) atomic(n *syntax.RegexNode, p int, k func(int) bool) bool {
	saved := append([]span(nil), s.caps...)
	end := -1
	if !s.m(n, p, func(q int) bool { end = q; return true }) {
		copy(s.caps, saved)
		return false
	}
	if k(end) {
		return true
	}
	copy(s.caps, saved)
	return false
}

// look is a lookahead: a positive one keeps what it captured.
func (s *search) look(n *syntax.RegexNode, p int, k func(int) bool) bool {
	saved := append([]span(nil), s.caps...)
	found := s.m(n.Children[0], p, func(int) bool { return true })
	if s.stopped() {
		return false
	}
	if n.T == syntax.NtNegLook {
		copy(s.caps, saved)
		return !found && k(p)
	}
	if found && k(p) {
		return true
	}
	copy(s.caps, saved)
	return false
}

// greedy is regexp2's greedy loop (Branchmark, Branchcount) after iters
// iterations, the last of which started at mark (-1: none yet) and ended
// at p: it loops again unless the maximum is reached or an iteration past
// the minimum matched empty, and goes on after the loop when looping
// again fails and the minimum is met.
func (s *search) greedy(n *syntax.RegexNode, iters, mark, p int, k func(int) bool) bool {
	if iters >= n.N || p == mark && iters >= n.M {
		return k(p)
	}
	if s.m(n.Children[0], p, func(q int) bool { return s.greedy(n, iters+1, p, q, k) }) {
		return true
	}
	return iters >= n.M && !s.stopped() && k(p)
}

// lazy is regexp2's lazy loop (Lazybranchmark, Lazybranchcount): below
// the minimum it loops; then it goes on after the loop first, and loops
// again only if that fails, the maximum is not reached and the last
// iteration was not empty.
func (s *search) lazy(n *syntax.RegexNode, iters, mark, p int, k func(int) bool) bool {
	again := func(q int) bool { return s.lazy(n, iters+1, p, q, k) }
	if iters < n.M {
		return s.m(n.Children[0], p, again)
	}
	if k(p) {
		return true
	}
	return iters < n.N && p != mark && !s.stopped() && s.m(n.Children[0], p, again)
}

// charLoop is a loop of one character node: greedy ones give back one
// character at a time, lazy ones take one more at a time, atomic ones
// never give back.
func (s *search) charLoop(n *syntax.RegexNode, p int, k func(int) bool) bool {
	text := s.text
	limit := len(text) - p
	if n.N != math.MaxInt32 && n.N < limit {
		limit = n.N
	}
	one := func(r rune) bool {
		switch n.T {
		case syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
			return r == n.Ch
		case syntax.NtNotoneloop, syntax.NtNotonelazy, syntax.NtNotoneloopatomic:
			return r != n.Ch
		}
		return n.Set.Contains(r)
	}
	switch n.T {
	case syntax.NtOnelazy, syntax.NtNotonelazy, syntax.NtSetlazy:
		for i := 0; ; i++ {
			if i >= n.M && k(p+i) {
				return true
			}
			if i >= limit || !one(text[p+i]) || !s.step() {
				return false
			}
		}
	}
	c := 0
	for c < limit && one(text[p+c]) {
		c++
	}
	if c < n.M {
		return false
	}
	s.it.work += c
	s.steps += c
	if n.T == syntax.NtOneloopatomic || n.T == syntax.NtNotoneloopatomic || n.T == syntax.NtSetloopatomic {
		return k(p + c)
	}
	for i := c; i >= n.M; i-- {
		if k(p + i) {
			return true
		}
		if !s.step() {
			return false
		}
	}
	return false
}
