// Package pattern compiles a record's messagePattern into a small program
// that static/search/pattern.js runs in the browser in time linear in the
// pasted text, so that "paste an error" can find the record whose pattern
// matches a message carrying the reader's own values.
//
// messagePattern is untrusted and was written for no particular regex
// engine. It must never reach a backtracking engine in the browser (a
// pattern like `(a+)+$` would hang the tab) nor be turned into code, so the
// browser gets no pattern text at all: Compile parses it with Go's
// regexp/syntax (RE2 semantics, Perl flags), compiles it to a syntax.Prog,
// and encodes that program's instructions as JSON for a Pike VM.
// Constructs RE2 cannot run in linear time (backreferences, lookaround,
// possessive quantifiers, atomic groups) are rejected with a reason, as are
// programs over MaxInst instructions; the build reports those and their
// records fall back to text search.
//
// # Matching semantics
//
// A pasted text matches a pattern when the pattern is found (unanchored
// search, as regexp.MatchString) in one of the text's segments:
//
//   - line ends are normalised first ("\r\n" and "\r" become "\n");
//   - a text longer than MaxInput code points is cut to its first and last
//     MaxInput/2 code points, treated as two separate texts (a Go panic
//     prints its message first, a Python traceback last);
//   - each such text, trimmed of white space, is a segment, and so is each
//     of its lines, trimmed, when it has more than one;
//   - so is the rest of each line after each of its first MaxPrefixes
//     ": " (a class or log prefix), trimmed, when not empty.
//
// Unanchored search forgives what people paste around a message ("ERROR:",
// a timestamp, a traceback); matching single lines as well lets a pattern
// written as `^ValueError: ...$` find its line inside a pasted traceback,
// and the rest after a prefix lets `^value \d+ out of range$` find
// "ValueError: value 3 out of range".
// Case is as written: a pattern may carry (?i). Match is the reference
// implementation of these semantics in Go; the tests hold pattern.js to it.
//
// # Program encoding
//
// Compile returns {"v":1,"prog":[...],"lits":[...],"ilits":[...],"pin":n}.
// prog is a list of nodes that expand, in order, into instructions numbered
// from 0; execution starts at instruction 0. A node is one of
//
//	"text"               one instruction per code point, each matching that
//	                     code point exactly and going on to the next instruction
//	[1, lo, hi, ...]     match a code point in one of the inclusive ranges; next
//	[2, out, lo, hi, ...] the same, going on to instruction out
//	[3, x, y]            fork: go on to both x and y
//	[4, flags]           empty-width assertion (syntax.EmptyOp bits); next
//	[5, flags, out]      the same, going on to out
//	[6]                  match
//	[7]                  fail
//	[8, out]             jump to out
//
// Case folding is expanded into ranges here, so the client needs no Unicode
// tables. lits are literals every match contains, as written; ilits are
// literals every match contains ignoring ASCII case (lowercased): the client
// skips the VM when one is missing from the text. pin is the code points
// of all required literals together (uncut): how much of a paste the
// pattern fixes, which orders several patterns that match one paste.
package pattern

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	// MaxInst bounds the size of a program: the VM's work per input code
	// point grows with it, and the program travels with each result's data.
	MaxInst = 2000
	// MaxPattern bounds the pattern text, so parsing stays cheap on absurd
	// input before the instruction cap can apply.
	MaxPattern = 4000
	// MaxInput is the longest pasted text matched whole, in code points
	// (pattern.js uses the same figure).
	MaxInput = 10000
	// MaxPrefixes is how many prefixes ending in ": " a line's message may
	// stand behind (pattern.js uses the same figure).
	MaxPrefixes = 3
	// maxLits is how many required literals a program carries (the longest
	// are the most selective), and maxLitBytes how long each may be: any
	// part of a required literal is required too, and a short part filters
	// nearly as well as the whole while the program stays small.
	maxLits     = 2
	maxLitBytes = 16
)

// Error says why a pattern cannot be used for paste matching.
type Error struct {
	Pattern string
	Reason  string
}

func (e *Error) Error() string {
	p := e.Pattern
	if utf8.RuneCountInString(p) > 80 {
		p = string([]rune(p)[:80]) + "…"
	}
	return fmt.Sprintf("messagePattern %q: %s", p, e.Reason)
}

