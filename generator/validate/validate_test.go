package validate_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/validate"
	"github.com/errdocs/errdocs/internal/testseed"
)

// seed returns the seed record, unwrapped, as raw JSON.
func seed(t testing.TB) []byte {
	t.Helper()
	b := testseed.JSON()
	var w struct{ Record json.RawMessage }
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w.Record
}

// edit is a change to the seed: a member set to raw JSON, or deleted when
// the value is "".
type edit struct{ name, value string }

func mutate(t *testing.T, edits ...edit) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(seed(t), &m); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		if e.value == "" {
			delete(m, e.name)
		} else {
			m[e.name] = json.RawMessage(e.value)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSeedIsValid(t *testing.T) {
	rec, ps := validate.Record(seed(t))
	if len(ps) != 0 {
		t.Fatalf("seed has problems: %v", ps)
	}
	if rec.ID != "e171781a76b49a91" || rec.LineNumber != 913 || rec.ErrorCode != "" || rec.BackgroundTag != "resource-limit-exceeded" || len(rec.Tags) != 4 {
		t.Fatalf("seed decoded wrong: %+v", rec)
	}
	// The record written back is schema JSON and validates again.
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if _, ps := validate.Record(b); len(ps) != 0 {
		t.Fatalf("round trip has problems: %v", ps)
	}
}

func TestNullsAndAbsences(t *testing.T) {
	nullable := []string{"errorCode", "errorClass", "httpStatus", "lineNumber", "sourceCode", "sourceCodeStart",
		"sourceCodeEnd", "exampleFix", "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern", "backgroundTag"}
	var nulls, absent []edit
	for _, n := range nullable {
		nulls = append(nulls, edit{n, "null"})
		absent = append(absent, edit{n, ""})
	}
	empties := []edit{{"solutions", "[]"}, {"preventionTips", "[]"}, {"tags", "[]"}, {"sourceCode", `""`}, {"exampleFix", `""`}}
	for name, edits := range map[string][]edit{"null": nulls, "absent": absent, "empty": empties} {
		rec, ps := validate.Record(mutate(t, edits...))
		if len(ps) != 0 {
			t.Errorf("%s: problems %v", name, ps)
		}
		if name == "null" && (rec.LineNumber != 0 || rec.ErrorClass != "" || rec.HandlingStrategy != "") {
			t.Errorf("%s: nulls not zero: %+v", name, rec)
		}
	}
}

func TestEachRule(t *testing.T) {
	lines41 := strings.Repeat(`x\n`, 41)
	tests := []struct {
		name  string
		edits []edit
		raw   string // used instead of edits when set
		want  string // "field: rule"
	}{
		{"id upper", []edit{{"id", `"E171781A76B49A91"`}}, "", "id: must be 16 lowercase hex characters"},
		{"id short", []edit{{"id", `"e171"`}}, "", "id: must be 16 lowercase hex characters"},
		{"id missing", []edit{{"id", ""}}, "", "id: required field missing"},
		{"id null", []edit{{"id", "null"}}, "", "id: must be a string, not null"},
		{"id number", []edit{{"id", "12"}}, "", "id: must be a string, not a number"},
		{"repo one part", []edit{{"repo", `"jax"`}}, "", "repo: must be owner/name: two non-empty parts split by one /"},
		{"repo three parts", []edit{{"repo", `"a/b/c"`}}, "", "repo: must be owner/name: two non-empty parts split by one /"},
		{"repo empty part", []edit{{"repo", `"/x"`}}, "", "repo: must be owner/name: two non-empty parts split by one /"},
		{"repo space", []edit{{"repo", `"jax ml/jax"`}}, "", "repo: a part may not contain white space"},
		{"repo tab", []edit{{"repo", `"jax/j\tax"`}}, "", "repo: a part may not contain white space"},
		{"repo dotdot", []edit{{"repo", `"../x"`}}, "", `repo: a part may not be "." or ".." (our rule: it names a folder)`},
		{"repo dot name", []edit{{"repo", `"x/."`}}, "", `repo: a part may not be "." or ".." (our rule: it names a folder)`},
		{"repo backslash", []edit{{"repo", `"a\\b/c"`}}, "", `repo: a part may not contain control characters, NUL or \ (our rule: it names a folder)`},
		{"repo NUL", []edit{{"repo", `"a\u0000b/c"`}}, "", `repo: a part may not contain control characters, NUL or \ (our rule: it names a folder)`},
		{"repo control", []edit{{"repo", `"a\u001bb/c"`}}, "", `repo: a part may not contain control characters, NUL or \ (our rule: it names a folder)`},
		{"slug upper", []edit{{"slug", `"Host-callback"`}}, "", "slug: must be lowercase kebab (^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$)"},
		{"slug trailing hyphen", []edit{{"slug", `"host-"`}}, "", "slug: must be lowercase kebab (^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$)"},
		{"slug path", []edit{{"slug", `"../etc"`}}, "", "slug: must be lowercase kebab (^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$)"},
		{"errorCode empty", []edit{{"errorCode", `""`}}, "", "errorCode: must be non-empty when present"},
		{"errorCode number", []edit{{"errorCode", `5`}}, "", "errorCode: must be a string or null, not a number"},
		{"errorMessage empty", []edit{{"errorMessage", `""`}}, "", "errorMessage: must be non-empty"},
		{"messagePattern empty", []edit{{"messagePattern", `""`}}, "", "messagePattern: must be non-empty"},
		{"errorType", []edit{{"errorType", `"boom"`}}, "", "errorType: must be one of exception, error_code, console, http, validation, panic"},
		{"errorClass empty", []edit{{"errorClass", `""`}}, "", "errorClass: must be non-empty when present"},
		{"httpStatus low", []edit{{"httpStatus", `99`}}, "", "httpStatus: must be between 100 and 599"},
		{"httpStatus high", []edit{{"httpStatus", `600`}}, "", "httpStatus: must be between 100 and 599"},
		{"httpStatus string", []edit{{"httpStatus", `"404"`}}, "", "httpStatus: must be an integer or null, not a string"},
		{"httpStatus fraction", []edit{{"httpStatus", `404.5`}}, "", "httpStatus: must be an integer or null, not 404.5"},
		{"severity", []edit{{"severity", `"fatal"`}}, "", "severity: must be one of critical, error, warning, info"},
		{"filePath empty", []edit{{"filePath", `""`}}, "", "filePath: must be non-empty"},
		{"lineNumber zero", []edit{{"lineNumber", `0`}}, "", "lineNumber: must be ≥ 1"},
		{"lineNumber before start", []edit{{"lineNumber", `894`}}, "", "lineNumber: must be ≥ sourceCodeStart (895)"},
		{"lineNumber string", []edit{{"lineNumber", `"12"`}}, "", "lineNumber: must be an integer or null, not a string"},
		{"lineNumber exponent", []edit{{"lineNumber", `9.13e2`}}, "", "lineNumber: must be an integer or null, not 9.13e2"},
		{"sourceCode long", []edit{{"sourceCode", `"` + lines41 + `"`}}, "", "sourceCode: must be at most 40 lines (has 41)"},
		{"sourceCode type", []edit{{"sourceCode", `["x"]`}}, "", "sourceCode: must be a string or null, not an array"},
		{"sourceCodeStart zero", []edit{{"sourceCodeStart", `0`}}, "", "sourceCodeStart: must be ≥ 1"},
		{"sourceCodeEnd zero", []edit{{"sourceCodeEnd", `0`}}, "", "sourceCodeEnd: must be ≥ 1"},
		{"sourceCodeEnd before start", []edit{{"sourceCodeEnd", `894`}, {"lineNumber", `895`}}, "", "sourceCodeEnd: must be ≥ sourceCodeStart (895)"},
		{"githubUrl words", []edit{{"githubUrl", `"not a url"`}}, "", "githubUrl: must be an absolute URL"},
		{"githubUrl relative", []edit{{"githubUrl", `"/jax-ml/jax/blob/x"`}}, "", "githubUrl: must be an absolute URL"},
		{"githubUrl bad escape", []edit{{"githubUrl", `"https://github.com/%zz"`}}, "", "githubUrl: must be an absolute URL"},
		{"documentation empty", []edit{{"documentation", `""`}}, "", "documentation: must be non-empty"},
		{"triggerScenarios empty", []edit{{"triggerScenarios", `""`}}, "", "triggerScenarios: must be non-empty"},
		{"commonSituations empty", []edit{{"commonSituations", `""`}}, "", "commonSituations: must be non-empty"},
		{"solutions string", []edit{{"solutions", `"x"`}}, "", "solutions: must be an array of strings, not a string"},
		{"solutions null", []edit{{"solutions", `null`}}, "", "solutions: must be an array of strings, not null"},
		{"solutions missing", []edit{{"solutions", ""}}, "", "solutions: required field missing"},
		{"solutions empty entry", []edit{{"solutions", `["a",""]`}}, "", "solutions[1]: must be non-empty"},
		{"solutions number entry", []edit{{"solutions", `["a",1]`}}, "", "solutions[1]: must be a string, not a number"},
		{"exampleFix number", []edit{{"exampleFix", `5`}}, "", "exampleFix: must be a string or null, not a number"},
		{"handlingStrategy", []edit{{"handlingStrategy", `"pray"`}}, "", "handlingStrategy: must be one of try-catch, type-guard, validation, retry, fallback or null"},
		{"handlingStrategy empty", []edit{{"handlingStrategy", `""`}}, "", "handlingStrategy: must be one of try-catch, type-guard, validation, retry, fallback or null"},
		{"validationCode bool", []edit{{"validationCode", `true`}}, "", "validationCode: must be a string or null, not a boolean"},
		{"typeGuard object", []edit{{"typeGuard", `{}`}}, "", "typeGuard: must be a string or null, not an object"},
		{"tryCatchPattern number", []edit{{"tryCatchPattern", `1`}}, "", "tryCatchPattern: must be a string or null, not a number"},
		{"preventionTips empty entry", []edit{{"preventionTips", `[""]`}}, "", "preventionTips[0]: must be non-empty"},
		{"preventionTips object", []edit{{"preventionTips", `{}`}}, "", "preventionTips: must be an array of strings, not an object"},
		{"tags upper", []edit{{"tags", `["jax","Bad"]`}}, "", "tags[1]: must be lowercase kebab (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$)"},
		{"tags digit first", []edit{{"tags", `["1x"]`}}, "", "tags[0]: must be lowercase kebab (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$)"},
		{"tags double hyphen", []edit{{"tags", `["a--b"]`}}, "", "tags[0]: must be lowercase kebab (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$)"},
		{"backgroundTag", []edit{{"backgroundTag", `"Resource Limit"`}}, "", "backgroundTag: must be a lowercase kebab tag (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$) or null"},
		{"backgroundTag empty", []edit{{"backgroundTag", `""`}}, "", "backgroundTag: must be a lowercase kebab tag (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$) or null"},
		{"analyzedSha short", []edit{{"analyzedSha", `"1e1c6a8"`}}, "", "analyzedSha: must be 40 hex characters"},
		{"analyzedSha not hex", []edit{{"analyzedSha", `"1e1c6a8fc06dfcd1247076ec5cae4640cea5d7bz"`}}, "", "analyzedSha: must be 40 hex characters"},
		{"analyzedAt space", []edit{{"analyzedAt", `"2026-08-27 09:53:25Z"`}}, "", "analyzedAt: must be an ISO 8601 UTC time (RFC 3339 ending in Z)"},
		{"analyzedAt offset", []edit{{"analyzedAt", `"2026-08-27T09:53:25+02:00"`}}, "", "analyzedAt: must be an ISO 8601 UTC time (RFC 3339 ending in Z)"},
		{"analyzedAt date", []edit{{"analyzedAt", `"2026-08-27"`}}, "", "analyzedAt: must be an ISO 8601 UTC time (RFC 3339 ending in Z)"},
		{"analyzedAt month 13", []edit{{"analyzedAt", `"2026-13-27T09:53:25Z"`}}, "", "analyzedAt: must be an ISO 8601 UTC time (RFC 3339 ending in Z)"},
		{"schemaVersion 1", []edit{{"schemaVersion", `1`}}, "", "schemaVersion: must be exactly 2"},
		{"schemaVersion string", []edit{{"schemaVersion", `"2"`}}, "", "schemaVersion: must be an integer, not a string"},
		{"schemaVersion missing", []edit{{"schemaVersion", ""}}, "", "schemaVersion: required field missing"},
		{"unknown field", []edit{{"colour", `"red"`}}, "", "colour: unknown field"},
		{"unknown field case", []edit{{"ID", `"e171781a76b49a91"`}}, "", "ID: unknown field"},
		{"unknown field hostile name", []edit{{"a\u001b[31m b", `1`}}, "", `"a\x1b[31m b": unknown field`},
		{"duplicate field", nil, `{"id":"e171781a76b49a91",` + string(seed(t)[1:]), "id: appears more than once"},
		{"invalid UTF-8", nil, strings.Replace(string(seed(t)), `"Host callback`, "\"Host \xff callback", 1), "errorMessage: must be valid UTF-8 (our rule: invalid bytes would be silently replaced)"},
		{"lone surrogate", nil, strings.Replace(string(seed(t)), `"Host callback`, `"Host \udc00 callback`, 1), "errorMessage: must be valid UTF-8 (our rule: invalid bytes would be silently replaced)"},
		{"invalid UTF-8 in list", []edit{{"tags", "[\"a\xffb\"]"}}, "", "tags[0]: must be valid UTF-8 (our rule: invalid bytes would be silently replaced)"},
		{"not an object", nil, `["x"]`, "record: must be a JSON object, not an array"},
		{"null", nil, `null`, "record: must be a JSON object, not null"},
		{"invalid JSON", nil, `{"id": }`, "record: invalid JSON: invalid character '}' at start of value within \"/id\" after offset 7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw := []byte(tc.raw)
			if tc.raw == "" {
				raw = mutate(t, tc.edits...)
			}
			_, ps := validate.Record(raw)
			var got []string
			for _, p := range ps {
				got = append(got, p.String())
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("got %q\nwant [%q]", got, tc.want)
			}
		})
	}
}

