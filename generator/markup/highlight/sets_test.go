package highlight

import (
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2/syntax"
)

// TestSetTables checks, for every set the matchers read in every lexer's
// compiled rules, that it was given its ASCII table (else the matchers
// take the slow path again) and that the table answers as the set does
// without it; and the same answers for sets of the kinds the rules use.
func TestSetTables(t *testing.T) {
	ls := lexers.GlobalLexerRegistry.Lexers
	if testing.Short() {
		ls = nil
		for _, name := range []string{"go", "python", "java", "javascript", "typescript", "rust", "c++", "bash", "sql"} {
			ls = append(ls, lexers.Get(name))
		}
	}
	sets, patterns := 0, 0
	for _, l := range ls {
		fl := fastLexerFor(l)
		if fl == nil {
			continue
		}
		seen := map[*chroma.CompiledRule]bool{}
		for _, fs := range fl.filters {
			for _, f := range fs {
				if seen[f.rule] || f.pattern == "" {
					continue
				}
				seen[f.rule] = true
				for _, s := range ruleSets(f) {
					if !hasTable(t, s) {
						t.Fatalf("%s %q: a set has no ASCII table", l.Config().Name, f.pattern)
					}
				}
				if f.lin != nil || f.counted != nil {
					sets += sameAnswers(t, f.pattern, false)
				}
				if f.opt != nil {
					sets += sameAnswers(t, strings.TrimPrefix(f.pattern, `\G`), true)
				}
				patterns++
			}
		}
	}
	for _, p := range []string{
		`\w`, `\W`, `\s`, `\S`, `\d`, `\D`, `(?s).`, `[^\n\r]`, `[^\n\\"]`,
		`[a-z-[aeiou]]`, `[\w-[\d_]]`, `[^\W\d]`, `[\s\S]`, `[^\s\w]`,
		`(?i)[a-f]`, `(?i)[^k]`, `(?i)[\w-[x]]`, `(?i)[a-z_$][\w$]*`,
		`\p{L}`, `\P{Lu}`, `[\p{L}\p{Nd}_$]`, `[^\p{Zs}\t]`,
	} {
		if sameAnswers(t, p, false) == 0 {
			t.Errorf("%q: no set", p)
		}
	}
	t.Logf("%d sets in %d rules", sets, patterns)
	if patterns < 300 || sets < 1000 {
		t.Errorf("too few rules or sets checked")
	}
}

// ruleSets is the sets the matchers of rule f read.
func ruleSets(f ruleFilter) []*syntax.CharSet {
	var sets []*syntax.CharSet
	if f.lin != nil {
		for _, op := range f.lin.seq {
			if op.n != nil {
				sets = treeSets(op.n, sets)
			}
			for _, a := range op.alts {
				if a != nil {
					sets = treeSets(a, sets)
				}
			}
		}
	}
	if f.counted != nil {
		sets = treeSets(f.counted.root, sets)
	}
	if f.opt != nil {
		sets = append(sets, planSets(f.opt)...)
	}
	return sets
}

// hasTable reports whether s holds regexp2's ASCII table.
func hasTable(t *testing.T, s *syntax.CharSet) bool {
	t.Helper()
	v := reflect.ValueOf(s).Elem().FieldByName("ascii")
	if !v.IsValid() || v.Kind() != reflect.Pointer {
		t.Fatal("regexp2's CharSet keeps no ASCII table any more: see sets.go")
	}
	return !v.IsNil()
}

// sameAnswers parses pattern twice, gives the sets of one parse (of its
// search plan: plan) their tables as the compiled rules' are given, and
// checks that each answers as the same set of the other parse for every
// ASCII rune and a few others. It returns how many sets it checked.
func sameAnswers(t *testing.T, pattern string, plan bool) int {
	t.Helper()
	sets := func() []*syntax.CharSet {
		tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
		if err != nil {
			t.Fatalf("%q: %v", pattern, err)
		}
		if plan {
			if tree.FindOptimizations == nil {
				return nil
			}
			return planSets(tree.FindOptimizations)
		}
		return treeSets(tree.Root, nil)
	}
	fast, slow := sets(), sets()
	prepareSets(fast)
	if len(fast) != len(slow) {
		t.Fatalf("%q: %d sets, then %d", pattern, len(fast), len(slow))
	}
	others := []rune{-1, 128, 0xa0, 'é', 'ſ', '\u212a', 'ж', '٣', '_', 0x2028, 0xfeff, 0x10ffff}
	for i := range fast {
		if !hasTable(t, fast[i]) || hasTable(t, slow[i]) {
			t.Fatalf("%q: set %d: tables not as prepared", pattern, i)
		}
		for r := rune(0); r < 128; r++ {
			if fast[i].Contains(r) != slow[i].Contains(r) {
				t.Fatalf("%q: set %d (%s): %q: %v with its table", pattern, i, slow[i], r, fast[i].Contains(r))
			}
		}
		for _, r := range others {
			if fast[i].Contains(r) != slow[i].Contains(r) {
				t.Fatalf("%q: set %d (%s): %q: %v with its table", pattern, i, slow[i], r, fast[i].Contains(r))
			}
		}
	}
	return len(fast)
}
