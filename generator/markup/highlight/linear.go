package highlight

import (
	"math"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2/syntax"
)

// A linear rule is one whose regexp2 tree, after regexp2's own reductions,
// is a sequence of single characters, strings, anchors, word boundaries and
// atomic loops (regexp2 makes a loop atomic when nothing after it could make
// it give back), with groups around parts of it; a choice between such
// fixed sequences (keywords, a set or a character) may stand anywhere in
// the sequence, and at its very end a greedy loop. Its match at a position
// is found by walking the sequence, going back only to try a choice's next
// branch, as regexp2's backtracking would; linear rules are matched so,
// without running regexp2's program. Most of the rules that match a token
// (white space, names, keywords, punctuation, simple strings) are linear.
type linear struct {
	seq []linOp
	// groups is the number of capture groups including group 0.
	groups int
}

// linOp is one step of a linear rule: a node matched as a whole (its own
// match is final), a choice to backtrack into, or a group's start or end.
type linOp struct {
	kind  linKind
	n     *syntax.RegexNode
	group int
	// alts are a choice's branches, tried in order (nil: the empty
	// string); capturing: they may hold capture groups.
	alts      []*syntax.RegexNode
	capturing bool
	lits      *literals // linLiterals
}

type linKind uint8

const (
	linNode     linKind = iota // n matched by linMatch
	linChoice                  // alts tried in order
	linLiterals                // a choice of literal strings, tried in order
	linOpen                    // group starts
	linClose                   // group ends
)

// linearOf returns the linear form of a compiled rule pattern (with \G),
// or nil when the pattern is not linear. groups is the pattern's number of
// capture groups; the tree's group numbers must be 0 to groups-1.
func linearOf(pattern string, groups int) *linear {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil || tree.Root == nil || tree.Root.T != syntax.NtCapture || tree.Root.M != 0 || len(tree.Root.Children) != 1 {
		return nil
	}
	l := &linear{groups: groups}
	if !l.flatten(validator{groups: groups}, tree.Root.Children[0], true) {
		return nil
	}
	prepareTree(tree.Root)
	return l
}

// flatten appends the steps of n; tail: nothing follows n.
func (l *linear) flatten(v validator, n *syntax.RegexNode, tail bool) bool {
	if isLook(n) {
		if !v.ok(n, tail, false) {
			return false
		}
		l.seq = append(l.seq, linOp{kind: linNode, n: n})
		return true
	}
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript) != 0 {
		return false
	}
	switch n.T {
	case syntax.NtConcatenate:
		for i, c := range n.Children {
			if !l.flatten(v, c, tail && i == len(n.Children)-1) {
				return false
			}
		}
		return true
	case syntax.NtGroup:
		return len(n.Children) == 1 && l.flatten(v, n.Children[0], tail)
	case syntax.NtCapture:
		if n.N != -1 || n.M <= 0 || n.M >= v.groups || len(n.Children) != 1 {
			return false
		}
		l.seq = append(l.seq, linOp{kind: linOpen, group: n.M})
		if !l.flatten(v, n.Children[0], tail) {
			return false
		}
		l.seq = append(l.seq, linOp{kind: linClose, group: n.M})
		return true
	case syntax.NtAlternate:
		if tail {
			break // its first success is final
		}
		if lits := literalsOf(n); lits != nil {
			l.seq = append(l.seq, linOp{kind: linLiterals, lits: lits})
			return true
		}
		// Branches with no choice, group or trailing loop of their own:
		// each matches one way or not at all.
		for _, c := range n.Children {
			if !v.ok(c, false, false) {
				return false
			}
		}
		l.seq = append(l.seq, linOp{kind: linChoice, alts: n.Children})
		return true
	case syntax.NtLoop, syntax.NtLazyloop:
		// X? is a choice between X and nothing (X?? the other way round).
		if tail || n.M != 0 || n.N != 1 || len(n.Children) != 1 || !v.ok(n.Children[0], false, true) {
			break
		}
		alts := []*syntax.RegexNode{n.Children[0], nil}
		if n.T == syntax.NtLazyloop {
			alts[0], alts[1] = nil, alts[0]
		}
		l.seq = append(l.seq, linOp{kind: linChoice, alts: alts, capturing: true})
		return true
	}
	if !v.ok(n, tail, false) {
		return false
	}
	l.seq = append(l.seq, linOp{kind: linNode, n: n})
	return true
}

type validator struct {
	groups int
}

