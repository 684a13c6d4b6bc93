// Package record holds the error record of schema version 2 and the other
// entries of a published dataset (repo entries, background articles).
//
// A field the schema allows to be null is held as its zero value: "" for a
// string, 0 for an integer (every nullable integer in the schema is ≥ 1 when
// present, and httpStatus is 100..599), nil for a slice. MarshalJSON writes
// the zero values back as null, so a record round-trips to schema-valid JSON.
package record

import (
	"encoding/json"
	"strings"
)

// SchemaVersion is the only record schema version this generator reads.
const SchemaVersion = 2

// Record is one error record. Field order follows the schema.
type Record struct {
	ID               string   `json:"id"`
	Repo             string   `json:"repo"`
	Slug             string   `json:"slug"`
	ErrorCode        string   `json:"errorCode"`
	ErrorMessage     string   `json:"errorMessage"`
	MessagePattern   string   `json:"messagePattern"`
	ErrorType        string   `json:"errorType"`
	ErrorClass       string   `json:"errorClass"`
	HTTPStatus       int      `json:"httpStatus"`
	Severity         string   `json:"severity"`
	FilePath         string   `json:"filePath"`
	LineNumber       int      `json:"lineNumber"`
	SourceCode       string   `json:"sourceCode"`
	SourceCodeStart  int      `json:"sourceCodeStart"`
	SourceCodeEnd    int      `json:"sourceCodeEnd"`
	GithubURL        string   `json:"githubUrl"`
	Documentation    string   `json:"documentation"`
	TriggerScenarios string   `json:"triggerScenarios"`
	CommonSituations string   `json:"commonSituations"`
	Solutions        []string `json:"solutions"`
	ExampleFix       string   `json:"exampleFix"`
	HandlingStrategy string   `json:"handlingStrategy"`
	ValidationCode   string   `json:"validationCode"`
	TypeGuard        string   `json:"typeGuard"`
	TryCatchPattern  string   `json:"tryCatchPattern"`
	PreventionTips   []string `json:"preventionTips"`
	Tags             []string `json:"tags"`
	BackgroundTag    string   `json:"backgroundTag"`
	AnalyzedSha      string   `json:"analyzedSha"`
	AnalyzedAt       string   `json:"analyzedAt"`
	SchemaVersion    int      `json:"schemaVersion"`
}

// The enumerations of the schema.
var (
	ErrorTypes         = []string{"exception", "error_code", "console", "http", "validation", "panic"}
	Severities         = []string{"critical", "error", "warning", "info"}
	HandlingStrategies = []string{"try-catch", "type-guard", "validation", "retry", "fallback"}
)

// Owner and Name split Repo ("owner/name").
func (r *Record) Owner() string { o, _, _ := strings.Cut(r.Repo, "/"); return o }
func (r *Record) Name() string  { _, n, _ := strings.Cut(r.Repo, "/"); return n }

// Path is the record page's folder relative to the site root, with a
// trailing slash: "owner/name/slug/".
func (r *Record) Path() string { return r.Repo + "/" + r.Slug + "/" }

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullInt(i int) any {
	if i == 0 {
		return nil
	}
	return i
}

func list(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// MarshalJSON writes the record in schema form: absent values as null, empty
// lists as [].
func (r Record) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID               string   `json:"id"`
		Repo             string   `json:"repo"`
		Slug             string   `json:"slug"`
		ErrorCode        any      `json:"errorCode"`
		ErrorMessage     string   `json:"errorMessage"`
		MessagePattern   string   `json:"messagePattern"`
		ErrorType        string   `json:"errorType"`
		ErrorClass       any      `json:"errorClass"`
		HTTPStatus       any      `json:"httpStatus"`
		Severity         string   `json:"severity"`
		FilePath         string   `json:"filePath"`
		LineNumber       any      `json:"lineNumber"`
		SourceCode       any      `json:"sourceCode"`
		SourceCodeStart  any      `json:"sourceCodeStart"`
		SourceCodeEnd    any      `json:"sourceCodeEnd"`
		GithubURL        string   `json:"githubUrl"`
		Documentation    string   `json:"documentation"`
		TriggerScenarios string   `json:"triggerScenarios"`
		CommonSituations string   `json:"commonSituations"`
		Solutions        []string `json:"solutions"`
		ExampleFix       any      `json:"exampleFix"`
		HandlingStrategy any      `json:"handlingStrategy"`
		ValidationCode   any      `json:"validationCode"`
		TypeGuard        any      `json:"typeGuard"`
		TryCatchPattern  any      `json:"tryCatchPattern"`
		PreventionTips   []string `json:"preventionTips"`
		Tags             []string `json:"tags"`
		BackgroundTag    any      `json:"backgroundTag"`
		AnalyzedSha      string   `json:"analyzedSha"`
		AnalyzedAt       string   `json:"analyzedAt"`
		SchemaVersion    int      `json:"schemaVersion"`
	}{
		r.ID, r.Repo, r.Slug, nullString(r.ErrorCode), r.ErrorMessage, r.MessagePattern,
		r.ErrorType, nullString(r.ErrorClass), nullInt(r.HTTPStatus), r.Severity, r.FilePath,
		nullInt(r.LineNumber), nullString(r.SourceCode), nullInt(r.SourceCodeStart),
		nullInt(r.SourceCodeEnd), r.GithubURL, r.Documentation, r.TriggerScenarios,
		r.CommonSituations, list(r.Solutions), nullString(r.ExampleFix),
		nullString(r.HandlingStrategy), nullString(r.ValidationCode), nullString(r.TypeGuard),
		nullString(r.TryCatchPattern), list(r.PreventionTips), list(r.Tags),
		nullString(r.BackgroundTag), r.AnalyzedSha, r.AnalyzedAt, r.SchemaVersion,
	})
}

