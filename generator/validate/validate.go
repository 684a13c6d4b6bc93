// Package validate checks raw records against every rule of the record
// schema (version 2) and keeps the dataset-wide rules: ids unique over the
// dataset, slugs unique within a repo.
//
// Record reports every problem of a record, not only the first. Most records
// are valid, so it first decodes strictly into a typed struct (wrong types,
// unknown or duplicate fields, invalid UTF-8 all fail the decode) and checks
// the values; only when that finds anything does it decode again generically,
// field by field, to name every problem. The two paths share the value rules,
// so they cannot disagree about what is valid.
package validate

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/errdocs/errdocs/generator/record"
)

// Problem is one broken rule: the field (a JSON member name, "tags[2]" for
// a list entry, "record" for the record as a whole) and the rule in words.
type Problem struct {
	Field string `json:"field"`
	Rule  string `json:"rule"`
}

func (p Problem) String() string { return p.Field + ": " + p.Rule }

// MaxRecordSize is the largest record decoded. A real record (a 40-line
// excerpt, a few paragraphs of documentation) is a few kilobytes; the
// pages, the highlighting and the search index each hold several copies
// of a record's text while they work on it, so one record of hundreds of
// megabytes would take the build past its memory budget on its own.
const MaxRecordSize = 4 << 20

// Record decodes and validates one raw record. The record is usable only
// when no problem is returned; otherwise it holds what could be decoded.
func Record(raw []byte) (record.Record, []Problem) {
	if len(raw) > MaxRecordSize {
		return record.Record{}, []Problem{{Field: "record", Rule: fmt.Sprintf("is %d bytes, over the %d-byte limit for one record; not decoded", len(raw), MaxRecordSize)}}
	}
	if rec, ok := fast(raw); ok {
		return rec, nil
	}
	if inner, wrapperProblems, ok := wrapped(raw); ok {
		rec, ok := fast(inner)
		if ok {
			return rec, wrapperProblems
		}
		rec, ps := slow(inner)
		return rec, append(wrapperProblems, ps...)
	}
	return slow(raw)
}

// field indexes follow the schema's order; problems are sorted by them so
// that a report reads like the schema.
const (
	fID = iota
	fRepo
	fSlug
	fErrorCode
	fErrorMessage
	fMessagePattern
	fErrorType
	fErrorClass
	fHTTPStatus
	fSeverity
	fFilePath
	fLineNumber
	fSourceCode
	fSourceCodeStart
	fSourceCodeEnd
	fGithubURL
	fDocumentation
	fTriggerScenarios
	fCommonSituations
	fSolutions
	fExampleFix
	fHandlingStrategy
	fValidationCode
	fTypeGuard
	fTryCatchPattern
	fPreventionTips
	fTags
	fBackgroundTag
	fAnalyzedSha
	fAnalyzedAt
	fSchemaVersion
	nFields
)

type kind uint8

const (
	kString    kind = iota // string, required
	kOptString             // string or null; absent is null
	kInt                   // integer, required
	kOptInt                // integer or null; absent is null
	kStrings               // array of strings, required
)

type fieldSpec struct {
	name string
	kind kind
}

var fields = [nFields]fieldSpec{
	fID:               {"id", kString},
	fRepo:             {"repo", kString},
	fSlug:             {"slug", kString},
	fErrorCode:        {"errorCode", kOptString},
	fErrorMessage:     {"errorMessage", kString},
	fMessagePattern:   {"messagePattern", kString},
	fErrorType:        {"errorType", kString},
	fErrorClass:       {"errorClass", kOptString},
	fHTTPStatus:       {"httpStatus", kOptInt},
	fSeverity:         {"severity", kString},
	fFilePath:         {"filePath", kString},
	fLineNumber:       {"lineNumber", kOptInt},
	fSourceCode:       {"sourceCode", kOptString},
	fSourceCodeStart:  {"sourceCodeStart", kOptInt},
	fSourceCodeEnd:    {"sourceCodeEnd", kOptInt},
	fGithubURL:        {"githubUrl", kString},
	fDocumentation:    {"documentation", kString},
	fTriggerScenarios: {"triggerScenarios", kString},
	fCommonSituations: {"commonSituations", kString},
	fSolutions:        {"solutions", kStrings},
	fExampleFix:       {"exampleFix", kOptString},
	fHandlingStrategy: {"handlingStrategy", kOptString},
	fValidationCode:   {"validationCode", kOptString},
	fTypeGuard:        {"typeGuard", kOptString},
	fTryCatchPattern:  {"tryCatchPattern", kOptString},
	fPreventionTips:   {"preventionTips", kStrings},
	fTags:             {"tags", kStrings},
	fBackgroundTag:    {"backgroundTag", kOptString},
	fAnalyzedSha:      {"analyzedSha", kString},
	fAnalyzedAt:       {"analyzedAt", kString},
	fSchemaVersion:    {"schemaVersion", kInt},
}