func TestAllProblemsListed(t *testing.T) {
	raw := mutate(t,
		edit{"id", `"NOT-AN-ID"`},
		edit{"repo", `"../x"`},
		edit{"lineNumber", `"12"`},
		edit{"solutions", `"x"`},
		edit{"severity", ""},
		edit{"colour", `"red"`},
		edit{"schemaVersion", `3`},
		edit{"sourceCodeEnd", `10`},
	)
	_, ps := validate.Record(raw)
	want := []validate.Problem{
		{Field: "id", Rule: "must be 16 lowercase hex characters"},
		{Field: "repo", Rule: `a part may not be "." or ".." (our rule: it names a folder)`},
		{Field: "severity", Rule: "required field missing"},
		{Field: "lineNumber", Rule: "must be an integer or null, not a string"},
		{Field: "sourceCodeEnd", Rule: "must be ≥ sourceCodeStart (895)"},
		{Field: "solutions", Rule: "must be an array of strings, not a string"},
		{Field: "schemaVersion", Rule: "must be exactly 2"},
		{Field: "colour", Rule: "unknown field"},
	}
	if !reflect.DeepEqual(ps, want) {
		t.Errorf("got\n%v\nwant\n%v", ps, want)
	}
}

func TestRejectError(t *testing.T) {
	rj := validate.Reject{
		Source:   record.Source{File: "content/repos/a/b.json", Index: 12},
		ID:       "e171781a76b49a91",
		Problems: []validate.Problem{{Field: "lineNumber", Rule: "must be ≥ sourceCodeStart (895)"}, {Field: "colour", Rule: "unknown field"}},
	}
	want := "content/repos/a/b.json: record 12 (id e171781a76b49a91): lineNumber: must be ≥ sourceCodeStart (895)\n" +
		"content/repos/a/b.json: record 12 (id e171781a76b49a91): colour: unknown field"
	if got := rj.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	rj.ID = "\x1b[2J../../x"
	if got := rj.Error(); !strings.HasPrefix(got, `content/repos/a/b.json: record 12 (id "\x1b[2J../../x"): `) {
		t.Errorf("invalid id not shown escaped: %q", got)
	}
	rj.ID = strings.Repeat("é", 500)
	if got := rj.Error(); !strings.Contains(got, `(id "`+strings.Repeat("é", 40)+`"…): `) {
		t.Errorf("long invalid id not shortened: %q", got)
	}
	rj.ID = ""
	if got := rj.Error(); !strings.Contains(got, "(no id): ") {
		t.Errorf("missing id: %q", got)
	}
}

