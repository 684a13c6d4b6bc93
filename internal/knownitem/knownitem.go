// Package knownitem makes known-item search queries from error records: the
// queries a person types or pastes when they hold one particular error in
// mind. The known-item benchmark (internal/e2e, BenchmarkKnownItem) runs
// them through the real search page and through Pagefind; the Go benchmark
// of the bleve twin (generator/index) runs them through bleve.
//
// Two kinds:
//   - Keywords: three words of the record's message, in message order, as
//     a person remembers them (no stop words, no numbers, no one-letter
//     words).
//   - Paste: the message as a program prints it, with other values in its
//     variable parts (paths, numbers, names that recur in many other
//     messages), behind the prefix its language's runtime adds
//     ("ValueError: ", "panic: ", a Java or Rust thread header, a C++
//     terminate line), sometimes inside a traceback.
//
// A result is right when its message equals the target's, or its
// messagePattern does (records that share a message, or a message
// template, are the same answer to the person who asks).
package knownitem

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"
)

// Query is one known-item query.
type Query struct {
	Kind   string // "keywords" or "paste"
	Text   string // what is typed, or the paste flattened to one line
	Raw    string // the paste as copied (lines kept); Text for keywords
	Target string // the message of the record sought
	// TargetPattern is its messagePattern: a record with the same
	// pattern is the same error with other values, as right an answer.
	TargetPattern string
	// TargetSkeleton is Skeleton of the target: a record with the same
	// skeleton is the same error as far as its message tells.
	TargetSkeleton string
}

// stop holds the English words people leave out of a remembered message
// (and that an English analyzer drops).
var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by for if in into is it no not of on or such
		that the their then there these they this to was will with has have had been can could
		did does do got get must may should would cannot can't isn't doesn't don't wasn't from
		than too very all any its our your you we i he she them his her out over under up down
		when where which while who why how what only own same so some more most other each few both`) {
		stop[w] = true
	}
}

// IsStopWord reports whether Keywords leaves w (lowercase) out.
func IsStopWord(w string) bool { return stop[w] }

var wordRE = regexp.MustCompile(`[A-Za-z][A-Za-z_]+`)

// Keywords returns three words of msg in message order, or "" when the
// message has fewer than three distinct usable words.
func Keywords(rng *rand.Rand, msg string) string {
	var words []string
	seen := map[string]bool{}
	for _, loc := range wordRE.FindAllStringIndex(msg, -1) {
		// a word glued to other characters (a path, a dotted name, a
		// value) is not one a person would type alone
		if loc[0] > 0 && !isSep(rune(msg[loc[0]-1])) || loc[1] < len(msg) && !isSep(rune(msg[loc[1]])) {
			continue
		}
		w := msg[loc[0]:loc[1]]
		lw := strings.ToLower(w)
		if stop[lw] || seen[lw] || len(w) < 3 {
			continue
		}
		seen[lw] = true
		words = append(words, w)
	}
	if len(words) < 3 {
		return ""
	}
	pick := rng.Perm(len(words))[:3]
	sortInts(pick)
	out := make([]string, 3)
	for i, j := range pick {
		out[i] = strings.ToLower(words[j])
	}
	return strings.Join(out, " ")
}

func isSep(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune(`:;,()[]{}"'!?`, r)
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// values are what fills variable parts in pasted messages: the same few
// values recur in many messages of a real site.
var values = []string{
	"/var/lib/app/data.db", "main", "None", "0", "1", "2", "42", "config.yaml",
	"user_id", "http://localhost:8080/api/v1/items", "default", "tmp", "null",
	"/home/alice/project/src/index.ts", "id", "127.0.0.1:5432", "3", "true", "name",
}

// Paste returns what a person pastes for record r: its message with other
// values in the parts its messagePattern leaves variable (when the
// pattern still matches the result), behind the prefix its runtime adds.
func Paste(rng *rand.Rand, r *record.Record) (raw string) {
	msg := refill(rng, r.ErrorMessage, r.MessagePattern)
	return wrap(rng, r, msg)
}

// refill replaces the spans of msg that the pattern's variable parts
// matched with other values, keeping the result only if the pattern still
// matches it.
func refill(rng *rand.Rand, msg, expr string) string {
	sp := spans(msg, expr)
	if sp == nil {
		return msg
	}
	for try := 0; try < refillTries; try++ {
		var b strings.Builder
		at := 0
		for _, v := range sp {
			b.WriteString(msg[at:v.start])
			b.WriteString(otherValue(rng, msg[v.start:v.end]))
			at = v.end
		}
		b.WriteString(msg[at:])
		out := b.String()
		if ok, err := pattern.Match(expr, out); err == nil && ok && out != msg {
			return out
		}
	}
	return msg
}

// refillTries is how many fillings refill tries before it keeps msg.
const refillTries = 8

// span is a part of a message that its pattern leaves variable.
type span struct{ start, end int }

// spans are the parts of msg its pattern's top-level variable parts
// matched, in order and not overlapping, or nil (variableSpans).
func spans(msg, expr string) []span {
	loc := variableSpans(msg, expr)
	if loc == nil {
		return nil
	}
	var out []span
	at := 0
	for g := 1; 2*g+1 < len(loc); g++ {
		s, e := loc[2*g], loc[2*g+1]
		if s < at || s < 0 {
			continue
		}
		out = append(out, span{s, e})
		at = e
	}
	return out
}

