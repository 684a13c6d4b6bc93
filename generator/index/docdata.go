package index

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/cachefile"
)

// DocData is what the export writes for one record: what a result shows,
// plus the raw messagePattern that Export hands to the Pattern hook. It is
// kept in the side store, not in bleve, so that export reads it without
// bleve's stored-field decoding.
type DocData struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	URL        string   `json:"url"`
	Repo       string   `json:"repo"`
	Severity   string   `json:"severity"`
	ErrorType  string   `json:"errorType"`
	Language   string   `json:"language,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	ErrorClass string   `json:"errorClass,omitempty"`
	ErrorCode  string   `json:"errorCode,omitempty"`
	Snippet    string   `json:"snippet,omitempty"`
	Pattern    string   `json:"-"` // messagePattern, compiled at export
	SortKey    string   `json:"-"`
}

// snippetRunes bounds the snippet length.
const snippetRunes = 160

// titleRunes bounds the title; messages are usually short, but untrusted.
const titleRunes = 300

// BuildDoc derives the bleve document, the doc data and the content hash of
// one record. The hash covers everything that reaches the index or the
// export, plus the mapping version.
func BuildDoc(r *record.Record) (map[string]interface{}, DocData) {
	doc := map[string]interface{}{
		"errorMessage":  r.ErrorMessage,
		"documentation": r.Documentation,
		"repo":          r.Repo,
	}
	if r.ErrorCode != "" {
		doc["errorCode"] = r.ErrorCode
	}
	if r.ErrorClass != "" {
		doc["errorClass"] = IdentifierText(r.ErrorClass, 0)
	}
	if len(r.Tags) > 0 {
		doc["tags"] = stringsToAny(r.Tags)
	}
	if r.BackgroundTag != "" {
		doc["backgroundTag"] = r.BackgroundTag
	}
	if len(r.Solutions) > 0 {
		doc["solutions"] = stringsToAny(r.Solutions)
	}
	if len(r.PreventionTips) > 0 {
		doc["preventionTips"] = stringsToAny(r.PreventionTips)
	}
	if r.SourceCode != "" {
		if ids := SourceIdentifiers(r.SourceCode); ids != "" {
			doc["identifiers"] = ids
		}
	}
	lang := record.Language(r.FilePath)
	doc[FilterFieldPrefix+"repo"] = r.Repo
	doc[FilterFieldPrefix+"severity"] = r.Severity
	doc[FilterFieldPrefix+"errorType"] = r.ErrorType
	if len(r.Tags) > 0 {
		doc[FilterFieldPrefix+"tag"] = stringsToAny(r.Tags)
	}
	if lang != "" {
		doc[FilterFieldPrefix+"language"] = lang
	}
	if r.BackgroundTag != "" {
		doc[FilterFieldPrefix+"family"] = r.BackgroundTag
	}
	sk := SortKey(r.BackgroundTag, r.ErrorClass, r.ErrorMessage, r.AnalyzedAt)
	doc[SortKeyField] = sk

	dd := DocData{
		ID:         r.ID,
		Title:      truncateRunes(r.ErrorMessage, titleRunes),
		URL:        r.Path(),
		Repo:       r.Repo,
		Severity:   r.Severity,
		ErrorType:  r.ErrorType,
		Language:   lang,
		Tags:       append([]string(nil), r.Tags...), // callers may reuse the record
		ErrorClass: r.ErrorClass,
		ErrorCode:  r.ErrorCode,
		Snippet:    Snippet(r.Documentation, snippetRunes),
		Pattern:    r.MessagePattern,
		SortKey:    sk,
	}
	return doc, dd
}

// recordHash is the content hash of a record for this mapping version.
func recordHash(r *record.Record) [16]byte {
	h := sha256.New()
	h.Write([]byte(MappingVersion))
	h.Write([]byte{0})
	// The bytes of json.Marshal(r), without its second pass over them
	// (json.Marshal compacts and checks what a Marshaler returns).
	b, err := r.MarshalJSON()
	if err != nil {
		// cannot happen for strings and ints; never skip on doubt
		b = []byte(fmt.Sprintf("%p", r))
	}
	h.Write(b)
	return [16]byte(h.Sum(nil)[:16])
}

// encodeDocData encodes doc data (all but SortKey, which the side entry
// keeps apart) as length-prefixed strings in field order, then the tags.
func encodeDocData(d DocData) []byte {
	fields := [...]string{d.ID, d.Title, d.URL, d.Repo, d.Severity, d.ErrorType, d.Language, d.ErrorClass, d.ErrorCode, d.Snippet, d.Pattern}
	// The exact size: the side store keeps the slice for the whole build,
	// so a capacity made of worst-case varints would stay allocated (a
	// hundred bytes a record).
	n := uvarintLen(uint64(len(d.Tags)))
	for _, f := range fields {
		n += uvarintLen(uint64(len(f))) + len(f)
	}
	for _, t := range d.Tags {
		n += uvarintLen(uint64(len(t))) + len(t)
	}
	b := make([]byte, 0, n)
	for _, f := range fields {
		b = cachefile.AppendString(b, f)
	}
	b = binary.AppendUvarint(b, uint64(len(d.Tags)))
	for _, t := range d.Tags {
		b = cachefile.AppendString(b, t)
	}
	return b
}

// uvarintLen is the length of v as binary.AppendUvarint writes it.
func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// decodeDocData reverses encodeDocData.
func decodeDocData(b []byte) (DocData, error) {
	var d DocData
	r := cachefile.NewReader(b)
	for _, f := range []*string{&d.ID, &d.Title, &d.URL, &d.Repo, &d.Severity, &d.ErrorType, &d.Language, &d.ErrorClass, &d.ErrorCode, &d.Snippet, &d.Pattern} {
		*f = r.String()
	}
	for n := r.Count(); n > 0 && r.Err() == nil; n-- {
		d.Tags = append(d.Tags, r.String())
	}
	if err := r.Done(); err != nil {
		return d, fmt.Errorf("doc data: %w", err)
	}
	return d, nil
}

func stringsToAny(s []string) []interface{} {
	out := make([]interface{}, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// SortKey orders records by error family (backgroundTag; records without
// one last), then error class, then the shape of the message (messageShape:
// its words without the values that vary), then newest analyzedAt first.
// Doc numbers follow this order, so it is the order of filter-only results
// and the tie-break of equal scores. It puts like errors next to each
// other (doc id reordering): the results of a query, which tend to be
// errors of one kind, then share doc data files, and postings gaps are
// small and block maxima telling. Measured on 100,000 generated records
// (BENCHMARKS.md), class and shape after the family cut the bytes of a
// further query by a fifth against family and date alone.
func SortKey(family, class, message, analyzedAt string) string {
	if family == "" {
		family = "~"
	}
	key := family + "|" + cutBytes(class, shapeBytes) + "|" + messageShape(message) + "|"
	t, err := time.Parse(time.RFC3339Nano, analyzedAt)
	if err != nil {
		return key + "z" + analyzedAt // unparsable times sort last
	}
	return key + fmt.Sprintf("%020d", uint64(math.MaxInt64-t.UnixNano()))
}

// shapeBytes bounds the class and message shape in a sort key.
const shapeBytes = 64

// messageShape is what stays of an error message across its occurrences:
// lowercased, each number (digits with inner points or commas) as one #,
// each quoted value ('x', "x" or `x`; a quote opens only after a character
// that is not a letter or digit, so "can't" stays a word) as one quote, cut
// to shapeBytes. "port 8080 in use" and "port 443 in use" have one shape.
func messageShape(m string) string {
	// It reads only as much of m as the shape needs: it runs for every
	// record, and a message may be a long traceback.
	var b strings.Builder
	var quote, prev rune
	for i := 0; i < len(m) && b.Len() < shapeBytes; {
		c, size := utf8.DecodeRuneInString(m[i:])
		c = unicode.ToLower(c)
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
				b.WriteByte('\'')
			}
		case (c == '\'' || c == '"' || c == '`') && !unicode.IsLetter(prev) && !unicode.IsDigit(prev):
			quote = c
		case isDigit(m[i]):
			// a number, with its inner points and commas (1.5, 10,000)
			for i+size < len(m) && (isDigit(m[i+size]) ||
				(m[i+size] == '.' || m[i+size] == ',') && i+size+1 < len(m) && isDigit(m[i+size+1])) {
				size++
			}
			c = rune(m[i+size-1])
			b.WriteByte('#')
		default:
			b.WriteRune(c)
		}
		prev = c
		i += size
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// cutBytes returns s cut to at most n bytes, at a rune boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// IdentifierText turns code or a class name into the text indexed for
// identifiers: each distinct identifier once, followed by its parts when it
// has any (camelCase humps, snake_case words, dotted components), so that
// "NullPointerException", "null pointer" and "java.lang.NullPointerException"
// all find "java.lang.NullPointerException". Identifiers shorter than
// minLen runes are dropped (minLen 0 keeps all). The splitting lives here,
// not in an analyzer, so that the client only has to mirror a plain
// unicode+lowercase analyzer.
func IdentifierText(code string, minLen int) string {
	var out []string
	walkIdentifiers(code, minLen, func(s string) bool {
		out = append(out, s)
		return true
	})
	return strings.Join(out, " ")
}