// Parse parses expr the way Compile does and returns the simplified tree.
func Parse(expr string) (*syntax.Regexp, error) {
	if expr == "" {
		return nil, &Error{expr, "empty pattern"}
	}
	if len(expr) > MaxPattern {
		return nil, &Error{expr, fmt.Sprintf("pattern is %d bytes, over the limit of %d", len(expr), MaxPattern)}
	}
	if !utf8.ValidString(expr) {
		return nil, &Error{expr, "pattern is not valid UTF-8"}
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, &Error{expr, explain(expr, err)}
	}
	return re.Simplify(), nil
}

// explain turns a regexp/syntax error into a reason a reader of the build
// report understands: which construct, and why it is refused.
func explain(expr string, err error) string {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	const linear = "which a linear-time matcher cannot run"
	switch {
	case strings.HasPrefix(se.Expr, "(?=") || strings.HasPrefix(se.Expr, "(?!"):
		return fmt.Sprintf("uses a lookahead %s, %s", "`"+se.Expr+"`", linear)
	case strings.HasPrefix(se.Expr, "(?<=") || strings.HasPrefix(se.Expr, "(?<!"):
		return fmt.Sprintf("uses a lookbehind %s, %s", "`"+se.Expr+"`", linear)
	case strings.HasPrefix(se.Expr, "(?>"):
		return fmt.Sprintf("uses an atomic group %s, %s", "`"+se.Expr+"`", linear)
	case se.Code == syntax.ErrInvalidEscape && len(se.Expr) == 2 && se.Expr[1] >= '1' && se.Expr[1] <= '9',
		se.Code == syntax.ErrInvalidEscape && strings.HasPrefix(se.Expr, `\k`):
		return fmt.Sprintf("uses a backreference %s, %s", "`"+se.Expr+"`", linear)
	case se.Code == syntax.ErrInvalidRepeatOp && (strings.HasSuffix(se.Expr, "++") || strings.HasSuffix(se.Expr, "*+") ||
		strings.HasSuffix(se.Expr, "?+") || strings.HasSuffix(se.Expr, "}+")):
		return fmt.Sprintf("uses a possessive quantifier %s, which RE2 does not support", "`"+se.Expr+"`")
	case se.Code == syntax.ErrInvalidRepeatSize:
		return fmt.Sprintf("repeat count too large in %s (RE2 allows at most 1000)", "`"+se.Expr+"`")
	case se.Code == syntax.ErrNestingDepth || se.Code == syntax.ErrLarge:
		return "pattern is too large or too deeply nested"
	}
	return "RE2 cannot parse it: " + se.Error()
}

// Compile turns expr into the JSON program described in the package
// comment, or says why it cannot.
func Compile(expr string) (json.RawMessage, error) {
	p, err := compile(expr)
	if err != nil {
		return nil, err
	}
	return json.Marshal(p)
}

// Program is the decoded form of Compile's output.
type Program struct {
	V     int      `json:"v"`
	Prog  []any    `json:"prog"`
	Lits  []string `json:"lits,omitempty"`
	ILits []string `json:"ilits,omitempty"`
	// Pin is how many code points of every match are fixed text: the
	// required literals' whole length (Lits and ILits are cut). Of two
	// patterns that match a paste, the one that pins more of it is the
	// more specific answer.
	Pin int `json:"pin,omitempty"`
	// N is the instruction count after expansion (not encoded: the client
	// recomputes it).
	N int `json:"-"`
}

func compile(expr string) (*Program, error) {
	re, err := Parse(expr)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(re)
	if err != nil {
		return nil, &Error{expr, "RE2 cannot compile it: " + err.Error()}
	}
	insts, err := lower(prog)
	if err != nil {
		return nil, &Error{expr, err.Error()}
	}
	// A pattern that matches the empty text is found in every pasted text,
	// so it would mark any query's candidates as exact matches.
	if matchesEmpty(insts) {
		return nil, &Error{expr, "matches the empty text, so it would match anything pasted"}
	}
	p := &Program{V: 1, N: len(insts), Prog: encode(insts)}
	p.Lits, p.ILits = literals(re)
	var pieces []piece
	required(re, &pieces)
	for _, pc := range pieces {
		p.Pin += utf8.RuneCountInString(pc.s)
	}
	return p, nil
}

