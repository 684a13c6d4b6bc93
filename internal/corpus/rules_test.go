package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/errdocs/errdocs/generator/record"
)

// The schema rules of record-schema.md, checked on a record's JSON form, plus
// the consistency rules this package promises (excerpt lines, permalink,
// pattern matches message). Kept in the tests: the real validator lives in
// generator/validate; this one exists so the corpus and content/ can be
// checked without depending on it.

var (
	reID   = regexp.MustCompile(`^[0-9a-f]{16}$`)
	reRepo = regexp.MustCompile(`^[^/\s]+/[^/\s]+$`)
	reSlug = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$`)
	reTag  = regexp.MustCompile(`^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`)
	reSha  = regexp.MustCompile(`^[0-9a-f]{40}$`)
	reAnch = regexp.MustCompile(`#L(\d+)(?:-L(\d+))?$`)
)

var schemaFields = []string{
	"id", "repo", "slug", "errorCode", "errorMessage", "messagePattern", "errorType", "errorClass", "httpStatus",
	"severity", "filePath", "lineNumber", "sourceCode", "sourceCodeStart", "sourceCodeEnd", "githubUrl",
	"documentation", "triggerScenarios", "commonSituations", "solutions", "exampleFix", "handlingStrategy",
	"validationCode", "typeGuard", "tryCatchPattern", "preventionTips", "tags", "backgroundTag", "analyzedSha",
	"analyzedAt", "schemaVersion",
}

// checkRaw returns every broken rule of one record as "field: rule".
func checkRaw(raw []byte) []string {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return []string{"record: not a JSON object: " + err.Error()}
	}
	var bad []string
	fail := func(field, format string, args ...any) { bad = append(bad, field+": "+fmt.Sprintf(format, args...)) }
	for k := range m {
		if !slices.Contains(schemaFields, k) {
			fail(k, "field not in schema")
		}
	}
	str := func(f string, nullable, nonEmpty bool) (string, bool) {
		v, ok := m[f]
		if !ok || v == nil {
			if !nullable {
				fail(f, "required")
			}
			return "", false
		}
		s, ok := v.(string)
		if !ok {
			fail(f, "not a string")
			return "", false
		}
		if nonEmpty && s == "" {
			fail(f, "empty")
		}
		return s, true
	}
	integer := func(f string, nullable bool) (int64, bool) {
		v, ok := m[f]
		if !ok || v == nil {
			if !nullable {
				fail(f, "required")
			}
			return 0, false
		}
		n, ok := v.(json.Number)
		if !ok {
			fail(f, "not a number")
			return 0, false
		}
		i, err := n.Int64()
		if err != nil {
			fail(f, "not an integer")
			return 0, false
		}
		return i, true
	}
	strList := func(f string, check func(string) bool) {
		v, ok := m[f].([]any)
		if !ok {
			fail(f, "not an array")
			return
		}
		for i, x := range v {
			s, ok := x.(string)
			if !ok || s == "" || (check != nil && !check(s)) {
				fail(f, "element %d invalid: %v", i, x)
			}
		}
	}
	enum := func(f string, nullable bool, vals []string) {
		if s, ok := str(f, nullable, true); ok && !slices.Contains(vals, s) {
			fail(f, "not one of %v: %q", vals, s)
		}
	}

	if s, ok := str("id", false, true); ok && !reID.MatchString(s) {
		fail("id", "not 16 lowercase hex: %q", s)
	}
	repo, _ := str("repo", false, true)
	if !reRepo.MatchString(repo) {
		fail("repo", "not owner/name: %q", repo)
	}
	if s, ok := str("slug", false, true); ok && !reSlug.MatchString(s) {
		fail("slug", "not kebab: %q", s)
	}
	str("errorCode", true, true)
	msg, _ := str("errorMessage", false, true)
	pat, _ := str("messagePattern", false, true)
	enum("errorType", false, record.ErrorTypes)
	str("errorClass", true, true)
	if st, ok := integer("httpStatus", true); ok && (st < 100 || st > 599) {
		fail("httpStatus", "not in 100..599: %d", st)
	}
	enum("severity", false, record.Severities)
	file, _ := str("filePath", false, true)
	line, hasLine := integer("lineNumber", true)
	src, hasSrc := str("sourceCode", true, false)
	start, hasStart := integer("sourceCodeStart", true)
	end, hasEnd := integer("sourceCodeEnd", true)
	if hasLine && line < 1 {
		fail("lineNumber", "< 1")
	}
	if hasStart && start < 1 {
		fail("sourceCodeStart", "< 1")
	}
	if hasEnd && (end < 1 || (hasStart && end < start)) {
		fail("sourceCodeEnd", "< 1 or < sourceCodeStart")
	}
	if hasLine && hasStart && line < start {
		fail("lineNumber", "< sourceCodeStart")
	}
	if hasSrc {
		// Lines are what splitting on "\n" gives, as upstream counts them:
		// the seed's excerpt ends in "\n" and its range counts the empty
		// last line.
		n := strings.Count(src, "\n") + 1
		if n > 40 {
			fail("sourceCode", "%d lines, more than 40", n)
		}
		// Consistency (not a schema rule): the excerpt spans start..end and
		// holds the raising line.
		if !hasStart || !hasEnd || int64(n) != end-start+1 {
			fail("sourceCode", "%d lines but sourceCodeStart..End is %d..%d", n, start, end)
		}
		if !hasLine || line > end {
			fail("lineNumber", "%d not inside the excerpt %d..%d", line, start, end)
		}
	}
	if u, ok := str("githubUrl", false, true); ok {
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "https" && pu.Scheme != "http") || pu.Host == "" {
			fail("githubUrl", "not an http(s) URL: %q", u)
		} else {
			sha, _ := m["analyzedSha"].(string)
			if !strings.HasPrefix(u, "https://github.com/"+repo+"/blob/"+sha+"/"+file) {
				fail("githubUrl", "not a permalink to %s at analyzedSha: %q", file, u)
			}
			if a := reAnch.FindStringSubmatch(u); hasSrc && (a == nil || a[1] != fmt.Sprint(start) || a[2] != fmt.Sprint(end)) {
				fail("githubUrl", "anchor does not match the excerpt: %q", u)
			}
		}
	}
	str("documentation", false, true)
	str("triggerScenarios", false, true)
	str("commonSituations", false, true)
	strList("solutions", nil)
	str("exampleFix", true, false)
	enum("handlingStrategy", true, record.HandlingStrategies)
	str("validationCode", true, false)
	str("typeGuard", true, false)
	str("tryCatchPattern", true, false)
	strList("preventionTips", nil)
	strList("tags", reTag.MatchString)
	if s, ok := str("backgroundTag", true, true); ok && !reTag.MatchString(s) {
		fail("backgroundTag", "not a kebab tag: %q", s)
	}
	if s, ok := str("analyzedSha", false, true); ok && !reSha.MatchString(s) {
		fail("analyzedSha", "not 40 lowercase hex")
	}
	if s, ok := str("analyzedAt", false, true); ok {
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil || !strings.HasSuffix(s, "Z") {
			fail("analyzedAt", "not ISO 8601 UTC: %q", s)
		}
	}
	if v, ok := integer("schemaVersion", false); ok && v != 2 {
		fail("schemaVersion", "not 2")
	}
	if msg != "" && pat != "" {
		if p := checkPattern(pat, msg); p != "" {
			fail("messagePattern", "%s", p)
		}
	}
	return bad
}