var fieldIndex = func() map[string]int {
	m := make(map[string]int, nFields)
	for i, f := range fields {
		m[f.name] = i
	}
	return m
}()

// values is a decoded record with what the record type cannot hold: which
// nullable fields were present (record.Record keeps null as the zero value,
// but "errorCode": "" and "lineNumber": 0 break rules that null does not),
// and which fields already have a problem and must not be judged again.
type values struct {
	rec  record.Record
	has  uint64 // bit f: field f present and not null
	skip uint64 // bit f: field f already reported (missing, wrong type, ...)
}

func (v *values) present(f int) bool { return v.has&(1<<f) != 0 && v.skip&(1<<f) == 0 }
func (v *values) judge(f int) bool   { return v.skip&(1<<f) == 0 }

// problems collects problems with their sort keys.
type problems struct{ list []keyed }

type keyed struct {
	key int
	p   Problem
}

func (ps *problems) add(key int, field, rule string) {
	ps.list = append(ps.list, keyed{key, Problem{field, rule}})
}

func (ps *problems) sorted() []Problem {
	slices.SortStableFunc(ps.list, func(a, b keyed) int { return a.key - b.key })
	out := make([]Problem, len(ps.list))
	for i, k := range ps.list {
		out[i] = k.p
	}
	return out
}

// Sort keys: the whole record first, then fields in schema order, then
// unknown fields in the order met.
const (
	keyRecord  = -1
	keyUnknown = 1000
)

// checkValues applies the value rules of the schema to fields that decoded
// with the right type, in schema order. It is shared by the fast and the
// slow path.
func checkValues(v *values, ps *problems) {
	checkError(v, ps)
	checkSource(v, ps)
	checkText(v, ps)
	checkProvenance(v, ps)
}

// nonEmpty reports field f when it is to be judged and s is empty.
func nonEmpty(v *values, ps *problems, f int, s string) {
	if v.judge(f) && s == "" {
		ps.add(f, fields[f].name, "must be non-empty")
	}
}

// checkError checks the fields that name the record and its error, id to
// severity.
func checkError(v *values, ps *problems) {
	r := &v.rec
	if v.judge(fID) && !ID(r.ID) {
		ps.add(fID, "id", "must be 16 lowercase hex characters")
	}
	if v.judge(fRepo) {
		for _, rule := range Repo(r.Repo) {
			ps.add(fRepo, "repo", rule)
		}
	}
	if v.judge(fSlug) && !Slug(r.Slug) {
		ps.add(fSlug, "slug", "must be lowercase kebab (^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$)")
	}
	if v.present(fErrorCode) && r.ErrorCode == "" {
		ps.add(fErrorCode, "errorCode", "must be non-empty when present")
	}
	nonEmpty(v, ps, fErrorMessage, r.ErrorMessage)
	nonEmpty(v, ps, fMessagePattern, r.MessagePattern)
	if v.judge(fErrorType) && !slices.Contains(record.ErrorTypes, r.ErrorType) {
		ps.add(fErrorType, "errorType", "must be one of "+strings.Join(record.ErrorTypes, ", "))
	}
	if v.present(fErrorClass) && r.ErrorClass == "" {
		ps.add(fErrorClass, "errorClass", "must be non-empty when present")
	}
	if v.present(fHTTPStatus) && (r.HTTPStatus < 100 || r.HTTPStatus > 599) {
		ps.add(fHTTPStatus, "httpStatus", "must be between 100 and 599")
	}
	if v.judge(fSeverity) && !slices.Contains(record.Severities, r.Severity) {
		ps.add(fSeverity, "severity", "must be one of "+strings.Join(record.Severities, ", "))
	}
}