// RequiredLiterals returns the literal pieces every match of expr must
// contain, whole (Program.Lits keeps only the longest few, cut short):
// the search export indexes the words inside them, so that the client
// tries a pattern against a paste only when the paste holds all of them,
// whatever the paste's text ranking. Case-insensitive pieces come
// lowercased. It parses only: callers use it on patterns Compile accepted.
func RequiredLiterals(expr string) ([]string, error) {
	re, err := Parse(expr)
	if err != nil {
		return nil, err
	}
	var pieces []piece
	required(re, &pieces)
	out := make([]string, 0, len(pieces))
	for _, p := range pieces {
		if p.fold {
			out = append(out, strings.ToLower(p.s))
		} else {
			out = append(out, p.s)
		}
	}
	return out, nil
}

// inst is one instruction of the lowered program: captures and no-ops are
// gone, case folding is expanded, and out/arg are indexes into the lowered
// list.
type inst struct {
	op     byte // opRune, opAlt, opEmpty, opMatch, opFail
	out    int
	arg    int    // second branch of opAlt
	empty  uint8  // opEmpty flags
	ranges []rune // opRune: inclusive lo, hi pairs
}

const (
	opRune = iota + 1
	opAlt
	opEmpty
	opMatch
	opFail
)

// lower rewrites a syntax.Prog: it skips captures and no-ops (the matcher
// only answers yes or no), expands case folding and any-rune instructions
// into explicit ranges, and lays instructions out from Start so that most go
// on to the next one, which lets encode leave out their targets.
func lower(prog *syntax.Prog) ([]inst, error) {
	// skip follows captures and no-ops to the first real instruction. A
	// cycle of no-ops cannot occur in a compiled program, but untrusted
	// input earns a bound anyway.
	skip := func(pc uint32) uint32 {
		for n := 0; n <= len(prog.Inst); n++ {
			switch prog.Inst[pc].Op {
			case syntax.InstCapture, syntax.InstNop:
				pc = prog.Inst[pc].Out
			default:
				return pc
			}
		}
		return 0 // instruction 0 of a syntax.Prog is always Fail
	}
	// order maps a syntax pc to its lowered index + 1 (0: not laid out).
	order := make([]int, len(prog.Inst))
	var list []uint32
	// Lay out traces: follow each instruction's main out while it is new,
	// and queue the other branches of forks.
	pending := []uint32{skip(uint32(prog.Start))}
	for len(pending) > 0 {
		pc := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		for {
			if order[pc] != 0 {
				break
			}
			list = append(list, pc)
			order[pc] = len(list)
			if len(list) > MaxInst {
				return nil, fmt.Errorf("program has more than %d instructions", MaxInst)
			}
			in := &prog.Inst[pc]
			switch in.Op {
			case syntax.InstAlt, syntax.InstAltMatch:
				pending = append(pending, skip(in.Arg))
				pc = skip(in.Out)
			case syntax.InstMatch, syntax.InstFail:
				pc = ^uint32(0)
			default:
				pc = skip(in.Out)
			}
			if pc == ^uint32(0) {
				break
			}
		}
	}
	at := func(pc uint32) int { return order[skip(pc)] - 1 }
	out := make([]inst, len(list))
	for i, pc := range list {
		in := &prog.Inst[pc]
		var n inst
		switch in.Op {
		case syntax.InstMatch:
			n.op = opMatch
		case syntax.InstFail:
			n.op = opFail
		case syntax.InstAlt, syntax.InstAltMatch:
			n.op, n.out, n.arg = opAlt, at(in.Out), at(in.Arg)
		case syntax.InstEmptyWidth:
			n.op, n.out, n.empty = opEmpty, at(in.Out), uint8(in.Arg)
		case syntax.InstRune, syntax.InstRune1:
			n.op, n.out = opRune, at(in.Out)
			n.ranges = runeRanges(in)
		case syntax.InstRuneAny:
			n.op, n.out, n.ranges = opRune, at(in.Out), []rune{0, unicode.MaxRune}
		case syntax.InstRuneAnyNotNL:
			n.op, n.out, n.ranges = opRune, at(in.Out), []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune}
		default:
			return nil, fmt.Errorf("unexpected instruction %v", in.Op)
		}
		out[i] = n
	}
	return out, nil
}