// variableSpans matches msg with expr, each top-level part of expr that
// is not a literal made a capture group: the submatch indexes (as
// regexp's FindStringSubmatchIndex; -1 pairs for the literal parts), or
// nil when expr is empty, not a concatenation, or does not match msg.
func variableSpans(msg, expr string) []int {
	if expr == "" {
		return nil
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat {
		return nil
	}
	for i, sub := range re.Sub {
		switch sub.Op {
		case syntax.OpLiteral, syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
			continue
		}
		re.Sub[i] = &syntax.Regexp{Op: syntax.OpCapture, Sub: []*syntax.Regexp{sub}, Cap: i + 1, Flags: sub.Flags}
	}
	cre, err := regexp.Compile(re.String())
	if err != nil {
		return nil
	}
	return cre.FindStringSubmatchIndex(msg)
}

// Skeleton is what a message says apart from its values: its words
// (lowercase letters) outside the spans its messagePattern leaves
// variable, each such span one "*". Two records with the same skeleton
// raise the same error with other values ("segment * not found"); from
// the message alone a person cannot tell which of them they hold, so
// the benchmark counts either as the answer.
func Skeleton(msg, expr string) string {
	var parts []string
	words := func(s string) {
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
			parts = append(parts, w)
		}
	}
	loc := variableSpans(msg, expr)
	at := 0
	for g := 1; 2*g+1 < len(loc); g++ {
		st, e := loc[2*g], loc[2*g+1]
		if st < at || st < 0 {
			continue
		}
		words(msg[at:st])
		parts = append(parts, "*")
		at = e
	}
	words(msg[at:])
	return strings.Join(parts, " ")
}

func otherValue(rng *rand.Rand, old string) string {
	c := choices(old)
	return c[rng.IntN(len(c))]
}

var numbers = []string{"0", "1", "3", "17", "256", "8080"}

// choices are the values otherValue puts in place of old, each as likely.
func choices(old string) []string {
	if old != "" && strings.Trim(old, "0123456789") == "" {
		return numbers
	}
	return values
}

// wrap puts msg where its runtime prints it.
func wrap(rng *rand.Rand, r *record.Record, msg string) string {
	fs := forms(r)
	f := fs[0]
	if len(fs) > 1 && rng.IntN(len(fs)) != 0 {
		f = fs[1]
	}
	return f.before + msg + f.after
}

// form is one way a runtime prints a message: before + message + after,
// chosen with probability p.
type form struct {
	before, after string
	p             float64
}

// forms are the ways r's runtime prints its message (wrap picks one).
func forms(r *record.Record) []form {
	class := r.ErrorClass
	if class == "" {
		class = "Error"
	}
	lang := strings.ToLower(record.Language(r.FilePath))
	switch {
	case strings.Contains(lang, "python"):
		return []form{
			{"Traceback (most recent call last):\n  File \"/srv/app/main.py\", line 42, in <module>\n    run()\n" + class + ": ", "", 0.5},
			{class + ": ", "", 0.5},
		}
	case lang == "go":
		return []form{{"panic: ", "\n\ngoroutine 1 [running]:\nmain.main()\n\t/srv/app/main.go:12 +0x1d", 1}}
	case strings.Contains(lang, "rust"):
		return []form{{"thread 'main' panicked at src/main.rs:12:5:\n", "", 1}}
	case strings.Contains(lang, "java") && !strings.Contains(lang, "script"):
		return []form{{"Exception in thread \"main\" " + class + ": ", "\n\tat com.example.App.main(App.java:14)", 1}}
	case strings.Contains(lang, "c++"), lang == "cpp":
		return []form{{"terminate called after throwing an instance of 'std::runtime_error'\n  what():  ", "", 1}}
	case strings.Contains(lang, "script"):
		return []form{{"Uncaught " + class + ": ", "", 1}}
	}
	return []form{{"Error: ", "", 1}}
}

// Flatten is what a one-line search box holds after a paste: lines joined
// with spaces.
func Flatten(raw string) string {
	return strings.Join(strings.Fields(raw), " ")
}

// Make returns n keyword and n paste queries for records chosen at random
// (seeded) among recs.
func Make(recs []record.Record, n int, seed uint64) []Query {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var qs []Query
	kw, ps := 0, 0
	for guard := 0; (kw < n || ps < n) && guard < 100*n; guard++ {
		r := &recs[rng.IntN(len(recs))]
		if kw < n {
			if q := Keywords(rng, r.ErrorMessage); q != "" {
				qs = append(qs, Query{Kind: "keywords", Text: q, Raw: q, Target: r.ErrorMessage, TargetPattern: r.MessagePattern,
					TargetSkeleton: Skeleton(r.ErrorMessage, r.MessagePattern)})
				kw++
			}
		}
		if ps < n {
			raw := Paste(rng, r)
			qs = append(qs, Query{Kind: "paste", Text: Flatten(raw), Raw: raw, Target: r.ErrorMessage, TargetPattern: r.MessagePattern,
				TargetSkeleton: Skeleton(r.ErrorMessage, r.MessagePattern)})
			ps++
		}
	}
	return qs
}