// checkSource checks where the error is raised: the file, the line, the
// excerpt's span and the upstream URL.
func checkSource(v *values, ps *problems) {
	r := &v.rec
	nonEmpty(v, ps, fFilePath, r.FilePath)
	// The span rules compare with sourceCodeStart only when it is itself
	// valid, so that one bad start does not drag two more problems along.
	startOK := v.present(fSourceCodeStart) && r.SourceCodeStart >= 1
	if v.present(fLineNumber) {
		if r.LineNumber < 1 {
			ps.add(fLineNumber, "lineNumber", "must be ≥ 1")
		} else if startOK && r.LineNumber < r.SourceCodeStart {
			ps.add(fLineNumber, "lineNumber", "must be ≥ sourceCodeStart ("+strconv.Itoa(r.SourceCodeStart)+")")
		}
	}
	if v.judge(fSourceCode) {
		if n := Lines(r.SourceCode); n > 40 {
			ps.add(fSourceCode, "sourceCode", "must be at most 40 lines (has "+strconv.Itoa(n)+")")
		}
	}
	if v.present(fSourceCodeStart) && r.SourceCodeStart < 1 {
		ps.add(fSourceCodeStart, "sourceCodeStart", "must be ≥ 1")
	}
	if v.present(fSourceCodeEnd) {
		if r.SourceCodeEnd < 1 {
			ps.add(fSourceCodeEnd, "sourceCodeEnd", "must be ≥ 1")
		} else if startOK && r.SourceCodeEnd < r.SourceCodeStart {
			ps.add(fSourceCodeEnd, "sourceCodeEnd", "must be ≥ sourceCodeStart ("+strconv.Itoa(r.SourceCodeStart)+")")
		}
	}
	if v.judge(fGithubURL) && !absoluteURL(r.GithubURL) {
		ps.add(fGithubURL, "githubUrl", "must be an absolute URL")
	}
}

// checkText checks the documentation, the fixes and prevention, and the
// tags.
func checkText(v *values, ps *problems) {
	r := &v.rec
	nonEmpty(v, ps, fDocumentation, r.Documentation)
	nonEmpty(v, ps, fTriggerScenarios, r.TriggerScenarios)
	nonEmpty(v, ps, fCommonSituations, r.CommonSituations)
	if v.judge(fSolutions) {
		for i, s := range r.Solutions {
			if s == "" {
				ps.add(fSolutions, "solutions["+strconv.Itoa(i)+"]", "must be non-empty")
			}
		}
	}
	if v.present(fHandlingStrategy) && !slices.Contains(record.HandlingStrategies, r.HandlingStrategy) {
		ps.add(fHandlingStrategy, "handlingStrategy", "must be one of "+strings.Join(record.HandlingStrategies, ", ")+" or null")
	}
	if v.judge(fPreventionTips) {
		for i, s := range r.PreventionTips {
			if s == "" {
				ps.add(fPreventionTips, "preventionTips["+strconv.Itoa(i)+"]", "must be non-empty")
			}
		}
	}
	if v.judge(fTags) {
		for i, s := range r.Tags {
			if !Tag(s) {
				ps.add(fTags, "tags["+strconv.Itoa(i)+"]", "must be lowercase kebab (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$)")
			}
		}
	}
	if v.present(fBackgroundTag) && !Tag(r.BackgroundTag) {
		ps.add(fBackgroundTag, "backgroundTag", "must be a lowercase kebab tag (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$) or null")
	}
}

// checkProvenance checks what the record was made from: the analysed
// commit, when, and the schema version.
func checkProvenance(v *values, ps *problems) {
	r := &v.rec
	if v.judge(fAnalyzedSha) && !SHA(r.AnalyzedSha) {
		ps.add(fAnalyzedSha, "analyzedSha", "must be 40 hex characters")
	}
	if v.judge(fAnalyzedAt) && !UTCTime(r.AnalyzedAt) {
		ps.add(fAnalyzedAt, "analyzedAt", "must be an ISO 8601 UTC time (RFC 3339 ending in Z)")
	}
	if v.judge(fSchemaVersion) && r.SchemaVersion != record.SchemaVersion {
		ps.add(fSchemaVersion, "schemaVersion", "must be exactly 2")
	}
}

// absoluteURL: the URL parses and has a scheme. Which schemes become links
// is the renderer's business.
func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "")
}