// matchesEmpty reports whether the program matches the empty text: whether
// a match is reachable from the start without consuming a code point,
// under the assertions true in an empty text.
func matchesEmpty(insts []inst) bool {
	const flags = uint8(syntax.EmptyBeginLine | syntax.EmptyEndLine | syntax.EmptyBeginText |
		syntax.EmptyEndText | syntax.EmptyNoWordBoundary)
	seen := make([]bool, len(insts))
	stack := []int{0}
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if pc < 0 || pc >= len(insts) || seen[pc] {
			continue
		}
		seen[pc] = true
		switch in := insts[pc]; in.op {
		case opMatch:
			return true
		case opAlt:
			stack = append(stack, in.out, in.arg)
		case opEmpty:
			if in.empty&^flags == 0 {
				stack = append(stack, in.out)
			}
		}
	}
	return false
}

// runeRanges gives the ranges a rune instruction accepts, with case folding
// of a single folded rune expanded to its whole orbit (syntax keeps the
// FoldCase flag only on one-rune instructions; classes are already folded
// by the parser).
func runeRanges(in *syntax.Inst) []rune {
	r := in.Rune
	if len(r) == 1 && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
		orbit := []rune{r[0]}
		for f := unicode.SimpleFold(r[0]); f != r[0]; f = unicode.SimpleFold(f) {
			orbit = append(orbit, f)
		}
		sort.Slice(orbit, func(i, j int) bool { return orbit[i] < orbit[j] })
		var rs []rune
		for _, c := range orbit {
			if n := len(rs); n > 0 && rs[n-1]+1 == c {
				rs[n-1] = c
				continue
			}
			rs = append(rs, c, c)
		}
		return rs
	}
	if len(r) == 1 {
		return []rune{r[0], r[0]}
	}
	return append([]rune(nil), r...)
}

// encode writes the lowered instructions as the JSON node list: runs of
// single-code-point instructions that fall through become strings, and a
// target equal to the next instruction is left out.
func encode(insts []inst) []any {
	var nodes []any
	var run []rune
	flush := func() {
		if len(run) > 0 {
			nodes = append(nodes, string(run))
			run = run[:0]
		}
	}
	for i, in := range insts {
		next := in.out == i+1
		switch in.op {
		case opRune:
			// Only code points that survive a round trip through a JSON
			// string (no surrogate halves) can ride in a text node.
			if next && len(in.ranges) == 2 && in.ranges[0] == in.ranges[1] && utf8.ValidRune(in.ranges[0]) {
				run = append(run, in.ranges[0])
				continue
			}
			flush()
			var node []int
			if next {
				node = []int{1}
			} else {
				node = []int{2, in.out}
			}
			for _, r := range in.ranges {
				node = append(node, int(r))
			}
			nodes = append(nodes, node)
		case opAlt:
			flush()
			nodes = append(nodes, []int{3, in.out, in.arg})
		case opEmpty:
			flush()
			if next {
				nodes = append(nodes, []int{4, int(in.empty)})
			} else {
				nodes = append(nodes, []int{5, int(in.empty), in.out})
			}
		case opMatch:
			flush()
			nodes = append(nodes, []int{6})
		case opFail:
			flush()
			nodes = append(nodes, []int{7})
		}
	}
	flush()
	return nodes
}

// literals returns the longest literals every match must contain: lits as
// written, ilits case-insensitive (ASCII only, lowercased).
func literals(re *syntax.Regexp) (lits, ilits []string) {
	var pieces []piece
	required(re, &pieces)
	seen := map[piece]bool{}
	for _, p := range pieces {
		if !p.fold {
			if len(p.s) >= 2 && !seen[p] {
				seen[p] = true
				lits = append(lits, p.s)
			}
			continue
		}
		// A case-insensitive literal can only be checked with plain
		// lowercasing where every code point's fold orbit is its ASCII
		// upper and lower case: not k and s (K is folded with the Kelvin
		// sign, s with the long s), nor non-ASCII. Keep the pieces between.
		for _, s := range strings.FieldsFunc(strings.ToLower(p.s), func(r rune) bool {
			return r >= utf8.RuneSelf || r == 'k' || r == 's'
		}) {
			q := piece{s, true}
			if len(s) >= 2 && !seen[q] {
				seen[q] = true
				ilits = append(ilits, s)
			}
		}
	}
	longest := func(l []string) []string {
		sort.SliceStable(l, func(i, j int) bool { return len(l[i]) > len(l[j]) })
		if len(l) > maxLits {
			l = l[:maxLits]
		}
		for i, s := range l {
			if len(s) > maxLitBytes {
				n := maxLitBytes
				for n > 0 && !utf8.RuneStart(s[n]) {
					n--
				}
				l[i] = s[:n]
			}
		}
		return l
	}
	return longest(lits), longest(ilits)
}