// ok reports whether n is linear. tail: nothing follows n in the pattern,
// so a greedy loop or a choice there is settled by its first success.
// captures: n may hold capture groups.
func (v validator) ok(n *syntax.RegexNode, tail, captures bool) bool {
	if isLook(n) {
		c := n.Children[0]
		return n.Options&(syntax.IgnoreCase|syntax.ECMAScript) == 0 &&
			c.Options&(syntax.IgnoreCase|syntax.ECMAScript) == 0 &&
			(c.Options&syntax.RightToLeft != 0) == (n.Options&syntax.RightToLeft != 0)
	}
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript) != 0 {
		return false
	}
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtMulti,
		syntax.NtBol, syntax.NtEol, syntax.NtBeginning, syntax.NtStart,
		syntax.NtBoundary, syntax.NtNonboundary,
		syntax.NtEmpty, syntax.NtNothing, syntax.NtUpdateBumpalong:
		return len(n.Children) == 0
	case syntax.NtSet:
		return len(n.Children) == 0 && n.Set != nil
	case syntax.NtOneloopatomic, syntax.NtNotoneloopatomic:
		return len(n.Children) == 0 && n.M >= 0 && n.N >= n.M
	case syntax.NtSetloopatomic:
		return len(n.Children) == 0 && n.Set != nil && n.M >= 0 && n.N >= n.M
	case syntax.NtOneloop, syntax.NtNotoneloop:
		// A loop of fixed count matches one way wherever it stands.
		return (tail || n.M == n.N) && len(n.Children) == 0 && n.M >= 0 && n.N >= n.M
	case syntax.NtSetloop:
		return (tail || n.M == n.N) && len(n.Children) == 0 && n.Set != nil && n.M >= 0 && n.N >= n.M
	case syntax.NtLoop:
		// A greedy loop that nothing follows stops at its first
		// iteration that fails; with at most one iteration required there
		// is nothing to backtrack into. An iteration matches at least one
		// character, so none is empty.
		return tail && len(n.Children) == 1 && n.M <= 1 && n.N >= n.M &&
			minLen(n.Children[0]) > 0 && v.ok(n.Children[0], true, false)
	case syntax.NtConcatenate:
		for i, c := range n.Children {
			if !v.ok(c, tail && i == len(n.Children)-1, captures) {
				return false
			}
		}
		return true
	case syntax.NtGroup:
		return len(n.Children) == 1 && v.ok(n.Children[0], tail, captures)
	case syntax.NtAtomic:
		// Once matched, an atomic group is never retried: its first
		// success is final whatever follows.
		return len(n.Children) == 1 && v.ok(n.Children[0], true, false)
	case syntax.NtCapture:
		return captures && n.N == -1 && n.M > 0 && n.M < v.groups &&
			len(n.Children) == 1 && v.ok(n.Children[0], tail, captures)
	case syntax.NtAlternate:
		if !tail {
			return false
		}
		for _, c := range n.Children {
			if !v.ok(c, true, false) {
				return false
			}
		}
		return true
	}
	return false
}

// span is a capture: runes start to end; end < 0 when the group did not
// take part.
type span struct{ start, end int }

// match matches the rule at pos (its \G position). caps must have
// l.groups entries set to {0, -1}; on success they hold the groups, and
// caps[0] the match.
func (l *linear) match(text []rune, pos int, caps []span) bool {
	end, ok := l.run(text, pos, 0, pos, caps)
	if !ok {
		return false
	}
	caps[0] = span{pos, end}
	return true
}

// run matches steps i onwards at p, trying each branch of a choice in turn
// with the rest of the steps after it.
func (l *linear) run(text []rune, start, i, p int, caps []span) (int, bool) {
	for ; i < len(l.seq); i++ {
		op := &l.seq[i]
		switch op.kind {
		case linOpen:
			caps[op.group].start = p
		case linClose:
			caps[op.group].end = p
		case linChoice:
			return l.choose(op, text, start, i, p, caps)
		case linLiterals:
			for _, k := range op.lits.candidates(text, p) {
				lit := op.lits.strs[k]
				if hasRunePrefix(text[p:], lit) {
					if end, ok := l.run(text, start, i+1, p+len(lit), caps); ok {
						return end, true
					}
				}
			}
			return p, false
		default:
			var ok bool
			if p, ok = linMatch(op.n, text, start, p, nil); !ok {
				return p, false
			}
		}
	}
	return p, true
}

