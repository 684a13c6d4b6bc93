package highlight

import (
	"math"

	"github.com/dlclark/regexp2/v2/syntax"
)

// A linear rule is one whose regexp2 tree, after regexp2's own reductions,
// never backtracks: a sequence of single characters, strings, anchors and
// atomic loops (regexp2 makes a loop atomic when nothing after it could make
// it give back), with groups around parts of it, and at its very end
// possibly a greedy loop or a choice between such sequences. Its one match
// at a position is found by walking the sequence once; linear rules are
// matched so, without running regexp2's program. Most of the rules that
// match a token (white space, names, punctuation, simple strings) are
// linear.
type linear struct {
	root *syntax.RegexNode // the pattern's top Capture (group 0)
	// groups is the number of capture groups including group 0.
	groups int
}

// linearOf returns the linear form of a compiled rule pattern (with \G),
// or nil when the pattern is not linear. groups is the pattern's number of
// capture groups; the tree's group numbers must be 0 to groups-1.
func linearOf(pattern string, groups int) *linear {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil || tree.Root == nil || tree.Root.T != syntax.NtCapture || tree.Root.M != 0 || len(tree.Root.Children) != 1 {
		return nil
	}
	v := validator{groups: groups}
	if !v.ok(tree.Root.Children[0], true, true) {
		return nil
	}
	return &linear{root: tree.Root, groups: groups}
}

type validator struct {
	groups int
}

// ok reports whether n is linear. tail: nothing follows n in the pattern,
// so a greedy loop or a choice there is settled by its first success.
// captures: n may hold capture groups.
func (v validator) ok(n *syntax.RegexNode, tail, captures bool) bool {
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript) != 0 {
		return false
	}
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtMulti,
		syntax.NtBol, syntax.NtEol, syntax.NtBeginning, syntax.NtStart,
		syntax.NtEmpty, syntax.NtNothing, syntax.NtUpdateBumpalong:
		return len(n.Children) == 0
	case syntax.NtSet:
		return len(n.Children) == 0 && n.Set != nil
	case syntax.NtOneloopatomic, syntax.NtNotoneloopatomic:
		return len(n.Children) == 0 && n.M >= 0 && n.N >= n.M
	case syntax.NtSetloopatomic:
		return len(n.Children) == 0 && n.Set != nil && n.M >= 0 && n.N >= n.M
	case syntax.NtOneloop, syntax.NtNotoneloop:
		return tail && len(n.Children) == 0 && n.M >= 0 && n.N >= n.M
	case syntax.NtSetloop:
		return tail && len(n.Children) == 0 && n.Set != nil && n.M >= 0 && n.N >= n.M
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
	end, ok := linMatch(l.root.Children[0], text, pos, pos, caps)
	if !ok {
		return false
	}
	caps[0] = span{pos, end}
	return true
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
	case syntax.NtEmpty, syntax.NtUpdateBumpalong:
		return p, true
	case syntax.NtNothing:
		return p, false
	case syntax.NtOneloop, syntax.NtOneloopatomic,
		syntax.NtNotoneloop, syntax.NtNotoneloopatomic,
		syntax.NtSetloop, syntax.NtSetloopatomic:
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
	}
	return p, false
}
