package highlight

import "github.com/dlclark/regexp2/v2/syntax"

// The matchers here (linear.go, backtrack.go, planAllows) test a rule's
// character sets one rune at a time, at every position they try, and a
// set with a Unicode class (\w, \s, \d) answers through a search of its
// ranges and categories. regexp2 keeps in a set its own answers for the
// ASCII runes, read by CharSet.Contains before that search, but makes
// them only for the programs regexp2.Compile writes, not for the trees
// syntax.Parse returns, which are what the matchers walk. So each set
// they read is given its table when its rule is compiled: once per set,
// from the set's own answers (negation and subtraction included), and
// before the rule is shared, so matching only reads it. Each parse makes
// sets of its own, so no other goroutine sees a set while it is given
// its table.

// prepareTree gives every set of the tree under n its ASCII table.
func prepareTree(n *syntax.RegexNode) {
	prepareSets(treeSets(n, nil))
}

// prepareSets gives sets their ASCII tables, by regexp2's own code for
// them, which works on a program's table of sets.
func prepareSets(sets []*syntax.CharSet) {
	(&syntax.Code{Sets: sets}).PrepareCharSetASCIIBitmaps()
}

// treeSets appends to sets those of the nodes under n.
func treeSets(n *syntax.RegexNode, sets []*syntax.CharSet) []*syntax.CharSet {
	if n.Set != nil {
		sets = append(sets, n.Set)
	}
	for _, c := range n.Children {
		sets = treeSets(c, sets)
	}
	return sets
}

// planSets is the sets planAllows reads of search plan o.
func planSets(o *syntax.FindOptimizations) []*syntax.CharSet {
	var sets []*syntax.CharSet
	for _, s := range o.FixedDistanceSets {
		if s.Set != nil {
			sets = append(sets, s.Set)
		}
	}
	return sets
}
