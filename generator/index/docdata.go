package index

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
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

// recordHash is the content hash of a record for this mapping version:
// every field of the record in turn, each string length-prefixed, so that
// two records share a hash only when they share every field. (Hashing
// json.Marshal's bytes instead cost a cold build more than the hash.)
func recordHash(r *record.Record) [16]byte {
	bp := hashBuffers.Get().(*[]byte)
	b := append((*bp)[:0], MappingVersion...)
	b = append(b, 0)
	for _, s := range [...]string{r.ID, r.Repo, r.Slug, r.ErrorCode, r.ErrorMessage, r.MessagePattern,
		r.ErrorType, r.ErrorClass, r.Severity, r.FilePath, r.SourceCode, r.GithubURL, r.Documentation,
		r.TriggerScenarios, r.CommonSituations, r.ExampleFix, r.HandlingStrategy, r.ValidationCode,
		r.TypeGuard, r.TryCatchPattern, r.BackgroundTag, r.AnalyzedSha, r.AnalyzedAt} {
		b = appendHashString(b, s)
	}
	for _, n := range [...]int{r.HTTPStatus, r.LineNumber, r.SourceCodeStart, r.SourceCodeEnd, r.SchemaVersion} {
		b = binary.AppendVarint(b, int64(n))
	}
	for _, list := range [...][]string{r.Solutions, r.PreventionTips, r.Tags} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, s := range list {
			b = appendHashString(b, s)
		}
	}
	sum := sha256.Sum256(b)
	*bp = b
	hashBuffers.Put(bp)
	return [16]byte(sum[:16])
}

func appendHashString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// hashBuffers hold the bytes recordHash hashes, used again record after
// record.
var hashBuffers = sync.Pool{New: func() any { return new([]byte) }}

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
	var seen wordSet
	var buf [identTextBytes]byte
	return string(appendIdentifierText(buf[:0], &seen, code, minLen))
}

// identTextBytes is the room for an identifier text in its builder's
// frame: enough for an excerpt's, which then costs no allocation but the
// result.
const identTextBytes = 512

// appendIdentifierText appends to out the words of IdentifierText(code,
// minLen) that seen does not hold yet, and adds them to seen.
func appendIdentifierText(out []byte, seen *wordSet, code string, minLen int) []byte {
	walkIdentifiers(code, minLen, func(w string) bool {
		if seen.add(w) {
			if len(out) > 0 {
				out = append(out, ' ')
			}
			out = append(out, w...)
		}
		return true
	})
	return out
}

// wordSet is a set of words. An excerpt's identifier text holds few
// distinct words, which a scan of an array finds faster than a map, and
// without allocating when the set stays in its caller's frame; past
// wordSetScan words it moves them to a map so that long inputs stay
// linear.
type wordSet struct {
	n    int // words in list
	list [wordSetScan]string
	m    map[string]struct{}
}

const wordSetScan = 64

// add adds w and reports whether it was new.
func (s *wordSet) add(w string) bool {
	if s.m != nil {
		if _, ok := s.m[w]; ok {
			return false
		}
		s.m[w] = struct{}{}
		return true
	}
	if slices.Contains(s.list[:s.n], w) {
		return false
	}
	if s.n == len(s.list) {
		s.m = make(map[string]struct{}, 2*len(s.list))
		for _, x := range s.list {
			s.m[x] = struct{}{}
		}
		s.m[w] = struct{}{}
		return true
	}
	s.list[s.n] = w
	s.n++
	return true
}

// walkIdentifiers calls yield with each word of IdentifierText(code,
// minLen) in order, repeats included (callers drop them: who keeps only
// some words needs to track only those), until yield returns false.
func walkIdentifiers(code string, minLen int, yield func(string) bool) {
	// Walk dotted chains of identifiers: a.b.C
	for i := runOf(code, false); i < len(code); i += runOf(code[i:], false) {
		chain, dotted := identChain(code[i:])
		i += len(chain)
		if dotted && atLeastRunes(chain, minLen) && !yield(chain) {
			return
		}
		for rest := chain; ; {
			p, after, more := strings.Cut(rest, ".")
			if !walkPart(p, minLen, yield) {
				return
			}
			if !more {
				break
			}
			rest = after
		}
	}
}

// identChain is the chain of identifiers at the start of s: identifier
// runs joined by single dots. dotted reports whether it has more than one.
func identChain(s string) (chain string, dotted bool) {
	i := runOf(s, true)
	for i+1 < len(s) && s[i] == '.' {
		n := runOf(s[i+1:], true)
		if n == 0 {
			break
		}
		i += 1 + n
		dotted = true
	}
	return s[:i], dotted
}

