package export

import (
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/pattern"
)

// The Go twin of a pasted error's search (engine.js search with
// o.paste): the records whose pattern keys the paste holds, tried with
// their patterns (generator/pattern's matcher on the patterns the export
// compiles), and the text results whose whole message the paste holds,
// ordered as engine.js patternMatches orders them; then the most-words
// query (ModeMost, bleve); then, when nothing was found, the any-word
// query. TestPasteParity holds engine.js to it.

// maxPasteChars is engine.js's cut of a paste (raw.slice(0, 20000)), in
// UTF-16 code units; maxPatternCandidates its MAX_PATTERN_CANDIDATES;
// minHeldWords its MIN_HELD_WORDS.
const (
	maxPasteChars        = 20000
	maxPatternCandidates = 400
	minHeldWords         = 3
)

// pasteTwin is what the twin knows of an exported index, by doc number.
type pasteTwin struct {
	ix   *index.Index
	m    mapping.IndexMapping
	ids  []string
	num  map[string]int
	data []index.DocData
	res  []*regexp.Regexp // usable patterns (Compile accepted them), as pattern.MatchRegexp runs them
	pin  []int            // specificity: the program's pin (its literals' length in an older export)
	form []string         // "p" and the program's JSON: records of one spelling of an error
	keys map[string][][]any
	// keyless are the records whose usable pattern has no pattern key (no
	// word every match holds): only the text results find them
	keyless []int
	stats   pasteStats
}

// pasteStats counts what the parity test's pastes exercised.
type pasteStats struct {
	overCap, held, severalExact, anyWords int
	// liftTyped, liftPaste: queries of fewer than six typed words, and
	// pastes (or six typed words or more), the lift marked a result of (liftReordered: and changed their order); stopWord: typed
	// queries whose last stop word was left out
	liftTyped, liftPaste, liftReordered, stopWord int
}

// newPasteTwin numbers ix's records as the export does (sort key, id) and
// compiles their patterns and pattern keys as the export does.
func newPasteTwin(ix *index.Index) (*pasteTwin, error) {
	b := ix.Bleve()
	n, err := b.DocCount()
	if err != nil {
		return nil, err
	}
	res, err := b.Search(bleve.NewSearchRequestOptions(query.NewMatchAllQuery(), int(n), 0, false))
	if err != nil {
		return nil, err
	}
	refs := make([]docRef, len(res.Hits))
	for i, h := range res.Hits {
		sk, _ := ix.SortKeyOf(h.ID)
		refs[i] = docRef{id: h.ID, sortKey: sk}
	}
	sortDocs(refs)
	m := b.Mapping()
	tw := &pasteTwin{ix: ix, m: m, num: map[string]int{}}
	pk := newPatternKeys(m.AnalyzerNamed(index.AnalyzerIdent))
	for i, r := range refs {
		d, err := ix.DocData(r.id)
		if err != nil {
			return nil, err
		}
		d.Title, d.Language, d.ErrorClass = jsonString(d.Title), jsonString(d.Language), jsonString(d.ErrorClass)
		tw.ids, tw.num[r.id] = append(tw.ids, r.id), i
		tw.data = append(tw.data, d)
		re, pin, form := compiledPattern(d.Pattern)
		tw.res, tw.pin, tw.form = append(tw.res, re), append(tw.pin, pin), append(tw.form, form)
		if re != nil {
			ws := pk.wordsOf(d.Pattern, pattern.RequiredLiterals)
			pk.add(i, ws)
			if len(ws) == 0 {
				tw.keyless = append(tw.keyless, i)
			}
		}
	}
	tw.keys = pk.entries()
	return tw, nil
}