// fastRecord mirrors the schema with pointers where null and the zero value
// must be told apart.
type fastRecord struct {
	ID               string   `json:"id"`
	Repo             string   `json:"repo"`
	Slug             string   `json:"slug"`
	ErrorCode        *string  `json:"errorCode"`
	ErrorMessage     string   `json:"errorMessage"`
	MessagePattern   string   `json:"messagePattern"`
	ErrorType        string   `json:"errorType"`
	ErrorClass       *string  `json:"errorClass"`
	HTTPStatus       *int     `json:"httpStatus"`
	Severity         string   `json:"severity"`
	FilePath         string   `json:"filePath"`
	LineNumber       *int     `json:"lineNumber"`
	SourceCode       string   `json:"sourceCode"`
	SourceCodeStart  *int     `json:"sourceCodeStart"`
	SourceCodeEnd    *int     `json:"sourceCodeEnd"`
	GithubURL        string   `json:"githubUrl"`
	Documentation    string   `json:"documentation"`
	TriggerScenarios string   `json:"triggerScenarios"`
	CommonSituations string   `json:"commonSituations"`
	Solutions        []string `json:"solutions"`
	ExampleFix       string   `json:"exampleFix"`
	HandlingStrategy *string  `json:"handlingStrategy"`
	ValidationCode   string   `json:"validationCode"`
	TypeGuard        string   `json:"typeGuard"`
	TryCatchPattern  string   `json:"tryCatchPattern"`
	PreventionTips   []string `json:"preventionTips"`
	Tags             []string `json:"tags"`
	BackgroundTag    *string  `json:"backgroundTag"`
	AnalyzedSha      string   `json:"analyzedSha"`
	AnalyzedAt       string   `json:"analyzedAt"`
	SchemaVersion    int      `json:"schemaVersion"`
}

// strict rejects unknown members; duplicate names and invalid UTF-8 are
// rejected by default, and member names match exactly, as the schema
// spells them.
var strict = json.RejectUnknownMembers(true)

// fast is the path for a valid record. It says ok only when the record is
// clean; any doubt goes to the slow path, which alone writes problems.
func fast(raw []byte) (record.Record, bool) {
	var f fastRecord
	if json.Unmarshal(raw, &f, strict) != nil {
		return record.Record{}, false
	}
	// A required string that is missing or null decodes as "", which the
	// value rules reject; a required list that is missing or null stays nil.
	if f.Solutions == nil || f.PreventionTips == nil || f.Tags == nil {
		return record.Record{}, false
	}
	v := values{rec: record.Record{
		ID: f.ID, Repo: f.Repo, Slug: f.Slug, ErrorMessage: f.ErrorMessage,
		MessagePattern: f.MessagePattern, ErrorType: f.ErrorType, Severity: f.Severity,
		FilePath: f.FilePath, SourceCode: f.SourceCode, GithubURL: f.GithubURL,
		Documentation: f.Documentation, TriggerScenarios: f.TriggerScenarios,
		CommonSituations: f.CommonSituations, Solutions: f.Solutions, ExampleFix: f.ExampleFix,
		ValidationCode: f.ValidationCode, TypeGuard: f.TypeGuard, TryCatchPattern: f.TryCatchPattern,
		PreventionTips: f.PreventionTips, Tags: f.Tags, AnalyzedSha: f.AnalyzedSha,
		AnalyzedAt: f.AnalyzedAt, SchemaVersion: f.SchemaVersion,
	}}
	optStr(&v, fErrorCode, f.ErrorCode, &v.rec.ErrorCode)
	optStr(&v, fErrorClass, f.ErrorClass, &v.rec.ErrorClass)
	optStr(&v, fHandlingStrategy, f.HandlingStrategy, &v.rec.HandlingStrategy)
	optStr(&v, fBackgroundTag, f.BackgroundTag, &v.rec.BackgroundTag)
	optInt(&v, fHTTPStatus, f.HTTPStatus, &v.rec.HTTPStatus)
	optInt(&v, fLineNumber, f.LineNumber, &v.rec.LineNumber)
	optInt(&v, fSourceCodeStart, f.SourceCodeStart, &v.rec.SourceCodeStart)
	optInt(&v, fSourceCodeEnd, f.SourceCodeEnd, &v.rec.SourceCodeEnd)
	var ps problems
	checkValues(&v, &ps)
	if len(ps.list) > 0 {
		return record.Record{}, false
	}
	return v.rec, true
}

func optStr(v *values, f int, p *string, dst *string) {
	if p != nil {
		v.has |= 1 << f
		*dst = *p
	}
}

func optInt(v *values, f int, p *int, dst *int) {
	if p != nil {
		v.has |= 1 << f
		*dst = *p
	}
}