// walkPart yields one component of a chain and its camelCase and
// snake_case parts, and reports whether to go on.
func walkPart(p string, minLen int, yield func(string) bool) bool {
	p = trimUnderscoreDollar(p)
	if p == "" || !atLeastRunes(p, minLen) || isCommonKeyword(p) || allDigits(p) {
		return true
	}
	if !yield(p) {
		return false
	}
	var buf [8]string
	subs := splitIdentifier(buf[:0], p)
	if len(subs) < 2 {
		return true
	}
	for _, s := range subs {
		if atLeastRunes(s, 2) && !yield(s) {
			return false
		}
	}
	return true
}

// runOf is the length in bytes of the run of runes at the start of s that
// identifiers hold (a letter, a digit, _ or $) if ident, or do not hold.
// ASCII, most of code, takes a table; an invalid byte is a rune that
// identifiers do not hold.
func runOf(s string, ident bool) int {
	i := 0
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiIdent[c] != ident {
				break
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if (unicode.IsLetter(r) || unicode.IsDigit(r)) != ident {
			break
		}
		i += w
	}
	return i
}

var asciiIdent = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// trimUnderscoreDollar is strings.Trim(s, "_$") without building a cutset.
func trimUnderscoreDollar(s string) string {
	for len(s) > 0 && (s[0] == '_' || s[0] == '$') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == '_' || s[len(s)-1] == '$') {
		s = s[:len(s)-1]
	}
	return s
}

// atLeastRunes reports whether s has n runes or more, counting them only
// when its length in bytes leaves a doubt (a rune takes 1 to UTFMax bytes,
// an invalid byte counts as one rune).
func atLeastRunes(s string, n int) bool {
	switch {
	case len(s) < n:
		return false
	case len(s) >= n*utf8.UTFMax:
		return true
	}
	return utf8.RuneCountInString(s) >= n
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
	var keepBuf [maxSourceIdentifiers]string
	keep := keepBuf[:0]
	// Whether a word is kept depends on the word alone, so dropping the
	// repeats of the kept ones is enough; the walk stops at the last one.
	walkIdentifiers(code, 4, func(w string) bool {
		if !isSourceIdentifier(w) || slices.Contains(keep, w) {
			return true
		}
		keep = append(keep, w)
		return len(keep) < maxSourceIdentifiers
	})
	// IdentifierText(strings.Join(keep, " "), 0), without the join: the
	// spaces end every chain, so each kept word walks alone.
	var seen wordSet
	var buf [identTextBytes]byte
	out := buf[:0]
	for _, w := range keep {
		out = appendIdentifierText(out, &seen, w, 0)
	}
	return string(out)
}

// isSourceIdentifier reports whether SourceIdentifiers keeps a word.
func isSourceIdentifier(w string) bool {
	dot := strings.IndexByte(w, '.')
	if dot < 0 {
		return hasStructure(w)
	}
	// only qualified names ending in a type: pkg.TypeName
	last := w[strings.LastIndexByte(w, '.')+1:]
	r, _ := utf8.DecodeRuneInString(last)
	first := w[:dot]
	return unicode.IsUpper(r) && first != "this" && first != "self"
}

// hasStructure reports whether w has an underscore or a capital.
func hasStructure(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return hasUnderscoreOrUpper(w[i:])
		}
		if c == '_' || 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