// compiledPattern is expr as the export ships it (pattern.Compile, the
// export's hook): the matcher, engine.js specificity and the program's
// JSON; nil when expr is empty or unusable.
func compiledPattern(expr string) (*regexp.Regexp, int, string) {
	if expr == "" {
		return nil, 0, ""
	}
	prog, err := pattern.Compile(expr)
	if err != nil || !json.Valid(prog) {
		return nil, 0, ""
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, 0, ""
	}
	var p pattern.Program
	if err := json.Unmarshal(prog, &p); err != nil {
		return nil, 0, ""
	}
	pin := p.Pin
	if pin == 0 {
		for _, l := range append(p.Lits, p.ILits...) {
			pin += utf16Len(l)
		}
	}
	return re, pin, "p" + string(prog)
}

// pasteResult is one result of the twin.
type pasteResult struct {
	ID    string
	Score float64
	Group string
}

// search is engine.js search(text, {paste: raw, limit: k, filters}) with
// the prefix option on (the page's): its first k results and the count.
func (tw *pasteTwin) search(text, raw string, filters map[string][]string, k int) ([]pasteResult, uint64, error) {
	if et := errorText(raw); et != "" {
		text = et
	}
	filter, err := tw.filterSet(filters)
	if err != nil {
		return nil, 0, err
	}
	head, total, err := search(tw.ix, text, QueryOptions{Mode: ModeMost, Prefix: true, Filters: filters}, k)
	if err != nil {
		return nil, 0, err
	}
	var out []pasteResult
	seen := map[string]bool{}
	for _, h := range tw.patternMatches(raw, filter, head) {
		if len(out) < k {
			seen[tw.ids[h]] = true
			out = append(out, pasteResult{ID: tw.ids[h], Group: "pattern"})
		}
	}
	out = mergeHits(out, seen, head, "most", k)
	if len(out) == 0 {
		tw.stats.anyWords++
		some, _, err := search(tw.ix, text, QueryOptions{Mode: ModeAny, Prefix: true, Filters: filters}, k)
		if err != nil {
			return nil, 0, err
		}
		out = mergeHits(out, seen, some, "some", k)
	}
	if q, err := BuildQuery(tw.m, text, QueryOptions{Mode: ModeMost, Prefix: true}); err != nil || q == nil && len(out) == 0 {
		if err != nil || filter == nil {
			return nil, 0, err
		}
		// no searchable word: the filter's records in doc number order
		all, n, err := search(tw.ix, "", QueryOptions{Filters: filters}, k)
		return mergeHits(nil, seen, all, "all", k), n, err
	}
	return out, total, nil
}

func mergeHits(out []pasteResult, seen map[string]bool, hits []Hit, group string, k int) []pasteResult {
	for _, h := range hits {
		if len(out) < k && !seen[h.ID] {
			seen[h.ID] = true
			out = append(out, pasteResult{ID: h.ID, Score: h.Score, Group: group})
		}
	}
	return out
}

// filterSet is the doc numbers filters accept, or nil without filters.
func (tw *pasteTwin) filterSet(filters map[string][]string) (map[int]bool, error) {
	fq, err := filterQuery(filters)
	if err != nil || fq == nil {
		return nil, err
	}
	res, err := tw.ix.Bleve().Search(bleve.NewSearchRequestOptions(fq, len(tw.ids), 0, false))
	if err != nil {
		return nil, err
	}
	set := map[int]bool{}
	for _, h := range res.Hits {
		set[tw.num[h.ID]] = true
	}
	return set, nil
}

// pasteHitOrder is one record a paste names exactly, with what orders it.
type pasteHitOrder struct {
	doc, pinned, lang, shared, rank int
	cls                             int
	msg                             string
	fit                             float64
	form                            string
}