// Wrapped is a single record as it travels alone.
type Wrapped struct {
	Record         Record `json:"record"`
	DatasetVersion string `json:"datasetVersion"`
}

// Repo is one entry of an export's repos.json. Description and Language are
// "" when null; SourceFiles is -1 when null.
type Repo struct {
	Repo          string `json:"repo"`
	Description   string `json:"description"`
	Language      string `json:"language"`
	Stars         int    `json:"stars"`
	SourceFiles   int    `json:"sourceFiles"`
	DefaultBranch string `json:"defaultBranch"`
	AnalyzedSha   string `json:"analyzedSha"`
	AnalyzedAt    string `json:"analyzedAt"`
	ErrorCount    int    `json:"errorCount"`
}

// Cause is one entry of an info article's commonCauses.
type Cause struct {
	Cause  string `json:"cause"`
	Detail string `json:"detail"`
}

// Info is a background article (info/<slug>.json, its own schema version 1)
// covering one error family or cluster.
type Info struct {
	Slug         string   `json:"slug"`
	ClusterKey   string   `json:"clusterKey"` // tag:<backgroundTag>, code:<errorCode> or class:<errorClass>
	Title        string   `json:"title"`
	Summary      string   `json:"summary"`
	Background   string   `json:"background"` // Markdown
	CommonCauses []Cause  `json:"commonCauses"`
	Fixes        []string `json:"fixes"`
	GuideSlugs   []string `json:"guideSlugs"`
	ErrorIDs     []string `json:"errorIds"`
	ErrorCount   int      `json:"errorCount"`
	RepoCount    int      `json:"repoCount"`
	GeneratedAt  string   `json:"generatedAt"`
}

// Family returns the backgroundTag an article covers, or "" when its
// cluster is keyed by code or class.
func (in *Info) Family() string {
	t, ok := strings.CutPrefix(in.ClusterKey, "tag:")
	if !ok {
		return ""
	}
	return t
}

// Language names the programming language of a source path from its
// extension, as shown to readers and used for filtering ("" when unknown).
func Language(filePath string) string {
	i := strings.LastIndexByte(filePath, '.')
	if i < 0 || strings.ContainsRune(filePath[i:], '/') {
		return ""
	}
	return languages[strings.ToLower(filePath[i+1:])]
}

var languages = map[string]string{
	"py": "Python", "pyi": "Python", "pyx": "Python",
	"go": "Go",
	"ts": "TypeScript", "tsx": "TypeScript", "mts": "TypeScript", "cts": "TypeScript",
	"js": "JavaScript", "jsx": "JavaScript", "mjs": "JavaScript", "cjs": "JavaScript",
	"rs":   "Rust",
	"java": "Java",
	"kt":   "Kotlin", "kts": "Kotlin",
	"scala": "Scala",
	"c":     "C", "h": "C",
	"cc": "C++", "cpp": "C++", "cxx": "C++", "hpp": "C++", "hh": "C++", "hxx": "C++",
	"cs":    "C#",
	"rb":    "Ruby",
	"php":   "PHP",
	"swift": "Swift",
	"m":     "Objective-C", "mm": "Objective-C",
	"ex": "Elixir", "exs": "Elixir",
	"erl":  "Erlang",
	"hs":   "Haskell",
	"lua":  "Lua",
	"dart": "Dart",
	"zig":  "Zig",
	"sh":   "Shell", "bash": "Shell",
	"r":  "R",
	"jl": "Julia",
	"pl": "Perl", "pm": "Perl",
}