func hasUnderscoreOrUpper(w string) bool {
	for _, r := range w {
		if r == '_' || unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// stripCommentsAndStrings blanks line comments (//, #, --), block comments
// and quoted strings. A heuristic over all languages: good enough to keep
// prose out of the identifiers.
func stripCommentsAndStrings(code string) string {
	var out strings.Builder
	out.Grow(len(code)) // what is left is never longer
	for i := 0; i < len(code); {
		// Copy the plain run up to the next byte that may open a comment
		// or a string at once.
		j := i
		for j < len(code) && !stripMark[code[j]] {
			j++
		}
		out.WriteString(code[i:j])
		i = j
		if i == len(code) {
			break
		}
		c := code[i]
		switch {
		case c == '/' && i+1 < len(code) && code[i+1] == '/', c == '#', c == '-' && i+1 < len(code) && code[i+1] == '-' && (i == 0 || code[i-1] == ' ' || code[i-1] == '\n'):
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(code) && code[i+1] == '*':
			j := strings.Index(code[i+2:], "*/")
			if j < 0 {
				i = len(code)
			} else {
				i += j + 4
			}
			out.WriteByte(' ')
		case c == '"' || c == '\'' || c == '`':
			i++
			for i < len(code) && code[i] != c && code[i] != '\n' {
				if code[i] == '\\' {
					i++
				}
				i++
			}
			i++
			out.WriteByte(' ')
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String()
}

// stripMark holds the bytes that may start what stripCommentsAndStrings
// removes.
var stripMark = func() (t [256]bool) {
	for _, c := range []byte("/#-\"'`") {
		t[c] = true
	}
	return t
}()

func allDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// splitIdentifier appends to dst the snake_case and camelCase parts of s:
// "HTTPServerError" → HTTP Server Error; "parse_url2" → parse url2. The
// parts are substrings of s, which is made of identifier runes, so valid
// UTF-8.
func splitIdentifier(dst []string, s string) []string {
	for s != "" {
		k := 0
		for k < len(s) && s[k] != '_' && s[k] != '$' {
			k++
		}
		if k > 0 {
			dst = splitCamel(dst, s[:k])
		}
		if k == len(s) {
			break
		}
		s = s[k+1:]
	}
	return dst
}

// splitCamel appends the camelCase humps of s, which holds no _ or $.
func splitCamel(dst []string, s string) []string {
	start := 0
	prev, w := letterCaseAt(s)
	for i := w; i < len(s); i += w {
		// ASCII without a call: this loop sees every rune of the words
		var cur letterCase
		cur, w = asciiCase[s[i]], 1
		if cur == multiByte {
			cur, w = runeCase(s[i:])
		}
		if cur == upperCase && (prev == lowerCase || prev == digitCase || prev == upperCase && nextIsLower(s[i+w:])) {
			dst = append(dst, s[start:i])
			start = i
		}
		prev = cur
	}
	return append(dst, s[start:])
}

// nextIsLower reports whether s starts with a lower-case letter.
func nextIsLower(s string) bool {
	if s == "" {
		return false
	}
	c, _ := letterCaseAt(s)
	return c == lowerCase
}

// letterCase is what splitCamel asks of a rune: unicode.IsLower, IsUpper
// or IsDigit (categories Ll, Lu and Nd, so at most one holds).
type letterCase uint8

const (
	otherCase letterCase = iota
	lowerCase
	upperCase
	digitCase
	multiByte // in asciiCase only: the byte starts no ASCII rune
)

// letterCaseAt is the case of the first rune of s and its width.
func letterCaseAt(s string) (letterCase, int) {
	if c := asciiCase[s[0]]; c != multiByte {
		return c, 1
	}
	return runeCase(s)
}

func runeCase(s string) (letterCase, int) {
	r, w := utf8.DecodeRuneInString(s)
	switch {
	case unicode.IsLower(r):
		return lowerCase, w
	case unicode.IsUpper(r):
		return upperCase, w
	case unicode.IsDigit(r):
		return digitCase, w
	}
	return otherCase, w
}

// asciiCase is the case of each ASCII byte; the others are multiByte.
var asciiCase = func() (t [256]letterCase) {
	for c := range t {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = multiByte
		case 'a' <= c && c <= 'z':
			t[c] = lowerCase
		case 'A' <= c && c <= 'Z':
			t[c] = upperCase
		case '0' <= c && c <= '9':
			t[c] = digitCase
		}
	}
	return t
}()

// isCommonKeyword drops language keywords and ubiquitous names that carry no
// meaning for search but would make every excerpt match.
func isCommonKeyword(s string) bool {
	// ASCII words, nearly all, are lowered into a buffer; strings.ToLower
	// would allocate for every word with a capital.
	var low [keywordBytes]byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			// ToLower may make it ASCII (the Kelvin sign lowers to k)
			_, ok := commonKeywords[strings.ToLower(s)]
			return ok
		}
		if i < len(low) {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			low[i] = c
		}
	}
	if s == "" || len(s) > len(low) || !keywordEnds[len(s)].match(low[:len(s)]) {
		return false
	}
	_, ok := commonKeywords[string(low[:len(s)])]
	return ok
}

// keywordBytes bounds the length of a common keyword.
const keywordBytes = 16

// letterSet is a set of the letters a to z.
type letterSet uint32

func (l letterSet) has(c byte) bool { return 'a' <= c && c <= 'z' && l&(1<<(c-'a')) != 0 }

// keywordEnds holds, by length, the first and last letters of the common
// keywords: most words miss them, and then skip hashing.
var keywordEnds = func() (t [keywordBytes + 1]letterEnds) {
	for w := range commonKeywords {
		t[len(w)].first |= 1 << (w[0] - 'a')
		t[len(w)].last |= 1 << (w[len(w)-1] - 'a')
	}
	return t
}()

// letterEnds is the first and last letters of words.
type letterEnds struct{ first, last letterSet }

// match reports whether w may be one of the words.
func (e letterEnds) match(w []byte) bool {
	return e.first.has(w[0]) && e.last.has(w[len(w)-1])
}

var commonKeywords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`and as assert async await break case catch class const continue def default
	del do elif else enum except export extends false final finally fn for from func function go goto if impl
	import in instanceof interface is lambda let match mod mut new nil none not null or package pass pub raise
	return self static struct super switch this throw throws true try type typeof use var void while with yield
	string int bool err error errors fmt args kwargs str len print println printf`) {
		if len(w) > keywordBytes || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			panic("index: common keyword not of at most keywordBytes letters a to z: " + w)
		}
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