// TestRejectsLineValidJSON is failure 14: a rejects line is valid JSON
// whatever the record's bytes (raw invalid UTF-8), and leaves out a
// record over the size limit.
func TestRejectsLineValidJSON(t *testing.T) {
	for _, raw := range []string{"{\"id\":\"\xff\xfe\",\"x\":\"caf\xc3\"}", "{\"id\":\"" + strings.Repeat("a", validate.MaxRecordSize) + "\"}"} {
		rj := validate.Reject{Source: record.Source{File: "a.json"}, ID: "\xff", Raw: json.RawMessage(raw)}
		line, err := json.Marshal(rj)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(line) || !utf8.Valid(line) || bytes.IndexByte(line, '\n') >= 0 {
			t.Errorf("not one valid JSON line: %.200q", line)
		}
		if len(line) > 1<<20 {
			t.Errorf("rejects line of %d bytes", len(line))
		}
	}
}

func TestSetDuplicates(t *testing.T) {
	s := validate.NewSet()
	// A size hint for the next repo's slugs changes no rule, whatever it
	// says.
	s.ExpectRepo(3)
	a := record.Record{ID: "e171781a76b49a91", Repo: "jax-ml/jax", Slug: "x"}
	if ps := s.Add(record.Source{File: "a.json", Index: 0}, &a); ps != nil {
		t.Fatalf("first add: %v", ps)
	}
	sameID := record.Record{ID: "e171781a76b49a91", Repo: "other/repo", Slug: "x"}
	ps := s.Add(record.Source{File: "b.jsonl", Index: 3, Line: 4}, &sameID)
	want := []validate.Problem{{Field: "id", Rule: "already used by a.json: record 0"}}
	if !reflect.DeepEqual(ps, want) {
		t.Errorf("duplicate id: got %v want %v", ps, want)
	}
	s.ExpectRepo(1 << 40)
	sameSlug := record.Record{ID: "0000000000000001", Repo: "jax-ml/jax", Slug: "x"}
	ps = s.Add(record.Source{File: "c.json", Index: 7}, &sameSlug)
	want = []validate.Problem{{Field: "slug", Rule: "already used in jax-ml/jax by a.json: record 0"}}
	if !reflect.DeepEqual(ps, want) {
		t.Errorf("duplicate slug: got %v want %v", ps, want)
	}
	s.ExpectRepo(-1)
	// Same slug in another repo is fine; the rejected records above held nothing.
	other := record.Record{ID: "0000000000000002", Repo: "other/repo", Slug: "x"}
	if ps := s.Add(record.Source{File: "d.json", Index: 0}, &other); ps != nil {
		t.Errorf("same slug, other repo: %v", ps)
	}
	// The JSON Lines line is named in the first occurrence.
	dup := record.Record{ID: "0000000000000002", Repo: "z/z", Slug: "y"}
	l := record.Record{ID: "0000000000000003", Repo: "z/z", Slug: "q"}
	s.Add(record.Source{File: "e.jsonl", Index: 1, Line: 2}, &l)
	l2 := record.Record{ID: "0000000000000003", Repo: "z/z", Slug: "r"}
	if ps := s.Add(record.Source{File: "f.json"}, &l2); len(ps) != 1 || ps[0].Rule != "already used by e.jsonl:2: record 1" {
		t.Errorf("line not named: %v", ps)
	}
	if ps := s.Add(record.Source{File: "g.json"}, &dup); len(ps) != 1 || ps[0].Field != "id" {
		t.Errorf("dup: %v", ps)
	}
}

