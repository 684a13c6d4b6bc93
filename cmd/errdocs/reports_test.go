package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// Tests of issue 15 failure 14: what a rejected record's report says.

// buildRejects builds the records in files (name → content) with
// --rejects and returns the exit status, the report on standard error
// and the rejects file's lines.
func buildRejects(t *testing.T, files map[string][]byte) (code int, stderr string, lines []string) {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(in, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rejects := filepath.Join(dir, "rejects.jsonl")
	code, _, stderr = runCLI(t, "build", in, "--out", filepath.Join(dir, "site"), "--rejects", rejects, "--quiet")
	data, err := os.ReadFile(rejects)
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.TrimSuffix(string(data), "\n"); s != "" {
		lines = strings.Split(s, "\n")
	}
	return code, stderr, lines
}

// marshal is v as JSON, with no HTML escaping (so a test can write the
// bytes it means).
func marshal(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// reportLines are the report's lines about file's record index.
func reportLines(stderr, file string, index int) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, string(filepath.Separator)+file+": record "+strconv.Itoa(index)+" (") {
			out = append(out, l)
		}
	}
	return out
}

var controlChar = regexp.MustCompile(`[\x00-\x1f\x7f\x{202a}-\x{202e}\x{2066}-\x{2069}]`)

// TestInvalidIDShownNotQuestionMark: a record whose id is invalid is
// reported with what its id was (escaped and shortened), not "(id ?)",
// whatever the id's JSON type; a record with none says so.
func TestInvalidIDShownNotQuestionMark(t *testing.T) {
	ids := []struct {
		id   any // nil: no id member
		want string
	}{
		{12345, "(id 12345): id: must be a string, not a number"},
		{json.RawMessage("null"), "(id null): id: must be a string, not null"},
		{map[string]any{"x": "\x1b[2J\u202ered"}, `(id {"x":"\u001b[2J\u202ered"}): id: must be a string, not an object`},
		{"\x1b[2J" + strings.Repeat("9", 60), `(id "\u001b[2J` + strings.Repeat("9", 30) + `…): id: must be 16 lowercase hex characters`},
		{"", `(id ""): id: must be 16 lowercase hex characters`},
		{nil, "(no id): id: required field missing"},
	}
	var recs []any
	for k, c := range ids {
		r := variant(t, k, nil)
		if c.id == nil {
			delete(r, "id")
		} else {
			r["id"] = c.id
		}
		recs = append(recs, r)
	}
	recs = append(recs, variant(t, 15, nil))
	code, stderr, lines := buildRejects(t, map[string][]byte{"ids.json": marshal(t, recs)})
	if code != 0 || len(lines) != len(ids) {
		t.Fatalf("exit %d, %d rejects (want 0, %d):\n%s", code, len(lines), len(ids), stderr)
	}
	for k, c := range ids {
		got := reportLines(stderr, "ids.json", k)
		if len(got) != 1 || !strings.HasSuffix(got[0], c.want) {
			t.Errorf("record %d (id %v) reported as %q, want one line ending %q", k, c.id, got, c.want)
		}
		if len(got) == 1 && controlChar.MatchString(got[0]) {
			t.Errorf("record %d: a control or bidi character reached the report: %q", k, got[0])
		}
	}
	if strings.Contains(stderr, "(id ?)") {
		t.Errorf("report still says (id ?):\n%s", stderr)
	}
}