// Deliberately non-RE2 patterns: a backreference or a lookaround.
var nonRE2 = regexp.MustCompile(`\\[1-9]|\(\?[=!<]`)

// checkPattern says what is wrong with a pattern for a message, or "". A
// pattern RE2 rejects must be one of the deliberate kinds; it is then
// checked in an RE2 approximation (lookahead dropped, backreference as .+).
func checkPattern(pat, msg string) string {
	re, err := regexp.Compile(pat)
	if err != nil {
		if !nonRE2.MatchString(pat) {
			return "does not compile and is not a deliberate non-RE2 pattern: " + err.Error()
		}
		approx := regexp.MustCompile(`^\(\?[=!][^)]*\)`).ReplaceAllString(pat, "")
		approx = regexp.MustCompile(`\\[1-9]`).ReplaceAllString(approx, ".+")
		if re, err = regexp.Compile(approx); err != nil {
			return "approximation does not compile: " + err.Error()
		}
	}
	if !re.MatchString(msg) {
		return fmt.Sprintf("%q does not match the message %q", pat, msg)
	}
	return ""
}

// datasetChecker checks the rules over a whole dataset: unique ids, slugs
// unique within a repo.
type datasetChecker struct {
	ids   map[string]string
	slugs map[string]bool
}

func newDatasetChecker() *datasetChecker {
	return &datasetChecker{ids: map[string]string{}, slugs: map[string]bool{}}
}

func (c *datasetChecker) add(where string, r *record.Record) []string {
	var bad []string
	if prev, ok := c.ids[r.ID]; ok {
		bad = append(bad, fmt.Sprintf("id: %s duplicates %s", r.ID, prev))
	}
	c.ids[r.ID] = where
	k := r.Repo + "\x00" + r.Slug
	if c.slugs[k] {
		bad = append(bad, fmt.Sprintf("slug: %q not unique in %s", r.Slug, r.Repo))
	}
	c.slugs[k] = true
	return bad
}