// TestSetRuns adds records as files give them: runs of one file and one
// repo, files and repos coming back after others, ids and slugs used
// again in the same run or far from it. Each record's problems must be
// those a plain account of the records added before gives, naming the
// file where each id or slug was first taken.
func TestSetRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	s := validate.NewSet()
	type first struct {
		file  string
		index int
	}
	ids, slugs := map[string]first{}, map[string]first{}
	file, repo := "f0.json", "o/r0"
	for i := range 3000 {
		if rng.IntN(20) == 0 {
			file = fmt.Sprintf("f%d.json", rng.IntN(6))
		}
		if rng.IntN(15) == 0 {
			repo = fmt.Sprintf("o/r%d", rng.IntN(4))
		}
		r := record.Record{ID: fmt.Sprintf("%016x", rng.IntN(2500)), Repo: repo, Slug: fmt.Sprintf("s%d", rng.IntN(700))}
		var want []validate.Problem
		if f, ok := ids[r.ID]; ok {
			want = append(want, validate.Problem{Field: "id", Rule: fmt.Sprintf("already used by %s: record %d", f.file, f.index)})
		}
		if f, ok := slugs[r.Repo+" "+r.Slug]; ok {
			want = append(want, validate.Problem{Field: "slug", Rule: fmt.Sprintf("already used in %s by %s: record %d", r.Repo, f.file, f.index)})
		}
		got := s.Add(record.Source{File: file, Index: i}, &r)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("record %d (%s, %s): got %v want %v", i, file, repo, got, want)
		}
		if want == nil {
			ids[r.ID], slugs[r.Repo+" "+r.Slug] = first{file, i}, first{file, i}
		}
	}
}