type piece struct {
	s    string
	fold bool
}

// exact returns the one string re matches and whether it is case-folded,
// or ok false when re matches more than one string.
func exact(re *syntax.Regexp) (s string, fold, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune), re.Flags&syntax.FoldCase != 0, true
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpConcat:
		var b strings.Builder
		for i, sub := range re.Sub {
			t, f, ok := exact(sub)
			if !ok || (i > 0 && f != fold) {
				return "", false, false
			}
			fold = f
			b.WriteString(t)
		}
		return b.String(), fold, true
	}
	return "", false, false
}

// required appends the literals that every string re matches contains.
func required(re *syntax.Regexp, out *[]piece) {
	switch re.Op {
	case syntax.OpLiteral:
		*out = append(*out, piece{string(re.Rune), re.Flags&syntax.FoldCase != 0})
	case syntax.OpCapture, syntax.OpPlus:
		required(re.Sub[0], out)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			required(re.Sub[0], out)
		}
	case syntax.OpConcat:
		// Adjacent exact parts join into one longer literal.
		var run strings.Builder
		var runFold bool
		flush := func() {
			if run.Len() > 0 {
				*out = append(*out, piece{run.String(), runFold})
				run.Reset()
			}
		}
		for _, sub := range re.Sub {
			if s, f, ok := exact(sub); ok {
				if run.Len() > 0 && f != runFold {
					flush()
				}
				runFold = f
				run.WriteString(s)
				continue
			}
			flush()
			required(sub, out)
		}
		flush()
	}
}

// Segments splits a pasted text into the texts a pattern is searched in
// (see the package comment).
func Segments(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	parts := []string{text}
	if utf8.RuneCountInString(text) > MaxInput {
		r := []rune(text)
		parts = []string{string(r[:MaxInput/2]), string(r[len(r)-MaxInput/2:])}
	}
	var segs []string
	for _, p := range parts {
		whole := strings.TrimSpace(p)
		segs = append(segs, whole)
		if !strings.Contains(p, "\n") {
			segs = append(segs, afterPrefixes(whole)...)
			continue
		}
		for _, line := range strings.Split(p, "\n") {
			line = strings.TrimSpace(line)
			segs = append(segs, line)
			segs = append(segs, afterPrefixes(line)...)
		}
	}
	return segs
}

// afterPrefixes are the rest of a line after each of its first
// MaxPrefixes ": ", trimmed: a runtime or a logger prints a message behind
// a class or a label ("ValueError: ", "Uncaught TypeError: ", "ERROR
// main: "), and a pattern anchored at the message's start (^) matches the
// message there.
func afterPrefixes(line string) []string {
	var out []string
	at := 0
	for k := 0; k < MaxPrefixes; k++ {
		i := strings.Index(line[at:], ": ")
		if i < 0 {
			break
		}
		at += i + 2
		if rest := strings.TrimSpace(line[at:]); rest != "" {
			out = append(out, rest)
		}
	}
	return out
}

// Match reports whether a pasted text matches expr under the semantics
// pattern.js implements. It is the reference for tests and lets the build
// check that a record's pattern matches its own message.
func Match(expr, text string) (bool, error) {
	if _, err := Parse(expr); err != nil {
		return false, err
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return false, &Error{expr, err.Error()}
	}
	return MatchRegexp(re, text), nil
}

// MatchRegexp is Match with the pattern already compiled.
func MatchRegexp(re *regexp.Regexp, text string) bool {
	for _, s := range Segments(text) {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