// patternMatches is engine.js patternMatches: the pattern candidates whose
// pattern matches raw and the text results (head) whose whole message raw
// holds, in its order.
func (tw *pasteTwin) patternMatches(raw string, filter map[int]bool, head []Hit) []int {
	cut := utf16Prefix(raw, maxPasteChars)
	words := map[string]bool{}
	for _, w := range Analyze(tw.m, index.AnalyzerIdent, cut) {
		words[jsonString(w)] = true
	}
	flat, langs := squash(cut), pasteLanguages(raw)
	rank := map[int]int{}
	for i, h := range head {
		rank[tw.num[h.ID]] = i
	}
	var hits []pasteHitOrder
	seen := map[int]bool{}
	add := func(n, spec int) {
		d := &tw.data[n]
		held := holdsMessage(flat, d.Title)
		if seen[n] || spec < 0 && !held {
			return
		}
		seen[n] = true
		h := pasteHitOrder{doc: n, pinned: spec, fit: messageFit(tw.m, d.Title, words), rank: math.MaxInt, form: tw.form[n]}
		if held {
			h.pinned = max(spec, utf16Len(squash(d.Title)))
			tw.stats.held++
		}
		if langs[d.Language] {
			h.lang = 1
		}
		h.msg = d.Title
		if spec >= 0 {
			// (engine.js knows a class from the record's program)
			h.cls = classShown(cut, d.ErrorClass)
		}
		if spec < 0 {
			h.form = "m" + d.Title
		}
		if r, ok := rank[n]; ok {
			h.rank = r
		}
		hits = append(hits, h)
	}
	for _, n := range tw.candidates(words, filter) {
		ok := tw.res[n] != nil && pattern.MatchRegexp(tw.res[n], raw)
		if ok {
			add(n, tw.pin[n])
		} else if tw.res[n] == nil {
			add(n, -1)
		}
	}
	for _, h := range head {
		add(tw.num[h.ID], -1)
	}
	sortPasteHits(hits)
	if len(hits) > 1 {
		tw.stats.severalExact++
	}
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.doc
	}
	return out
}

// sortPasteHits orders a paste's exact matches: more pinned text first,
// then the paste's runtime's language, then the record's class shown in
// the paste, then the more records alike in these that share its
// spelling of the error or its message, then the message the paste holds
// most of, then text rank, then doc number.
func sortPasteHits(hits []pasteHitOrder) {
	type like struct {
		lang, cls int
		s, t      string
	}
	forms, msgs, both := map[like]int{}, map[like]int{}, map[like]int{}
	for _, h := range hits {
		forms[like{h.lang, h.cls, h.form, ""}]++
		msgs[like{h.lang, h.cls, "", h.msg}]++
		both[like{h.lang, h.cls, h.form, h.msg}]++
	}
	for i, h := range hits {
		hits[i].shared = forms[like{h.lang, h.cls, h.form, ""}] + msgs[like{h.lang, h.cls, "", h.msg}] - both[like{h.lang, h.cls, h.form, h.msg}]
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		switch {
		case a.pinned != b.pinned:
			return a.pinned > b.pinned
		case a.lang != b.lang:
			return a.lang > b.lang
		case a.cls != b.cls:
			return a.cls > b.cls
		case a.shared != b.shared:
			return a.shared > b.shared
		case a.fit != b.fit:
			return a.fit > b.fit
		case a.rank != b.rank:
			return a.rank < b.rank
		}
		return a.doc < b.doc
	})
}