// TestSetRepoNames checks the repo rules of a Set at every record: a repo
// whose name breaks them, or folds onto a repo seen first, is refused
// each time, however many records the first repo has by then.
func TestSetRepoNames(t *testing.T) {
	s := validate.NewSet()
	id := 0
	add := func(repo, slug string) []validate.Problem {
		id++
		r := record.Record{ID: fmt.Sprintf("%016x", id), Repo: repo, Slug: slug}
		return s.Add(record.Source{File: "a.json", Index: id}, &r)
	}
	for round := range 3 {
		for k := range 4 {
			if ps := add("Jax-ML/jax", fmt.Sprintf("s%d-%d", round, k)); ps != nil {
				t.Fatalf("first repo, round %d: %v", round, ps)
			}
		}
		if ps := add("jax-ml/JAX", fmt.Sprintf("t%d", round)); len(ps) != 1 || ps[0].Field != "repo" || !strings.Contains(ps[0].Rule, "one folder") {
			t.Errorf("folded repo, round %d: %v", round, ps)
		}
		if ps := add("../x", fmt.Sprintf("u%d", round)); len(ps) == 0 || ps[0].Field != "repo" {
			t.Errorf("repo with ..: round %d: %v", round, ps)
		}
	}
}

func BenchmarkRecord(b *testing.B) {
	raw := seed(b)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ps := validate.Record(raw); ps != nil {
			b.Fatal(ps)
		}
	}
}

// BenchmarkRecordSlow measures the path for a record with a problem.
func BenchmarkRecordSlow(b *testing.B) {
	raw := []byte(strings.Replace(string(seed(b)), `"schemaVersion": 2`, `"schemaVersion": 3`, 1))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ps := validate.Record(raw); len(ps) != 1 {
			b.Fatal(ps)
		}
	}
}