// choose tries the branches of choice op (step i) at p in turn, each with
// the steps after it, undoing what a failed branch captured.
func (l *linear) choose(op *linOp, text []rune, start, i, p int, caps []span) (int, bool) {
	var saved []span
	if op.capturing {
		saved = append(make([]span, 0, 8), caps...)
	}
	for _, c := range op.alts {
		q, ok := p, true
		if c != nil {
			var bcaps []span
			if op.capturing {
				bcaps = caps
			}
			q, ok = linMatch(c, text, start, p, bcaps)
		}
		if ok {
			if end, ok := l.run(text, start, i+1, q, caps); ok {
				return end, true
			}
		}
		if op.capturing {
			copy(caps, saved)
		}
	}
	return p, false
}

// linMatch matches node n at p, returning the position after it. start is
// the \G position.
func linMatch(n *syntax.RegexNode, text []rune, start, p int, caps []span) (int, bool) {
	switch n.T {
	case syntax.NtOne:
		return p + 1, p < len(text) && text[p] == n.Ch
	case syntax.NtNotone:
		return p + 1, p < len(text) && text[p] != n.Ch
	case syntax.NtSet:
		return p + 1, p < len(text) && n.Set.Contains(text[p])
	case syntax.NtMulti:
		return p + len(n.Str), hasRunePrefix(text[p:], n.Str)
	case syntax.NtBol:
		return p, p == 0 || text[p-1] == '\n'
	case syntax.NtEol:
		return p, p == len(text) || text[p] == '\n'
	case syntax.NtBeginning:
		return p, p == 0
	case syntax.NtStart:
		return p, p == start
	case syntax.NtBoundary:
		return p, isBoundary(text, p)
	case syntax.NtNonboundary:
		return p, !isBoundary(text, p)
	case syntax.NtEmpty, syntax.NtUpdateBumpalong:
		return p, true
	case syntax.NtNothing:
		return p, false
	case syntax.NtOneloop, syntax.NtOneloopatomic,
		syntax.NtNotoneloop, syntax.NtNotoneloopatomic,
		syntax.NtSetloop, syntax.NtSetloopatomic:
		return linCharLoop(n, text, p)
	case syntax.NtConcatenate:
		for _, c := range n.Children {
			var ok bool
			if p, ok = linMatch(c, text, start, p, caps); !ok {
				return p, false
			}
		}
		return p, true
	case syntax.NtGroup, syntax.NtAtomic:
		return linMatch(n.Children[0], text, start, p, caps)
	case syntax.NtCapture:
		end, ok := linMatch(n.Children[0], text, start, p, caps)
		if ok {
			caps[n.M] = span{p, end}
		}
		return end, ok
	case syntax.NtAlternate:
		for _, c := range n.Children {
			if end, ok := linMatch(c, text, start, p, caps); ok {
				return end, true
			}
		}
		return p, false
	case syntax.NtLoop:
		count, c := 0, n.Children[0]
		for count < n.N {
			q, ok := linMatch(c, text, start, p, caps)
			if !ok {
				break
			}
			p = q
			count++
		}
		return p, count >= n.M
	case syntax.NtPosLook, syntax.NtNegLook:
		at := p
		if n.Options&syntax.RightToLeft != 0 {
			at = p - 1
		}
		ok := at >= 0 && at < len(text) && charMatches(n.Children[0], text[at])
		return p, ok == (n.T == syntax.NtPosLook)
	}
	return p, false
}

// isLook reports whether n is a lookahead or lookbehind at one character.
func isLook(n *syntax.RegexNode) bool {
	if n.T != syntax.NtPosLook && n.T != syntax.NtNegLook || len(n.Children) != 1 {
		return false
	}
	switch c := n.Children[0]; c.T {
	case syntax.NtOne, syntax.NtNotone:
		return len(c.Children) == 0
	case syntax.NtSet:
		return len(c.Children) == 0 && c.Set != nil
	}
	return false
}

// charMatches reports whether one-character node n matches r.
func charMatches(n *syntax.RegexNode, r rune) bool {
	switch n.T {
	case syntax.NtOne:
		return r == n.Ch
	case syntax.NtNotone:
		return r != n.Ch
	}
	return n.Set.Contains(r)
}

// minLen is the fewest characters a match of n takes.
func minLen(n *syntax.RegexNode) int {
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
		return 1
	case syntax.NtMulti:
		return len(n.Str)
	case syntax.NtOneloop, syntax.NtNotoneloop, syntax.NtSetloop,
		syntax.NtOneloopatomic, syntax.NtNotoneloopatomic, syntax.NtSetloopatomic,
		syntax.NtOnelazy, syntax.NtNotonelazy, syntax.NtSetlazy:
		return n.M
	case syntax.NtLoop, syntax.NtLazyloop:
		if len(n.Children) == 1 {
			return n.M * minLen(n.Children[0])
		}
	case syntax.NtConcatenate:
		sum := 0
		for _, c := range n.Children {
			sum += minLen(c)
		}
		return sum
	case syntax.NtAlternate:
		least := math.MaxInt
		for _, c := range n.Children {
			least = min(least, minLen(c))
		}
		if least < math.MaxInt {
			return least
		}
	case syntax.NtCapture, syntax.NtGroup, syntax.NtAtomic:
		if len(n.Children) == 1 {
			return minLen(n.Children[0])
		}
	}
	return 0
}