// candidates is engine.js patternCandidates: the records whose pattern
// key entry names only words of the paste; past the cap, those naming
// more of them; in doc number order.
func (tw *pasteTwin) candidates(words map[string]bool, filter map[int]bool) []int {
	type cand struct{ doc, words int }
	var out []cand
	for w := range words {
		for _, e := range tw.keys[w] {
			doc, others := e[0].(int), e[1].(string)
			if filter != nil && !filter[doc] {
				continue
			}
			var os []string
			if others != "" {
				os = strings.Split(others, " ")
			}
			all := true
			for _, x := range os {
				all = all && words[jsonString(x)]
			}
			if all {
				out = append(out, cand{doc, 1 + len(os)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].words > out[j].words || out[i].words == out[j].words && out[i].doc < out[j].doc
	})
	if len(out) > maxPatternCandidates {
		tw.stats.overCap++
		out = out[:maxPatternCandidates]
	}
	docs := make([]int, len(out))
	for i, c := range out {
		docs[i] = c.doc
	}
	sort.Ints(docs)
	return docs
}

// messageFit is engine.js fit: the share of the message's words (its
// AnalyzerIdent terms) that are words of the paste.
func messageFit(m mapping.IndexMapping, message string, words map[string]bool) float64 {
	ws := Analyze(m, index.AnalyzerIdent, message)
	n := 0
	for _, w := range ws {
		if words[jsonString(w)] {
			n++
		}
	}
	if len(ws) == 0 {
		return 0
	}
	return float64(n) / float64(len(ws))
}

// holdsMessage is engine.js holdsMessage: the paste (squashed) holds the
// message (squashed) of at least minHeldWords words.
func holdsMessage(flat, message string) bool {
	m := squash(message)
	return len(strings.Split(m, " ")) >= minHeldWords && strings.Contains(flat, m)
}

// JavaScript's white space (\s, String.prototype.trim), which differs
// from Go's unicode.IsSpace (U+0085 is none, U+FEFF is one).
const jsSpaces = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var jsSpaceRun = regexp.MustCompile(`[` + jsSpaces + `]+`)

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// squash is engine.js squash: white space runs as one space, trimmed.
func squash(s string) string { return jsTrim(jsSpaceRun.ReplaceAllString(s, " ")) }

// utf16Len is a string's JavaScript length.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// utf16Prefix is s.slice(0, n) in JavaScript (a surrogate pair the cut
// would split is left out whole).
func utf16Prefix(s string, n int) string {
	at := 0
	for i, r := range s {
		if at+utf16.RuneLen(r) > n {
			return s[:i]
		}
		at += utf16.RuneLen(r)
	}
	return s
}

// JavaScript's "." and \S, for the regular expressions below written as
// engine.js writes them.
const (
	jsDot    = `[^\n\r\x{2028}\x{2029}]`
	jsNonSpc = `[^` + jsSpaces + `]`
	jsSpc    = `[` + jsSpaces + `]`
)

func jsRE(expr string) *regexp.Regexp {
	r := strings.NewReplacer(`\S`, jsNonSpc, `\s`, jsSpc, `.*`, jsDot+`*`)
	return regexp.MustCompile(r.Replace(expr))
}

// engine.js DROP_LINE, STACK_START and PREFIX: what errorText leaves out.
var (
	dropLine = []*regexp.Regexp{
		jsRE(`^Traceback \(most recent call last\):?$`),
		jsRE(`^File ".*", line \d+`),
		jsRE(`^at .*(\(.*\)|:\d+)$`),
		jsRE(`^\.\.\. \d+ (more|common frames omitted)$`),
		jsRE(`^thread '.*' panicked at \S+$`),
		jsRE("^note: run with `RUST_BACKTRACE"),
		jsRE(`^terminate called after throwing an instance of '[^']*'$`),
		jsRE(`^\[?[\w.$/-]+\.(go|rs|py|js|ts|java|c|cc|cpp|rb):\d+(:\d+)?\]?( \+0x[0-9a-f]+)?$`),
	}
	stackStart = []*regexp.Regexp{
		jsRE(`^goroutine \d+ \[[^\]]*\]:$`), jsRE(`^stack backtrace:$`),
		jsRE(`^[Ss][Tt][Aa][Cc][Kk] [Tt][Rr][Aa][Cc][Ee]:$`), // /i, ASCII only as JavaScript folds it
	}
	pastePrefix = jsRE(`^(panic: |Uncaught (\(in promise\) )?|Exception in thread "[^"]*" |Caused by: |what\(\):\s*|fatal error: )`)
	pythonHead  = regexp.MustCompile(`^Traceback \(most recent call last\)`)
	lineBreak   = regexp.MustCompile(`\r?\n`)
)

func anyMatch(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// errorText is engine.js errorText: the words of a paste's error lines,
// each once (case aside).
func errorText(raw string) string {
	var out []string
	python := false
	for _, line := range lineBreak.Split(utf16Prefix(raw, maxPasteChars), -1) {
		t := jsTrim(line)
		if t == "" {
			continue
		}
		if anyMatch(stackStart, t) {
			break
		}
		if pythonHead.MatchString(t) {
			python = true
		}
		if r, _ := utf8.DecodeRuneInString(line); python && isJSSpace(r) {
			continue
		}
		if anyMatch(dropLine, t) {
			continue
		}
		if loc := pastePrefix.FindStringIndex(t); loc != nil {
			t = t[loc[1]:]
		}
		out = append(out, t)
	}
	seen := map[string]bool{}
	var ws []string
	for _, w := range jsSpaceRun.Split(strings.Join(out, " "), -1) {
		k := strings.ToLower(w)
		if w != "" && !seen[k] {
			seen[k] = true
			ws = append(ws, w)
		}
	}
	return strings.Join(ws, " ")
}

// engine.js RUNTIMES: the languages whose runtime prints an error as a
// paste shows it.
var runtimes = []struct {
	re    *regexp.Regexp
	langs []string
}{
	{jsRE(`(?m)^panic: |^goroutine \d+ \[`), []string{"Go"}},
	{jsRE(`(?m)^Traceback \(most recent call last\)|^\s*File "[^"]*", line \d+`), []string{"Python"}},
	{jsRE(`(?m)^thread '[^']*' panicked at `), []string{"Rust"}},
	{jsRE(`(?m)^Exception in thread "|^\s*at [\w.$]+\([\w$]+\.(java|kt|scala):\d+\)`), []string{"Java", "Kotlin", "Scala"}},
	{jsRE(`(?m)^terminate called after throwing an instance of `), []string{"C++"}},
	{jsRE(`(?m)^Uncaught |^\s*at .*\.(m?js|cjs|ts|tsx|jsx):\d+:\d+\)?$`), []string{"JavaScript", "TypeScript"}},
}

// pasteLanguages is engine.js pasteLanguages. JavaScript's multiline ^
// and $ also stand at U+2028 and U+2029, which Go's stand at as "\n".
func pasteLanguages(raw string) map[string]bool {
	text := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n").Replace(utf16Prefix(raw, maxPasteChars))
	out := map[string]bool{}
	for _, rt := range runtimes {
		if rt.re.MatchString(text) {
			for _, l := range rt.langs {
				out[l] = true
			}
		}
	}
	return out
}

// classShown is engine.js classShown: 1 when the record's class (or its
// part after the last "." or ":") stands in the paste as a runtime prints
// it, before ": " and after no word character.
func classShown(raw, class string) int {
	if class == "" {
		return 0
	}
	names := []string{class}
	if i := strings.LastIndexAny(class, ".:"); i >= 0 && i+1 < len(class) {
		names = append(names, class[i+1:])
	}
	for _, c := range names {
		for at := 0; ; {
			i := strings.Index(raw[at:], c+": ")
			if i < 0 {
				break
			}
			i += at
			if i == 0 || !isWordByte(raw[i-1]) {
				return 1
			}
			at = i + 1
		}
	}
	return 0
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// pageQuery is one query as the search page (ui.js run) sends it to
// engine.js search: text is the query (the box's text), raw the paste
// (lines kept) when paste is set; patterns is ui.js's "looks pasted"
// (three words or more, or a paste), paste its "as a paste" (a paste, or
// six typed words or more, whose raw is then the typed text).
type pageQuery struct {
	text, raw       string
	paste, patterns bool
	filters         map[string][]string
	limit           int
}

// jsOpts is the options object ui.js passes for q.
func (q pageQuery) jsOpts() map[string]interface{} {
	o := map[string]interface{}{"limit": q.limit, "offset": 0, "patterns": q.patterns}
	if q.paste {
		o["paste"] = q.raw
	}
	o["filters"] = map[string][]string{}
	if q.filters != nil {
		o["filters"] = q.filters
	}
	return o
}

// page is engine.js search for a query of the page: the paste's search
// or the typed query's (all words, then some, then fuzzy), then, with
// patterns, the lift.
func (tw *pasteTwin) page(q pageQuery) ([]pasteResult, uint64, error) {
	var out []pasteResult
	var total uint64
	var err error
	if q.paste {
		out, total, err = tw.search(q.text, q.raw, q.filters, q.limit)
	} else {
		out, total, err = tw.typed(q.text, q.filters, q.limit)
	}
	if err != nil || !q.patterns {
		return out, total, err
	}
	matched := q.text
	if q.paste {
		matched = q.raw
	}
	lifted := tw.lift(out, matched)
	if lifted > 0 && q.paste {
		tw.stats.liftPaste++
	} else if lifted > 0 {
		tw.stats.liftTyped++
	}
	return out, total, nil
}

// typed is engine.js search(text, {limit: k, filters}) for a typed
// query (no paste, no mode): the all-words results (typedOrder; a last
// word that is a whole stop word is left out when the all-words query
// with it as a prefix finds nothing), then while fewer than k the
// any-word results, then the fuzzy ones; with no searchable word, the
// filter's records in doc number order.
func (tw *pasteTwin) typed(text string, filters map[string][]string, k int) ([]pasteResult, uint64, error) {
	all := QueryOptions{Mode: ModeAll, Prefix: true, Filters: filters}
	head, total, err := tw.words(text, all, k)
	if err == nil && total == 0 && endsInStopWord(tw.m, text) {
		tw.stats.stopWord++
		all.Prefix = false
		head, total, err = tw.words(text, all, k)
	}
	if err != nil {
		return nil, 0, err
	}
	seen := map[string]bool{}
	out := mergeHits(nil, seen, head, "all", k)
	for _, fuzzy := range []bool{false, true} {
		if len(out) >= k {
			break
		}
		group := "some"
		if fuzzy {
			group = "fuzzy"
		}
		more, _, err := tw.words(text, QueryOptions{Mode: ModeAny, Prefix: true, Fuzzy: fuzzy, Filters: filters}, k+len(out))
		if err != nil {
			return nil, 0, err
		}
		out = mergeHits(out, seen, more, group, k)
	}
	if q, _ := BuildQuery(tw.m, text, all); q == nil && len(out) == 0 && filters != nil {
		// no searchable word: the filter's records in doc number order
		list, n, err := search(tw.ix, "", QueryOptions{Filters: filters}, k)
		return mergeHits(nil, seen, list, "all", k), n, err
	}
	return out, total, nil
}

// words is search for a query with words: none when text has no
// searchable word (engine.js runQuery answers null; search would list the
// filter's records).
func (tw *pasteTwin) words(text string, o QueryOptions, k int) ([]Hit, uint64, error) {
	q, err := BuildQuery(tw.m, text, o)
	if err != nil || q == nil {
		return nil, 0, err
	}
	return search(tw.ix, text, o, k)
}

// endsInStopWord is engine.js endsInStopWord: the type-ahead word is a
// whole stop word (or a clipped negation).
func endsInStopWord(m mapping.IndexMapping, text string) bool {
	w := LastWord(m, text)
	en := m.AnalyzerNamed(index.AnalyzerEN)
	return w != "" && (len(en.Analyze([]byte(w))) == 0 || clippedNegation(en, w))
}

// lift is engine.js liftMatches: the results whose record's pattern
// matches matched (the query, or the paste as pasted) move to the top as
// exact matches, a stable partition (in place); the paste's own exact
// matches are there already. It says how many it marked.
func (tw *pasteTwin) lift(out []pasteResult, matched string) (lifted int) {
	var hit, rest []pasteResult
	for _, r := range out {
		n := tw.num[r.ID]
		if r.Group != "pattern" && tw.res[n] != nil && pattern.MatchRegexp(tw.res[n], matched) {
			lifted++
			r.Group = "pattern"
		}
		if r.Group == "pattern" {
			hit = append(hit, r)
		} else {
			rest = append(rest, r)
		}
	}
	ordered := append(hit, rest...)
	for i := range out {
		if out[i].ID != ordered[i].ID {
			tw.stats.liftReordered++
			break
		}
	}
	copy(out, ordered)
	return lifted
}