// walkIdentifiers calls yield with each word of IdentifierText(code,
// minLen) in order, until yield returns false.
func walkIdentifiers(code string, minLen int, yield func(string) bool) {
	seen := map[string]bool{}
	stopped := false
	emit := func(s string) {
		if stopped || s == "" || seen[s] {
			return
		}
		seen[s] = true
		stopped = !yield(s)
	}
	isIdent := func(r rune) bool {
		return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	// Walk dotted chains of identifiers: a.b.C
	i := 0
	for i < len(code) && !stopped {
		r, w := utf8.DecodeRuneInString(code[i:])
		if !isIdent(r) {
			i += w
			continue
		}
		start := i
		var parts []string
		for i < len(code) {
			j := i
			for j < len(code) {
				r2, w2 := utf8.DecodeRuneInString(code[j:])
				if !isIdent(r2) {
					break
				}
				j += w2
			}
			parts = append(parts, code[i:j])
			i = j
			if i+1 < len(code) && code[i] == '.' {
				r3, _ := utf8.DecodeRuneInString(code[i+1:])
				if isIdent(r3) {
					i++
					continue
				}
			}
			break
		}
		chain := code[start:i]
		if len(parts) > 1 && utf8.RuneCountInString(chain) >= minLen {
			emit(chain)
		}
		for _, p := range parts {
			p = strings.Trim(p, "_$")
			if utf8.RuneCountInString(p) < minLen || isCommonKeyword(p) || allDigits(p) {
				continue
			}
			emit(p)
			if subs := splitIdentifier(p); len(subs) > 1 {
				for _, s := range subs {
					if utf8.RuneCountInString(s) >= 2 {
						emit(s)
					}
				}
			}
		}
	}
}

// maxSourceIdentifiers caps the identifiers kept per excerpt: the first
// ones are the most specific (the raise site's function and names).
const maxSourceIdentifiers = 24

// SourceIdentifiers is the identifiers text of a source excerpt: comments
// and string literals removed (their words are prose, already covered by
// the documentation fields, and they would flood the dictionary), then only
// identifiers with structure (camelCase, snake_case, Capitalized, qualified
// class names such as os.PathError) of 4+ runes, each once with its parts,
// at most maxSourceIdentifiers of them. Plain lowercase words (item, res)
// and receiver chains (this.x.y) are left out: they match everything.
func SourceIdentifiers(code string) string {
	code = stripCommentsAndStrings(code)
	var keep []string
	// The words come each once; the walk stops at the last one kept.
	walkIdentifiers(code, 4, func(w string) bool {
		if strings.Contains(w, ".") {
			// only qualified names ending in a type: pkg.TypeName
			last := w[strings.LastIndexByte(w, '.')+1:]
			r, _ := utf8.DecodeRuneInString(last)
			first := w[:strings.IndexByte(w, '.')]
			if !unicode.IsUpper(r) || first == "this" || first == "self" {
				return true
			}
		} else if !hasStructure(w) {
			return true
		}
		keep = append(keep, w)
		return len(keep) < maxSourceIdentifiers
	})
	return IdentifierText(strings.Join(keep, " "), 0)
}

func hasStructure(w string) bool {
	if strings.ContainsRune(w, '_') {
		return true
	}
	for i, r := range w {
		if unicode.IsUpper(r) {
			return true
		}
		_ = i
	}
	return false
}

// stripCommentsAndStrings blanks line comments (//, #, --), block comments
// and quoted strings. A heuristic over all languages: good enough to keep
// prose out of the identifiers.
func stripCommentsAndStrings(code string) string {
	b := []byte(code)
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '/' && i+1 < len(b) && b[i+1] == '/', c == '#', c == '-' && i+1 < len(b) && b[i+1] == '-' && (i == 0 || b[i-1] == ' ' || b[i-1] == '\n'):
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := strings.Index(code[i+2:], "*/")
			if j < 0 {
				i = len(b)
			} else {
				i += j + 4
			}
			out = append(out, ' ')
		case c == '"' || c == '\'' || c == '`':
			i++
			for i < len(b) && b[i] != c && b[i] != '\n' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			i++
			out = append(out, ' ')
		default:
			out = append(out, c)
			i++
		}
	}
	return string(out)
}

func allDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// splitIdentifier splits snake_case and camelCase: "HTTPServerError" →
// HTTP Server Error; "parse_url2" → parse url2.
func splitIdentifier(s string) []string {
	var out []string
	for _, chunk := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '$' }) {
		rs := []rune(chunk)
		start := 0
		for k := 1; k < len(rs); k++ {
			prev, cur := rs[k-1], rs[k]
			boundary := unicode.IsLower(prev) && unicode.IsUpper(cur) ||
				unicode.IsDigit(prev) && unicode.IsUpper(cur) ||
				unicode.IsUpper(prev) && unicode.IsUpper(cur) && k+1 < len(rs) && unicode.IsLower(rs[k+1])
			if boundary {
				out = append(out, string(rs[start:k]))
				start = k
			}
		}
		out = append(out, string(rs[start:]))
	}
	return out
}

// isCommonKeyword drops language keywords and ubiquitous names that carry no
// meaning for search but would make every excerpt match.
func isCommonKeyword(s string) bool {
	_, ok := commonKeywords[strings.ToLower(s)]
	return ok
}

var commonKeywords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`and as assert async await break case catch class const continue def default
	del do elif else enum except export extends false final finally fn for from func function go goto if impl
	import in instanceof interface is lambda let match mod mut new nil none not null or package pass pub raise
	return self static struct super switch this throw throws true try type typeof use var void while with yield
	string int bool err error errors fmt args kwargs str len print println printf`) {
		m[w] = struct{}{}
	}
	return m
}()

// Snippet is a plain-text start of a Markdown text: code, link targets and
// emphasis marks removed, white space collapsed, cut at a word boundary.
func Snippet(md string, max int) string {
	var b strings.Builder
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		t = strings.TrimLeft(t, "#>*-+ ")
		b.WriteString(t)
		b.WriteByte(' ')
	}
	s := b.String()
	// [text](url) → text
	var o strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ']' && i+1 < len(s) && s[i+1] == '(' {
			if j := strings.IndexByte(s[i:], ')'); j > 0 {
				i += j
				continue
			}
		}
		switch c {
		case '[', ']', '`', '*':
			continue
		}
		o.WriteByte(c)
	}
	s = strings.Join(strings.Fields(o.String()), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	rs := []rune(s)[:max]
	cut := len(rs)
	for k := len(rs) - 1; k > max/2; k-- {
		if rs[k] == ' ' {
			cut = k
			break
		}
	}
	return strings.TrimRight(string(rs[:cut]), " ,;:.") + "…"
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