// TestWrapperExtraKeyOneProblem: a wrapper with one key too many is one
// problem naming the key (not every record field "required field
// missing"), beside the wrapped record's own problems; a sound wrapper
// builds, and a bare record with a stray "record" member is still judged
// as a record.
func TestWrapperExtraKeyOneProblem(t *testing.T) {
	inner := variant(t, 1, nil)
	loud := variant(t, 2, func(r map[string]any) { r["severity"] = "loud" })
	stray := variant(t, 3, func(r map[string]any) { r["record"] = map[string]any{} })
	files := map[string][]byte{
		"extra.json": marshal(t, map[string]any{"record": inner, "datasetVersion": "2026-01-01T00:00:00Z", "source": "scraper"}),
		"both.json":  marshal(t, map[string]any{"record": loud, "datasetVersion": 7}),
		"stray.json": marshal(t, stray),
		"sound.json": marshal(t, map[string]any{"record": variant(t, 4, nil), "datasetVersion": nil}),
	}
	code, stderr, lines := buildRejects(t, files)
	if code != 0 || len(lines) != 3 {
		t.Fatalf("exit %d, %d rejects (want 0, 3):\n%s", code, len(lines), stderr)
	}
	for file, want := range map[string][]string{
		"extra.json": {`(id 0000000000000001): wrapper: unknown key "source"; a wrapper holds only "record" and "datasetVersion"`},
		"both.json": {
			"(id 0000000000000002): wrapper: datasetVersion must be a string or null, not a number",
			"(id 0000000000000002): severity: must be one of",
		},
		"stray.json": {"(id 0000000000000003): record: unknown field"},
		"sound.json": nil,
	} {
		got := reportLines(stderr, file, 0)
		if len(got) != len(want) {
			t.Errorf("%s: %d problems, want %d:\n%s", file, len(got), len(want), strings.Join(got, "\n"))
			continue
		}
		for k := range want {
			if !strings.Contains(got[k], want[k]) {
				t.Errorf("%s: problem %d is %q, want %q", file, k, got[k], want[k])
			}
		}
	}
}

// TestRejectsFileValidJSONLinesWhateverBytes: --rejects is JSON Lines,
// valid UTF-8, one line per rejected record, whatever the input's bytes:
// invalid UTF-8 in values and names, escaped NUL and lone surrogates,
// bidi overrides, line separators, a record over the size limit, a file
// that is not JSON.
func TestRejectsFileValidJSONLinesWhateverBytes(t *testing.T) {
	good := string(marshal(t, variant(t, 1, nil)))
	bad := []string{
		strings.Replace(good, `"severity":"error"`, "\"severity\":\"\xff\xfe\xc3\"", 1),
		strings.Replace(good, `"id":"0000000000000001"`, "\"id\":\"\xff\x1b\"", 1),
		strings.Replace(good, `"severity":"error"`, "\"sev\xe2\x80\xaeerity\":\"error\",\"\xc0\xaf\":1", 1),
		strings.Replace(good, `"severity":"error"`, `"severity":"\u0000\ud800\udfff\u2028\u2029"`, 1),
		strings.Replace(good, `"severity":"error"`, `"severity":"error","pad":"`+strings.Repeat("\xf0", 5<<20)+`"`, 1),
	}
	if !strings.Contains(good, `"severity":"error"`) {
		t.Fatalf("the seed's severity is not error: %s", good)
	}
	files := map[string][]byte{
		"lines.jsonl": []byte(good + "\n" + strings.Join(bad, "\n") + "\n"),
		"binary.json": []byte("\xff\xfe{\x00\u2028not json"),
	}
	code, stderr, lines := buildRejects(t, files)
	if code != 0 || len(lines) != len(bad)+1 {
		t.Fatalf("exit %d, %d rejects lines (want 0, %d):\n%.2000s", code, len(lines), len(bad)+1, stderr)
	}
	indexes := map[int]bool{}
	for k, line := range lines {
		var rj struct {
			Source struct {
				File  string
				Index int
			}
			Problems []struct{ Field, Rule string }
		}
		if !utf8.ValidString(line) || !json.Valid([]byte(line)) || json.Unmarshal([]byte(line), &rj) != nil {
			t.Errorf("rejects line %d is not valid JSON in UTF-8: %.300q", k+1, line)
			continue
		}
		if len(rj.Problems) == 0 || len(line) > 1<<20 {
			t.Errorf("rejects line %d: %d problems, %d bytes", k+1, len(rj.Problems), len(line))
		}
		if strings.HasSuffix(rj.Source.File, "lines.jsonl") {
			indexes[rj.Source.Index] = true
		}
	}
	for i := 1; i <= len(bad); i++ {
		if !indexes[i] {
			t.Errorf("no rejects line for lines.jsonl record %d", i)
		}
	}
	if m := controlChar.FindString(strings.ReplaceAll(stderr, "\n", " ")); m != "" {
		t.Errorf("a control or bidi character (%q) reached the report:\n%.2000q", m, stderr)
	}
}
