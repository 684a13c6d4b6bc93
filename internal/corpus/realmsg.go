package corpus

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// realMessages holds error messages raised in public repositories (Python,
// Go, JavaScript, TypeScript, Rust, Java, C++), with the source's
// placeholders as written, made by ./extractmessages. Generated messages
// come from a few hundred templates that share their words by
// construction; real ones are what users search for.
//
//go:embed testdata/realmessages.jsonl.gz
var realMessages []byte

// realMessage is one line of testdata/realmessages.jsonl.gz.
type realMessage struct {
	Repo    string `json:"repo"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Lang    string `json:"lang"`
	Message string `json:"message"`
}

// UseRealMessages makes the records' messages real: each record takes one
// of the real messages of its language (chosen by the record's random
// stream, so the dataset stays deterministic), its placeholders filled
// with values as generated messages' are, and its messagePattern the
// message with each placeholder's value generalised (a placeholder's kind
// read from its verb or its variable's name). Every other field is made
// as for a generated message.
func (d *Dataset) UseRealMessages() error {
	pool := map[string][]*parsedTemplate{}
	err := readJSONL(realMessages, func(n int, m realMessage) {
		if t := realTemplate(m, len(templates)+n); t != nil {
			pool[m.Lang] = append(pool[m.Lang], t)
		}
	})
	if err != nil {
		return fmt.Errorf("corpus: real messages: %w", err)
	}
	for _, l := range langs {
		if len(pool[l.code]) == 0 {
			return fmt.Errorf("corpus: real messages: none of language %s", l.code)
		}
	}
	d.realMsgs = pool
	return nil
}

// placeholderRE finds a source placeholder: %% and {{ }} (escaped
// literals), printf verbs (%s %-8d %.2f %(name)s %+v), ${expr}, and {…}
// (Python/Rust/C++ format fields, SLF4J's {}, f-string expressions, and the
// {name} extractmessages writes for a concatenated variable).
var placeholderRE = regexp.MustCompile(`%%|\{\{|\}\}|%(?:\([\w.]+\))?[-+# 0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[sdvqxXfgeiuwTtcrbo]|\$\{[^{}]{0,80}\}|\{[^{}]{0,80}\}`)

// realTemplate parses m into a template whose variable parts are its
// placeholders, or nil when nothing of it is literal text.
func realTemplate(m realMessage, idx int) *parsedTemplate {
	t := &parsedTemplate{idx: idx, types: []string{"exception"}}
	t.msg, t.sev, t.langs = m.Message, "error", m.Lang
	if m.Lang == langGo || m.Lang == langRs || m.Lang == langCpp {
		t.types = []string{"exception", "error_code"}
	}
	msg := m.Message
	last := 0
	add := func(lit string) {
		if n := len(t.parts); n > 0 && t.parts[n-1].kind == "" {
			t.parts[n-1].lit += lit
			return
		}
		if lit != "" {
			t.parts = append(t.parts, tpart{lit: lit})
		}
	}
	for _, loc := range placeholderRE.FindAllStringIndex(msg, -1) {
		add(msg[last:loc[0]])
		last = loc[1]
		ph := msg[loc[0]:loc[1]]
		switch {
		case ph == "%%":
			add("%")
		case ph == "{{" || ph == "}}":
			add(ph[:1])
		case !placeholderIn(ph, m.Lang):
			add(ph)
		case strings.HasSuffix(ph, "q") && ph[0] == '%':
			add(`"`)
			t.parts = append(t.parts, tpart{kind: "qname"})
			add(`"`)
		default:
			t.parts = append(t.parts, tpart{kind: placeholderKind(ph, loc[1] == len(msg), msg[:loc[0]])})
		}
	}
	add(msg[last:])
	literal := false
	for _, p := range t.parts {
		literal = literal || strings.IndexFunc(p.lit, unicode.IsLetter) >= 0
	}
	if !literal {
		return nil
	}
	t.fam = familyOf(msg)
	t.code = errnoCode.FindString(msg)
	return t
}

// placeholderIn says whether ph is a placeholder in lang's source: printf
// verbs where the language formats them, ${} in JavaScript and TypeScript,
// braces where the language's formatting or extractmessages writes them
// (in Go only {ident}, so "interface {}" stays text).
func placeholderIn(ph, lang string) bool {
	switch {
	case ph[0] == '%':
		return lang != langRs
	case ph[0] == '$':
		return lang == langJS || lang == langTS
	case lang == langGo:
		return identOnly.MatchString(ph[1 : len(ph)-1])
	case lang == langJS || lang == langTS:
		return false
	}
	return true
}

var (
	identOnly = regexp.MustCompile(`^[A-Za-z_]\w*$`)
	nameWords = regexp.MustCompile(`[A-Z]?[a-z]+|[A-Z]+`) // filePath: file, Path
	lastIdent = regexp.MustCompile(`[A-Za-z_]\w*`)
)

// placeholderKind is the kind of value a placeholder holds: from a printf
// verb, else from its variable's name, else from where it stands (last,
// after ": ", it is usually an error).
func placeholderKind(ph string, atEnd bool, before string) string {
	name := ""
	if ph[0] == '{' || ph[0] == '$' {
		expr := strings.Trim(ph, "${}")
		expr, _, _ = strings.Cut(expr, ":")
		expr, _, _ = strings.Cut(expr, "!")
		if ids := lastIdent.FindAllString(expr, -1); len(ids) > 0 {
			name = ids[len(ids)-1]
		}
	} else if i := strings.IndexByte(ph, '('); i >= 0 {
		name = ph[i+1 : strings.IndexByte(ph, ')')]
	}
	if k := kindOfName(name); k != "" {
		return k
	}
	if ph[0] == '%' {
		switch ph[len(ph)-1] {
		case 'd', 'i', 'u':
			return "n"
		case 'x', 'X':
			return "hex"
		case 'f', 'g', 'e':
			return "secs"
		case 'T':
			return "type"
		case 'w':
			return "err"
		}
	}
	if atEnd && strings.HasSuffix(before, ": ") {
		return "err"
	}
	if strings.Contains(ph, ":?") {
		return "word"
	}
	return "name"
}

// nameKinds maps words of a variable's name to the kind of its value,
// the first that the name holds winning.
var nameKinds = []struct{ words, kind string }{
	{"path file filename dir directory folder", "path"},
	{"url uri endpoint href", "url"},
	{"host hostname addr address authority", "host"},
	{"port", "port"},
	{"version ver", "version"},
	{"type class kind cls typ", "type"},
	{"count size len length num limit max min index idx line col column offset n i pos position width depth", "n"},
	{"err error ex exc exception cause reason msg message e", "err"},
	{"method verb", "method"},
	{"module package pkg import dep dependency crate", "module"},
	{"env", "env"},
	{"user username", "user"},
	{"state status phase", "state"},
	{"time date timestamp deadline", "time"},
	{"timeout duration elapsed delay interval", "dur"},
	{"value val v", "word"},
}

// kindOfName reads a variable's name (getName is "name", beanName
// "bean name") into a kind, or "" when it tells nothing.
func kindOfName(name string) string {
	ws := nameWords.FindAllString(strings.TrimPrefix(name, "get"), -1)
	for _, nk := range nameKinds {
		for _, k := range strings.Fields(nk.words) {
			for _, w := range ws {
				if strings.EqualFold(w, k) {
					return nk.kind
				}
			}
		}
	}
	return ""
}

// familyRules give a real message an error family by its words, so its
// record's documentation, tags and fixes speak of that kind of error.
var familyRules = []struct {
	re  *regexp.Regexp
	tag string
}{
	{regexp.MustCompile(`(?i)time(d)? ?out|deadline`), "timeout"},
	{regexp.MustCompile(`(?i)permission|denied|forbidden|not allowed`), "permission-denied"},
	{regexp.MustCompile(`(?i)not (be )?implemented`), "not-implemented"},
	{regexp.MustCompile(`(?i)not supported|unsupported|cannot be used`), "unsupported-operation"},
	{regexp.MustCompile(`(?i)no such file|file .*not (be )?found`), "file-not-found"},
	{regexp.MustCompile(`(?i)not found|no such|does not exist|unknown|missing`), "not-found"},
	{regexp.MustCompile(`(?i)pars(e|ing)|syntax|unexpected (token|end|char)|malformed`), "parse-error"},
	{regexp.MustCompile(`(?i)\b(null|nil|none|undefined)\b`), "null-reference"},
	{regexp.MustCompile(`(?i)out of (range|bounds)|\bindex\b`), "index-out-of-range"},
	{regexp.MustCompile(`(?i)already|duplicate`), "duplicate-key"},
	{regexp.MustCompile(`(?i)clos(ed|ing)`), "stream-closed"},
	{regexp.MustCompile(`(?i)connect|connection`), "connection-refused"},
	{regexp.MustCompile(`(?i)overflow`), "integer-overflow"},
	{regexp.MustCompile(`(?i)certificate|tls|ssl`), "tls-handshake-failed"},
	{regexp.MustCompile(`(?i)encod|decod|utf-?8`), "encoding-error"},
	{regexp.MustCompile(`(?i)serializ|marshal|json`), "serialization-error"},
	{regexp.MustCompile(`(?i)required|must (be )?(set|provided|specified)`), "missing-field"},
	{regexp.MustCompile(`(?i)circular|cycle`), "circular-dependency"},
	{regexp.MustCompile(`(?i)cancel`), "context-canceled"},
	{regexp.MustCompile(`(?i)auth`), "authentication-failed"},
	{regexp.MustCompile(`(?i)\btype\b|expected .* got`), "type-mismatch"},
	{regexp.MustCompile(`(?i)state|not started|not initiali`), "invalid-state"},
	{regexp.MustCompile(`(?i)invalid|must|cannot|expected`), "invalid-argument"},
}

func familyOf(msg string) *family {
	for _, r := range familyRules {
		if r.re.MatchString(msg) {
			for i := range families {
				if families[i].tag == r.tag {
					return &families[i]
				}
			}
		}
	}
	return nil
}

// UseMessages chooses the records' messages by name: "" or "generated"
// (the templates), "real" (UseRealMessages). The known-item benchmarks
// take the name from ERRDOCS_KNOWN_MESSAGES.
func (d *Dataset) UseMessages(kind string) error {
	switch kind {
	case "", "generated":
		return nil
	case "real":
		return d.UseRealMessages()
	}
	return fmt.Errorf("corpus: messages %q: want generated or real", kind)
}
