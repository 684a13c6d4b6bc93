package validate

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/go-json-experiment/json/jsontext"
)

// Set keeps the dataset-wide rules: ids unique over the dataset, slugs
// unique within a repo. Add records in read order, and only records that
// passed Record: then "first" means first in the deterministic read order,
// and a rejected record does not hold an id that a later valid one needs.
// A Set is safe for concurrent use, but concurrent adds make "first"
// depend on timing.
//
// Memory is sized for half a million records: an id is held as 8 bytes, a
// slug as its string (a small allocation of its own, so it pins nothing
// else), and a place as three small integers with file names interned.
type Set struct {
	mu    sync.Mutex
	ids   map[[8]byte]place
	slugs map[string]map[string]place // repo → slug → first place
	// folded maps a repo's case-folded, NFC form to the first repo seen
	// with it (see names.go).
	folded map[string]string
	files  []string
	fileN  map[string]int32
	// repoHint is the size to make a new repo's table of slugs at
	// (ExpectRepo).
	repoHint int
	// The last record's repo with its table of slugs, and its file with
	// its number: records come a file at a time, one repo's, so most
	// records find both without a lookup by name.
	lastRepo  string
	lastSlugs map[string]place
	lastFile  string
	lastFileN int32
}

type place struct {
	file  int32
	index int32
	line  int32
}

// NewSet returns an empty set.
func NewSet() *Set {
	return &Set{ids: map[[8]byte]place{}, slugs: map[string]map[string]place{}, folded: map[string]string{}, fileN: map[string]int32{}}
}

// Grow sizes the table of ids of a Set that has none yet for n records:
// a caller that knows about how many records come spares the copies of
// growing it.
func (s *Set) Grow(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.ids) == 0 {
		s.ids = make(map[[8]byte]place, n)
	}
}

// ExpectRepo says that about n records of one repo come next (a file of
// records, which holds one repo's): a repo first seen now gets a table of
// slugs of that size instead of one grown record by record.
func (s *Set) ExpectRepo(n int) {
	s.mu.Lock()
	s.repoHint = max(0, min(n, maxRepoHint))
	s.mu.Unlock()
}

// maxRepoHint bounds ExpectRepo's hint: a wrong one costs only memory.
const maxRepoHint = 1 << 16

// Add records rec, read from src, and returns a problem for each rule it
// breaks: an id seen before, or a slug seen before in the same repo. The
// rule names where the first one was read. A record with problems is not
// added, so that it cannot shadow a later record.
func (s *Set) Add(src record.Source, rec *record.Record) []Problem {
	var key [8]byte
	idOK := ID(rec.ID)
	if idOK {
		hex.Decode(key[:], []byte(rec.ID))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ps []Problem
	if idOK {
		if first, ok := s.ids[key]; ok {
			ps = append(ps, Problem{"id", "already used by " + s.where(first)})
		}
	}
	// A repo that has slugs was judged when its first record was added:
	// its name passed the rules then, which depend on nothing else.
	bySlug := s.lastSlugs
	if bySlug == nil || rec.Repo != s.lastRepo {
		bySlug = s.slugs[rec.Repo]
	}
	folded := ""
	if bySlug == nil {
		ps = append(ps, repoPathProblems(rec.Repo)...)
		folded = foldedRepo(rec.Repo)
		if other, ok := s.folded[folded]; ok && other != rec.Repo {
			ps = append(ps, Problem{"repo", fmt.Sprintf("%.80q and %.80q are one folder on file systems that ignore case or Unicode normalisation (macOS, Windows); the first seen is kept", other, rec.Repo)})
		}
	}
	if first, ok := bySlug[rec.Slug]; ok {
		ps = append(ps, Problem{"slug", "already used in " + rec.Repo + " by " + s.where(first)})
	}
	if len(ps) > 0 {
		return ps
	}
	p := s.place(src)
	if idOK {
		s.ids[key] = p
	}
	if bySlug == nil {
		bySlug = make(map[string]place, s.repoHint)
		s.slugs[rec.Repo] = bySlug
		s.folded[folded] = rec.Repo
	}
	bySlug[rec.Slug] = p
	s.lastRepo, s.lastSlugs = rec.Repo, bySlug
	return nil
}

func (s *Set) place(src record.Source) place {
	n, ok := s.lastFileN, src.File == s.lastFile && len(s.files) > 0
	if !ok {
		n, ok = s.fileN[src.File]
	}
	if !ok {
		n = int32(len(s.files))
		s.files = append(s.files, src.File)
		s.fileN[src.File] = n
	}
	s.lastFile, s.lastFileN = src.File, n
	return place{file: n, index: int32(src.Index), line: int32(src.Line)}
}

func (s *Set) where(p place) string {
	return record.Source{File: s.files[p.file], Index: int(p.index), Line: int(p.line)}.String()
}

// Reject is a record left out, with everything wrong with it.
type Reject struct {
	Source   record.Source   `json:"source"`
	ID       string          `json:"id"` // as the record gave it when a string; Error shows any other value from Raw
	Problems []Problem       `json:"problems"`
	Raw      json.RawMessage `json:"record"`
}

// Error is one line per problem:
//
//	FILE: record INDEX (id ID): FIELD: RULE
//
// An id that is not a valid id is untrusted text that would otherwise go
// to a terminal as it is: it is shown as the record has it (its JSON, a
// string in quotes), escaped and shortened, whatever its JSON type; a
// record without one says "(no id)".
func (r Reject) Error() string {
	head := r.Source.File + ": record " + strconv.Itoa(r.Source.Index) + " (" + r.shownID() + "): "
	if len(r.Problems) == 0 {
		return head + "rejected"
	}
	var b strings.Builder
	for i, p := range r.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(head)
		b.WriteString(p.Field)
		b.WriteString(": ")
		b.WriteString(p.Rule)
	}
	return b.String()
}

