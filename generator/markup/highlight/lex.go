package highlight

import (
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// Most of chroma's time goes to rules that cannot match. At each position
// chroma tries the current state's rules in order (often 20 to 60 of them)
// until one matches, and each try is a full regexp2 run: a rule compiles to
// `\G(?:pattern)`, and for a pattern anchored with \G regexp2 does not look
// at its set of possible first characters before running the program.
//
// fastLexer runs a chroma RegexLexer's own rules with chroma's own
// algorithm (LexerState.Iterator, copied below), with these differences:
//
//   - a rule whose possible first characters (regexp2's own first-character
//     analysis) exclude the rune at the position is skipped without running
//     it. The analysis is a superset of the first characters of any
//     non-empty match, and a rule that can match the empty string has none,
//     so a rule skipped could not have matched;
//   - so is a rule that regexp2's search plan for its pattern (leading
//     anchor, leading strings, characters at fixed distances, minimum
//     length) rules out at the position;
//   - a linear rule (linear.go) is matched by walking its tree, not by
//     regexp2, with the same result;
//   - a match's groups are read in place (FindRunesMatches) and cut from
//     the input string, and the NamedGroups map is made only for lexers
//     that may read it.
//
// The tokens are the same, only cheaper (lex_test.go compares them with
// chroma's on every lexer's sample file and on generated records).

// ruleFilter is what rule may start with, for ASCII runes: bit c of ascii
// is set when the rule may match at a rune c. Non-ASCII runes always run
// the rule.
type ruleFilter struct {
	rule  *chroma.CompiledRule
	any   bool // no filter: the rule may start with anything, or match empty
	ascii [2]uint64
	// opt is regexp2's search plan for the rule's pattern without \G: what
	// any match must start with (nil: nothing more than ascii says).
	opt *syntax.FindOptimizations
	// lin is the rule as a linear matcher, or nil (see linear.go).
	lin *linear
	// counted is the rule for the counted search, or nil (backtrack.go).
	counted *counted
	// eager: the rule's groups may go in a slice reused by the next match.
	eager bool
	// oneLine: no match of the rule reads past a newline (see charge).
	oneLine bool
	// pattern is the rule's compiled pattern text.
	pattern string
	// The rule's capture groups in the order of Match.Groups: their
	// numbers and names.
	nums  []int
	names []string
}

func (f *ruleFilter) mayStart(c rune) bool {
	return f.any || c >= utf8.RuneSelf || f.ascii[c>>6]&(1<<(c&63)) != 0
}

// fastLexer is one chroma RegexLexer with its rules compiled here, each
// with its filter.
type fastLexer struct {
	lexer   *chroma.RegexLexer
	rules   chroma.CompiledRules
	filters map[string][]ruleFilter
	// named is whether an emitter or mutator of the lexer may read
	// LexerState.NamedGroups; when none can, the map is not made.
	named bool
}

var fastLexers sync.Map // *chroma.RegexLexer → *fastLexer, or nil: not possible

// fastLexerFor returns the fast form of l, or nil when l is not a plain
// RegexLexer whose rules compile here as they do in chroma; then the caller
// uses chroma's Tokenise.
func fastLexerFor(l chroma.Lexer) *fastLexer {
	rl, ok := l.(*chroma.RegexLexer)
	if !ok || rl == nil {
		return nil
	}
	if v, ok := fastLexers.Load(rl); ok {
		return v.(*fastLexer)
	}
	fl := compileFast(rl)
	v, _ := fastLexers.LoadOrStore(rl, fl)
	return v.(*fastLexer)
}

// compileFast compiles rl's rules as chroma's RegexLexer.maybeCompile
// does (same pattern text, flags and LexerMutator pass, but no match
// timeout: see untimed.go), into a rule set of our own, and computes
// each rule's filter.
func compileFast(rl *chroma.RegexLexer) (fl *fastLexer) {
	defer func() {
		if recover() != nil {
			fl = nil
		}
	}()
	rules, filter, ok := compileRules(rl)
	if !ok || !mutateRules(rules) || !validEmitters(rules) {
		return nil
	}
	fl = &fastLexer{lexer: rl, rules: rules, filters: map[string][]ruleFilter{}}
	for _, rs := range rules {
		for _, r := range rs {
			if !namesUnread(r.Type, r.Mutator) {
				fl.named = true
			}
			if usesLexerFunc(r.Type) {
				// The Go lexer's raw strings (the only such rule in chroma)
				// are lexed by chroma's Go template lexer.
				untimeLexers(lexers.GoTextTemplate)
			}
		}
	}
	for state, rs := range rules {
		fs, ok := filtersOf(rs, filter)
		if !ok {
			return nil
		}
		fl.filters[state] = fs
		for _, r := range rs {
			if r.Type, ok = fastEmitter(r.Type); !ok {
				return nil
			}
		}
	}
	for _, fs := range fl.filters {
		for i := range fs {
			fs[i].eager = eager(fs[i].rule)
		}
	}
	return fl
}

// eager reports whether rule r is done with its match's groups once it
// has been applied: its emitter makes its tokens at once and its mutator
// (push, pop) does not read them. Such a rule's groups share one slice.
func eager(r *chroma.CompiledRule) bool {
	switch r.Type.(type) {
	case nil, chroma.TokenType, *groupTokens:
		return namesUnread(nil, r.Mutator)
	}
	return false
}

// compileRules compiles rl's raw rules, each with its filter.
func compileRules(rl *chroma.RegexLexer) (chroma.CompiledRules, map[*chroma.CompiledRule]ruleFilter, bool) {
	raw, err := rl.Rules()
	if err != nil {
		return nil, nil, false
	}
	cfg := rl.Config()
	flags := ""
	if !cfg.NotMultiline {
		flags += "m"
	}
	if cfg.CaseInsensitive {
		flags += "i"
	}
	if cfg.DotAll {
		flags += "s"
	}
	rules := chroma.CompiledRules{}
	filter := map[*chroma.CompiledRule]ruleFilter{}
	for state, rs := range raw {
		rules[state] = nil
		for _, r := range rs {
			pattern := "(?:" + r.Pattern + ")"
			if flags != "" {
				pattern = "(?" + flags + ")" + pattern
			}
			pattern = `\G` + pattern
			re, err := regexp2.Compile(pattern)
			if err != nil {
				return nil, nil, false
			}
			cr := &chroma.CompiledRule{Rule: r, Regexp: re}
			f := firstChars(pattern)
			f.opt = searchPlan(strings.TrimPrefix(pattern, `\G`))
			f.oneLine = withinLine(pattern)
			f.pattern = pattern
			filter[cr] = f
			rules[state] = append(rules[state], cr)
		}
	}
	return rules, filter, true
}

// mutateRules is maybeCompile's LexerMutator pass (include and the like).
func mutateRules(rules chroma.CompiledRules) bool {
restart:
	seen := map[chroma.LexerMutator]bool{}
	for state := range rules {
		for i := range len(rules[state]) {
			if m, ok := rules[state][i].Mutator.(chroma.LexerMutator); ok {
				if seen[m] {
					return false
				}
				seen[m] = true
				if err := m.MutateLexer(rules, state, i); err != nil {
					return false
				}
				goto restart
			}
		}
	}
	return true
}

// validEmitters is maybeCompile's ValidatingEmitter pass.
func validEmitters(rules chroma.CompiledRules) bool {
	for state := range rules {
		for i := range len(rules[state]) {
			if v, ok := rules[state][i].Type.(chroma.ValidatingEmitter); ok {
				if v.ValidateEmitter(rules[state][i]) != nil {
					return false
				}
			}
		}
	}
	return true
}

// filtersOf is the filters of one state's rules, with each rule's groups
// and, where it has one, its linear matcher.
func filtersOf(rs []*chroma.CompiledRule, filter map[*chroma.CompiledRule]ruleFilter) ([]ruleFilter, bool) {
	fs := make([]ruleFilter, len(rs))
	for i, r := range rs {
		f, ok := filter[r]
		if !ok {
			f = ruleFilter{any: true}
		}
		f.rule = r
		f.nums = r.Regexp.GetGroupNumbers()
		f.names = r.Regexp.GetGroupNames()
		if len(f.nums) == 0 || f.nums[0] != 0 || len(f.nums) != len(f.names) {
			return nil, false
		}
		dense := true
		for j, num := range f.nums {
			dense = dense && num == j
		}
		if dense && f.pattern != "" {
			f.lin = linearOf(f.pattern, len(f.nums))
			if f.lin == nil {
				f.counted = countedOf(f.pattern, len(f.nums))
			}
		}
		fs[i] = f
	}
	return fs, true
}

// firstChars is the filter for a compiled pattern: regexp2's first
// character set for it (nil when the pattern may match empty), widened by
// simple case folding for case-insensitive sets.
func firstChars(pattern string) ruleFilter {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil {
		return ruleFilter{any: true}
	}
	code, err := syntax.Write(tree)
	if err != nil || code.FcPrefix == nil || code.RightToLeft {
		return ruleFilter{any: true}
	}
	set := &code.FcPrefix.PrefixSet
	var f ruleFilter
	for c := rune(0); c < utf8.RuneSelf; c++ {
		ok := set.Contains(c)
		if !ok && code.FcPrefix.CaseInsensitive {
			for o := unicode.SimpleFold(c); o != c; o = unicode.SimpleFold(o) {
				if set.Contains(o) {
					ok = true
					break
				}
			}
		}
		if ok {
			f.ascii[c>>6] |= 1 << (c & 63)
		}
	}
	return f
}

// tokenise is chroma's RegexLexer.Tokenise with default options, with no
// work budget.
func (fl *fastLexer) tokenise(text string) chroma.Iterator {
	return fl.iterator(nil, text, math.MaxInt).next
}

var defaultOptions = &chroma.TokeniseOptions{State: "root", EnsureLF: true}

// iterator is chroma's RegexLexer.Tokenise with options (nil: chroma's
// defaults), stopping once its work passes limit. Lexers that emitters
// reach from it (Using, UsingSelf, UsingByGroup) are fast lexers too.
func (fl *fastLexer) iterator(options *chroma.TokeniseOptions, text string, limit int) *fastIterator {
	return fl.iteratorWith(options, text, limit, nil)
}

// iteratorWith is iterator with the text's runes appended to runes.
func (fl *fastLexer) iteratorWith(options *chroma.TokeniseOptions, text string, limit int, runes []rune) *fastIterator {
	if options == nil {
		options = defaultOptions
	}
	if options.EnsureLF {
		text = ensureLF(text)
	}
	newlineAdded := false
	if !options.Nested && fl.lexer.Config().EnsureNL && !strings.HasSuffix(text, "\n") {
		text += "\n"
		newlineAdded = true
	}
	for _, r := range text { // as []rune(text) does
		runes = append(runes, r)
	}
	it := &fastIterator{
		fl: fl,
		state: &chroma.LexerState{
			Registry:       fastRegistry(),
			Lexer:          fl.lexer,
			Text:           runes,
			Stack:          []string{options.State},
			Rules:          fl.rules,
			MutatorContext: map[any]any{},
		},
		initial:      options.State,
		newlineAdded: newlineAdded,
		limit:        limit,
		eol:          -1,
	}
	it.setSource(text, len(runes))
	it.yield = it.onMatch
	return it
}

// setSource keeps text for cutting groups from: as it is when it spells the
// runes exactly (valid UTF-8), with rune offsets unless it is ASCII.
func (it *fastIterator) setSource(text string, runes int) {
	switch {
	case isASCII(text):
		it.src = text
	case utf8.ValidString(text):
		it.src = text
		it.offs = make([]int32, 0, runes+1)
		for i := range text {
			it.offs = append(it.offs, int32(i))
		}
		it.offs = append(it.offs, int32(len(text)))
	default:
		it.noSrc = true
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ensureLF is chroma's: \r\n and lone \r become \n.
func ensureLF(text string) string {
	if !strings.Contains(text, "\r") {
		return text
	}
	buf := make([]byte, len(text))
	var j int
	for i := range len(text) {
		c := text[i]
		if c == '\r' {
			if i < len(text)-1 && text[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		buf[j] = c
		j++
	}
	return string(buf[:j])
}

type fastIterator struct {
	fl            *fastLexer
	state         *chroma.LexerState
	iteratorStack []chroma.Iterator
	pending       []chroma.Token // tokens emitted, from pending[pi] on
	pi            int
	gbuf          []string // groups of eager rules' matches
	newlineAdded  bool
	initial       string // the state lexing starts in

	// The text as a string: src[offs[i]:offs[j]] is the text of runes i to
	// j (offs nil: all runes are ASCII, offsets are indexes). noSrc: the
	// text was not valid UTF-8; groups are converted from runes.
	src   string
	offs  []int32
	noSrc bool

	// The match in progress, for onMatch.
	yield  func(regexp2.MatchView) bool
	filter *ruleFilter
	pos    int
	groups []string
	length int    // runes in groups[0]
	caps   []span // for linear rules

	// work counts the lexer's steps so far (see charge); once it passes
	// limit the iterator ends and over is set.
	work, limit int
	over        bool
	eol         int // the first newline at or after the last position charged
}

// text is the text of n runes from rune at.
func (it *fastIterator) text(at, n int) string {
	switch {
	case it.noSrc:
		return string(it.state.Text[at : at+n])
	case it.offs == nil:
		return it.src[at : at+n]
	}
	return it.src[it.offs[at]:it.offs[at+n]]
}

// next is chroma's LexerState.Iterator (v2.27.0) without tracing, with
// matchRules replaced by it.match, and the tokens of a token type or of
// ByGroups of token types made at once rather than through iterators
// (TokenType.Emit, byGroupsEmitter.Emit).
func (it *fastIterator) next() chroma.Token {
	l := it.state
	end := len(l.Text)
	if it.newlineAdded {
		end--
	}
	for l.Pos < end && len(l.Stack) > 0 {
		if t, ok := it.queued(); ok {
			return t
		}
		if t, ok := it.step(); ok {
			return t
		}
		if it.over {
			return chroma.EOF
		}
	}
	if it.over {
		return chroma.EOF
	}
	if t, ok := it.queued(); ok {
		return t
	}
	// If we get to here and we still have text, return it as an error.
	if l.Pos != len(l.Text) && len(l.Stack) == 0 {
		value := string(l.Text[l.Pos:])
		l.Pos = len(l.Text)
		return chroma.Token{Type: chroma.Error, Value: value}
	}
	return chroma.EOF
}

// queued returns the next token that earlier matches emitted: the pending
// tokens, then the iterator stack's (chroma's "exhaust the iterator
// stack").
func (it *fastIterator) queued() (chroma.Token, bool) {
	for it.pi < len(it.pending) {
		t := it.pending[it.pi]
		it.pi++
		if t.Type != chroma.Ignore {
			return t, true
		}
	}
	it.pending, it.pi = it.pending[:0], 0
	for len(it.iteratorStack) > 0 {
		n := len(it.iteratorStack) - 1
		t := it.iteratorStack[n]()
		if t.Type == chroma.Ignore {
			continue
		}
		if t == chroma.EOF {
			it.iteratorStack = it.iteratorStack[:n]
			continue
		}
		return t, true
	}
	return chroma.Token{}, false
}

// step matches at the current position and applies the rule: it returns
// a token to give out now, or false when there is none yet (the match
// queued its tokens or emitted none, or changed the state).
func (it *fastIterator) step() (chroma.Token, bool) {
	l := it.state
	l.State = l.Stack[len(l.Stack)-1]
	selectedRule, ok := l.Rules[l.State]
	if !ok {
		panic("unknown state " + l.State)
	}
	ruleIndex, rule, groups, namedGroups, length := it.match(l.State, selectedRule)
	if it.over {
		return chroma.Token{}, false
	}
	if groups == nil { // no match
		// From Pygments: a newline that is an error token empties the
		// stack and lexing goes on in the first state.
		if l.Text[l.Pos] == '\n' && l.State != it.initial {
			l.Stack = []string{it.initial}
			return chroma.Token{}, false
		}
		l.Pos++
		return chroma.Token{Type: chroma.Error, Value: string(l.Text[l.Pos-1 : l.Pos])}, true
	}
	l.Rule, l.Groups, l.NamedGroups = ruleIndex, groups, namedGroups
	l.Pos += length
	if rule.Mutator != nil {
		if err := rule.Mutator.Mutate(l); err != nil {
			panic(err)
		}
	}
	return it.emit(rule.Type)
}

// emit applies emitter e to the match: a token type's one token is
// returned, ByGroups of token types queue theirs (skipping what
// Concaterator would: a token equal to EOF), and any other emitter's
// iterator goes on the stack.
func (it *fastIterator) emit(e chroma.Emitter) (chroma.Token, bool) {
	l := it.state
	switch e := e.(type) {
	case nil:
	case chroma.TokenType:
		if t := (chroma.Token{Type: e, Value: l.Groups[0]}); t.Type != chroma.Ignore && t != chroma.EOF {
			return t, true
		}
	case *groupTokens:
		for i, g := range l.Groups[1:] {
			if t := (chroma.Token{Type: e.types[i], Value: g}); e.emits[i] && t != chroma.EOF {
				it.pending = append(it.pending, t)
			}
		}
	default:
		it.iteratorStack = append(it.iteratorStack, e.Emit(l.Groups, l))
	}
	return chroma.Token{}, false
}

// match is chroma's matchRules at the current position, skipping rules
// that cannot start there, and reading the groups of a match in place
// rather than through a Match of their own. It also returns the length of
// the match in runes. The filters are used only for the rules they were
// made for (a mutator could replace a state's rules while lexing).
func (it *fastIterator) match(state string, rules []*chroma.CompiledRule) (int, *chroma.CompiledRule, []string, map[string]string, int) {
	text, pos := it.state.Text, it.state.Pos
	fs := it.fl.filters[state]
	c := text[pos]
	for i, rule := range rules {
		if i >= len(fs) || fs[i].rule != rule {
			if groups, named, ok := matchRule(rule, text, pos); ok {
				return i, rule, groups, named, utf8.RuneCountInString(groups[0])
			}
			continue
		}
		f := &fs[i]
		if !f.mayStart(c) || f.opt != nil && !planAllows(f.opt, text, pos) {
			continue
		}
		if it.charge(f) {
			break
		}
		var err error
		it.filter, it.pos, it.groups = f, pos, nil
		if f.lin != nil {
			it.matchLinear(f)
		} else if f.counted != nil {
			it.matchCounted(f)
			if it.over {
				break
			}
		} else {
			err = rule.Regexp.FindRunesMatches(text, pos, it.yield)
		}
		if groups := it.groups; err == nil && groups != nil {
			var named map[string]string
			if it.fl.named {
				named = make(map[string]string, len(f.nums))
				for j, g := range groups {
					named[f.names[j]] = g
				}
			}
			return i, rule, groups, named, it.length
		}
	}
	return 0, &chroma.CompiledRule{}, nil, nil, 0
}

// matchCounted matches rule f by the counted search at it.pos, setting
// it.groups and it.length on success as onMatch does.
func (it *fastIterator) matchCounted(f *ruleFilter) {
	caps := it.caps[:0]
	for range f.counted.groups {
		caps = append(caps, span{0, -1})
	}
	it.caps = caps
	s := search{text: it.state.Text, start: it.pos, caps: caps, it: it}
	if !s.match(f.counted, it.pos) {
		return
	}
	it.setGroups(f, caps)
}

// matchLinear matches linear rule f at it.pos, setting it.groups and
// it.length on success as onMatch does.
func (it *fastIterator) matchLinear(f *ruleFilter) {
	caps := it.caps[:0]
	for range f.lin.groups {
		caps = append(caps, span{0, -1})
	}
	it.caps = caps
	if !f.lin.match(it.state.Text, it.pos, caps) {
		return
	}
	it.setGroups(f, caps)
}

// setGroups sets it.groups and it.length from a match's captures.
func (it *fastIterator) setGroups(f *ruleFilter, caps []span) {
	groups := it.groupSlice(f, len(caps))
	for j, c := range caps {
		if c.end >= 0 {
			groups[j] = it.text(c.start, c.end-c.start)
		}
	}
	it.groups, it.length = groups, caps[0].end-caps[0].start
}

// groupSlice is a slice for n groups of a match of f: the shared one when
// f is eager.
func (it *fastIterator) groupSlice(f *ruleFilter, n int) []string {
	if !f.eager {
		return make([]string, n)
	}
	if cap(it.gbuf) < n {
		it.gbuf = make([]string, n)
	}
	g := it.gbuf[:n]
	clear(g)
	return g
}

// onMatch takes the groups of the first match: Match.Groups' strings.
func (it *fastIterator) onMatch(m regexp2.MatchView) bool {
	at, n, ok := m.GroupRange(0)
	if !ok || at != it.pos {
		return false
	}
	f := it.filter
	groups := it.groupSlice(f, len(f.nums))
	groups[0] = it.text(at, n)
	for j, num := range f.nums[1:] {
		if at, n, ok := m.GroupRange(num); ok {
			groups[j+1] = it.text(at, n)
		}
	}
	it.groups, it.length = groups, n
	return false
}

// matchRule is one step of chroma's matchRules.
func matchRule(rule *chroma.CompiledRule, text []rune, pos int) ([]string, map[string]string, bool) {
	match, err := rule.Regexp.FindRunesMatchStartingAt(text, pos)
	if match != nil && err == nil && match.RuneIndex == pos {
		groups := []string{}
		namedGroups := make(map[string]string)
		for _, g := range match.Groups() {
			namedGroups[g.Name] = g.String()
			groups = append(groups, g.String())
		}
		return groups, namedGroups, true
	}
	return nil, nil, false
}

// namesUnread reports whether emitter e and mutator m are known not to read
// LexerState.NamedGroups: token types, ByGroups, Using, UsingSelf,
// UsingByGroup, Push, Pop and lists of these. Anything else (EmitterFunc,
// MutatorFunc, as ByGroupNames and a few Go-written lexers use) may.
func namesUnread(e chroma.Emitter, m chroma.Mutator) bool {
	switch e := e.(type) {
	case nil, chroma.TokenType:
	case chroma.EmitterFunc:
		// UsingLexer's emitter (the Go lexer's raw strings) ignores the
		// state. Inlined, its closure is named after the caller too
		// (chroma/v2/lexers.goRules.UsingLexer.func1).
		f := runtime.FuncForPC(reflect.ValueOf(e).Pointer())
		if f == nil || !strings.HasPrefix(f.Name(), "github.com/alecthomas/chroma/v2") || !strings.HasSuffix(f.Name(), ".UsingLexer.func1") {
			return false
		}
	case chroma.SerialisableEmitter:
		switch e.EmitterKind() {
		case "using", "usingself":
		case "bygroups", "usingbygroup":
			subs, ok := field[chroma.Emitters](e, "Emitters")
			if !ok {
				return false
			}
			for _, sub := range subs {
				if !namesUnread(sub, nil) {
					return false
				}
			}
		default:
			return false
		}
	default:
		return false
	}
	switch m := m.(type) {
	case nil:
	case chroma.SerialisableMutator:
		switch m.MutatorKind() {
		case "push", "pop":
		case "mutators":
			subs, ok := field[[]chroma.Mutator](m, "Mutators")
			if !ok {
				return false
			}
			for _, sub := range subs {
				if !namesUnread(nil, sub) {
					return false
				}
			}
		default:
			return false
		}
	default:
		return false
	}
	return true
}

// field reads the exported field name of the struct x points to.
func field[T any](x any, name string) (T, bool) {
	var zero T
	v := reflect.ValueOf(x)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return zero, false
	}
	f := v.Elem().FieldByName(name)
	if !f.IsValid() || !f.CanInterface() {
		return zero, false
	}
	t, ok := f.Interface().(T)
	return t, ok
}

// searchPlan is regexp2's search plan for pattern when it can rule out a
// start position by itself, else nil.
func searchPlan(pattern string) *syntax.FindOptimizations {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil || tree.FindOptimizations == nil {
		return nil
	}
	o := tree.FindOptimizations
	prepareSets(planSets(o))
	if o.LeadingAnchor == syntax.NtBol || o.LeadingAnchor == syntax.NtBeginning {
		return o
	}
	switch o.FindMode {
	case syntax.LeadingString_LeftToRight, syntax.LeadingStrings_LeftToRight,
		syntax.FixedDistanceChar_LeftToRight, syntax.FixedDistanceString_LeftToRight,
		syntax.FixedDistanceSets_LeftToRight, syntax.LeadingSet_LeftToRight:
		return o
	}
	if o.MinRequiredLength > 1 {
		return o
	}
	return nil
}

// planAllows reports whether a match of the plan's pattern may start at
// pos: the leading anchor, and the tests regexp2's unanchored search
// applies to a candidate start (runner.go: hasRequiredLengthAt,
// findLeadingString(s)LeftToRight, fixedDistanceSetsMatchAt).
func planAllows(o *syntax.FindOptimizations, text []rune, pos int) bool {
	if o.MinRequiredLength > 0 && len(text)-pos < o.MinRequiredLength {
		return false
	}
	switch o.LeadingAnchor {
	case syntax.NtBol: // ^ in multiline mode
		if pos > 0 && text[pos-1] != '\n' {
			return false
		}
	case syntax.NtBeginning:
		if pos > 0 {
			return false
		}
	}
	switch o.FindMode {
	case syntax.LeadingString_LeftToRight:
		return hasRunePrefix(text[pos:], o.LeadingPrefixRunes)
	case syntax.LeadingStrings_LeftToRight:
		for _, p := range o.LeadingPrefixesRunes {
			if hasRunePrefix(text[pos:], p) {
				return true
			}
		}
		return len(o.LeadingPrefixesRunes) == 0
	case syntax.FixedDistanceChar_LeftToRight:
		i := pos + o.FixedDistanceLiteral.Distance
		return i < len(text) && text[i] == o.FixedDistanceLiteral.C
	case syntax.FixedDistanceString_LeftToRight:
		i := pos + o.FixedDistanceLiteral.Distance
		return i <= len(text) && hasRunePrefix(text[i:], o.FixedDistanceLiteral.Runes)
	case syntax.FixedDistanceSets_LeftToRight, syntax.LeadingSet_LeftToRight:
		for _, set := range o.FixedDistanceSets {
			i := pos + set.Distance
			if i < 0 || i >= len(text) || !inFixedDistanceSet(set, text[i]) {
				return false
			}
		}
	}
	return true
}

func hasRunePrefix(s, prefix []rune) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i, r := range prefix {
		if s[i] != r {
			return false
		}
	}
	return true
}

// inFixedDistanceSet is regexp2's charInFixedDistanceSet.
func inFixedDistanceSet(set syntax.FixedDistanceSet, ch rune) bool {
	if len(set.Chars) > 5 && set.Set != nil {
		return set.Set.Contains(ch)
	}
	if len(set.Chars) > 0 {
		found := slices.Contains(set.Chars, ch)
		return found != set.Negated
	}
	if set.Range != nil {
		found := ch >= set.Range.First && ch <= set.Range.Last
		return found != set.Negated
	}
	return set.Set != nil && set.Set.Contains(ch)
}

// DefaultMaxLexWork is the lexer's step budget for one input (see charge
// and search.step). The real excerpts of internal/corpus, 40 lines of real
// code, take a few thousand steps (a few hundred thousand at most); inputs
// that need more than the budget are printed as plain text.
const DefaultMaxLexWork = 1 << 24

// charge counts one run of rule f at the current position and reports
// whether the budget is spent. A linear rule's run is one step. A regexp2
// run is one step plus the runes it may read: to the end of the line for a
// rule that cannot read a newline, else to the end of the text (a rule
// that backtracks, Java's method declaration rule on a page of words and
// no parenthesis, say, reads to the end at every position). That is the
// cost we can count without a clock; it depends only on the input, so the
// output does too.
func (it *fastIterator) charge(f *ruleFilter) bool {
	it.work++
	if f.lin == nil && f.counted == nil {
		text, pos := it.state.Text, it.state.Pos
		if !f.oneLine {
			it.work += len(text) - pos
		} else {
			if it.eol < pos {
				it.eol = pos
				for it.eol < len(text) && text[it.eol] != '\n' {
					it.eol++
				}
			}
			it.work += it.eol - pos
		}
	}
	if it.work > it.limit {
		it.over = true
	}
	return it.over
}

// withinLine reports whether no match of pattern can read a newline: no
// part of it matches one, and it has no backreference.
func withinLine(pattern string) bool {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	return err == nil && tree.Root != nil && !readsNewline(tree.Root)
}

func readsNewline(n *syntax.RegexNode) bool {
	switch n.T {
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		if n.Ch == '\n' {
			return true
		}
	case syntax.NtNotone, syntax.NtNotoneloop, syntax.NtNotonelazy, syntax.NtNotoneloopatomic:
		if n.Ch != '\n' {
			return true
		}
	case syntax.NtSet, syntax.NtSetloop, syntax.NtSetlazy, syntax.NtSetloopatomic:
		if n.Set == nil || n.Set.Contains('\n') {
			return true
		}
	case syntax.NtMulti:
		if slices.Contains(n.Str, '\n') {
			return true
		}
	case syntax.NtRef, syntax.NtBackRefCond, syntax.NtExprCond, syntax.NtUnknown:
		return true
	}
	return slices.ContainsFunc(n.Children, readsNewline)
}

// usesLexerFunc reports whether emitter e holds a UsingLexer emitter, whose
// lexer is out of sight.
func usesLexerFunc(e chroma.Emitter) bool {
	switch e := e.(type) {
	case chroma.EmitterFunc:
		f := runtime.FuncForPC(reflect.ValueOf(e).Pointer())
		return f != nil && strings.HasSuffix(f.Name(), ".UsingLexer.func1")
	case chroma.SerialisableEmitter:
		if subs, ok := field[chroma.Emitters](e, "Emitters"); ok {
			return slices.ContainsFunc(subs, usesLexerFunc)
		}
	}
	return false
}