// linCharLoop matches a greedy loop of one character node at p, taking
// as many as it can (it never gives back: see validator.ok).
func linCharLoop(n *syntax.RegexNode, text []rune, p int) (int, bool) {
	max := n.N
	if max == math.MaxInt32 || max > len(text)-p {
		max = len(text) - p
	}
	i := 0
	switch n.T {
	case syntax.NtOneloop, syntax.NtOneloopatomic:
		for i < max && text[p+i] == n.Ch {
			i++
		}
	case syntax.NtNotoneloop, syntax.NtNotoneloopatomic:
		for i < max && text[p+i] != n.Ch {
			i++
		}
	default:
		for i < max && n.Set.Contains(text[p+i]) {
			i++
		}
	}
	return p + i, i >= n.M
}

// isBoundary is regexp2's Runner.IsBoundary (\b).
func isBoundary(text []rune, p int) bool {
	return (p > 0 && syntax.IsWordChar(text[p-1])) != (p < len(text) && syntax.IsWordChar(text[p]))
}

// literals is a choice between literal strings (keyword lists), in the
// order a backtracking match tries them, indexed by first character.
type literals struct {
	strs [][]rune
	// byFirst[c] lists, in order, the strings that may match where the
	// text has ASCII character c: those starting with c, and empty ones.
	byFirst [utf8.RuneSelf][]int32
	all     []int32 // every string, for other characters
}

// maxLiterals bounds how many strings a choice may expand to.
const maxLiterals = 1024

// literalsOf returns the choice n spelled out as its strings, or nil when
// n is not a choice of literal strings (or spells too many).
func literalsOf(n *syntax.RegexNode) *literals {
	strs, ok := spell(n)
	if !ok || len(strs) == 0 {
		return nil
	}
	l := &literals{strs: strs}
	for i, s := range strs {
		l.all = append(l.all, int32(i))
		for c := range rune(utf8.RuneSelf) {
			if len(s) == 0 || s[0] == c {
				l.byFirst[c] = append(l.byFirst[c], int32(i))
			}
		}
	}
	return l
}

// candidates are the strings worth trying at p, in order.
func (l *literals) candidates(text []rune, p int) []int32 {
	if p < len(text) && text[p] < utf8.RuneSelf {
		return l.byFirst[text[p]]
	}
	return l.all
}

// spell lists the strings n matches, in the order a backtracking match
// tries them: a concatenation tries its first part's strings in order,
// each with all of the rest's.
func spell(n *syntax.RegexNode) ([][]rune, bool) {
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript) != 0 {
		return nil, false
	}
	switch n.T {
	case syntax.NtOne:
		return [][]rune{{n.Ch}}, len(n.Children) == 0
	case syntax.NtMulti:
		return [][]rune{n.Str}, len(n.Children) == 0
	case syntax.NtEmpty:
		return [][]rune{{}}, true
	case syntax.NtSet:
		// regexp2 folds keywords that differ in one character into a
		// set (i[fn]); at most one of its characters matches anywhere,
		// so their order does not matter.
		if n.Set == nil || n.Set.IsNegated() || len(n.Children) != 0 {
			return nil, false
		}
		chars := n.Set.GetSetChars(16)
		out := make([][]rune, 0, len(chars))
		for _, c := range chars {
			if !n.Set.Contains(c) {
				return nil, false
			}
			out = append(out, []rune{c})
		}
		return out, len(out) > 0
	case syntax.NtGroup:
		if len(n.Children) == 1 {
			return spell(n.Children[0])
		}
	case syntax.NtAlternate:
		var out [][]rune
		for _, c := range n.Children {
			strs, ok := spell(c)
			if !ok || len(out)+len(strs) > maxLiterals {
				return nil, false
			}
			out = append(out, strs...)
		}
		return out, true
	case syntax.NtConcatenate:
		out := [][]rune{{}}
		for _, c := range n.Children {
			strs, ok := spell(c)
			if !ok || len(out)*len(strs) > maxLiterals {
				return nil, false
			}
			next := make([][]rune, 0, len(out)*len(strs))
			for _, a := range out {
				for _, b := range strs {
					next = append(next, append(append([]rune{}, a...), b...))
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}