// mostShown is how many characters of an invalid id a report shows.
const mostShown = 40

// shownID is the id as a report shows it: "id ID", the id as the record
// has it when it is not a valid one, or "no id".
func (r Reject) shownID() string {
	switch {
	case ID(r.ID):
		return "id " + r.ID
	case len(r.Raw) > MaxRecordSize && r.ID == "":
		return "id not read" // a report does not read 200 MB for an id
	}
	if v := rawID(r.Raw); v != nil {
		return "id " + escapeShort(string(v))
	}
	if r.ID == "" {
		return "no id"
	}
	if c := []rune(r.ID); len(c) > mostShown {
		return "id " + strconv.Quote(string(c[:mostShown])) + "…"
	}
	return "id " + strconv.Quote(r.ID)
}

// rawID is the record's "id" member as it is in raw (inside a wrapper's
// "record" when raw is one), nil when it has none.
func rawID(raw []byte) jsontext.Value {
	if len(raw) > MaxRecordSize {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	var inner jsontext.Value
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil
		}
		name := tok.String() // before the next read, which voids the token
		v, err := dec.ReadValue()
		if err != nil {
			return nil
		}
		switch {
		case name == "id":
			return v
		case name == "record" && v.Kind() == '{' && inner == nil:
			inner = v.Clone()
		}
	}
	if inner != nil {
		return rawID(inner)
	}
	return nil
}

// escapeShort is untrusted text on one line of a terminal: cut to
// mostShown characters, every character that is not printable (controls,
// bidi overrides, invalid UTF-8) escaped as Go would.
func escapeShort(s string) string {
	var b strings.Builder
	n := 0
	for i, c := range s {
		if n++; n > mostShown {
			b.WriteString("…")
			break
		}
		switch {
		case c == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsPrint(c):
			b.WriteRune(c)
		default:
			q := strconv.QuoteRuneToASCII(c)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// MarshalJSON writes the reject as one line of the rejects file, valid
// JSON whatever the record's bytes: invalid UTF-8 in the record is
// replaced (U+FFFD), and a record over MaxRecordSize is left out (its
// size is given instead), as a 200 MB line helps no one.
func (r Reject) MarshalJSON() ([]byte, error) {
	type plain Reject
	out := struct {
		plain
		ID   string `json:"id"`
		Size int    `json:"recordBytes,omitempty"`
	}{plain: plain(r), ID: strings.ToValidUTF8(r.ID, "\uFFFD")}
	switch {
	case len(r.Raw) > MaxRecordSize:
		out.Raw, out.Size = nil, len(r.Raw)
	case len(r.Raw) > 0 && !utf8.Valid(r.Raw):
		out.Raw = bytes.ToValidUTF8(r.Raw, []byte("\uFFFD"))
	}
	return json.Marshal(out)
}
