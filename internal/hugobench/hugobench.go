// Package hugobench turns an errdocs dataset (an export folder of
// repos/<owner>/<name>.json files) into a Hugo site with the same
// highlighting options errdocs uses, so the two can be timed on the same
// records.
//
// Every record becomes content/<owner>/<name>/<slug>.md: JSON front matter
// (title, tags, family, repo, severity) and a Markdown body holding the
// documentation, the source excerpt as a fenced code block with line
// numbers from sourceCodeStart and the raising line marked (hl_lines), and
// each code field (exampleFix, validationCode, typeGuard, tryCatchPattern)
// as a fenced code block without line numbers, as errdocs shows them. The
// language comes from the file extension, as in errdocs. Owners and repos
// get an _index.md, so Hugo makes paginated listing pages for them as
// errdocs does; tags and backgroundTag (families) are taxonomies.
package hugobench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/errdocs/errdocs/generator/record"
)

// Config is the site configuration (config.toml). The highlighting options
// are those the benchmark compares: CSS classes, line numbers inline.
const Config = `baseURL = "https://errors.example.org/"
title = "errdocs benchmark (Hugo)"
languageCode = "en"
paginate = 100
enableRobotsTXT = true
disableHugoGeneratorInject = true

[taxonomies]
  tag = "tags"
  family = "families"

[outputs]
  home = ["HTML", "RSS"]
  section = ["HTML"]
  taxonomy = ["HTML"]
  term = ["HTML"]

[markup.highlight]
  codeFences = true
  guessSyntax = false
  noClasses = false
  lineNos = true
  lineNumbersInTable = false
`

// SingleLayout renders one record page: its title and content.
const SingleLayout = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ .Site.Title }}</title></head>
<body><main>
<h1>{{ .Title }}</h1>
<p>{{ .Params.repo }} · {{ .Params.severity }}{{ range .Params.tags }} · <a href="{{ (printf "/tags/%s/" (. | urlize)) | relURL }}">{{ . }}</a>{{ end }}</p>
{{ .Content }}
</main></body></html>
`

// ListLayout renders home, section (owner, repo) and taxonomy pages: a
// paginated list of links.
const ListLayout = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ .Site.Title }}</title></head>
<body><main>
<h1>{{ .Title }}</h1>
{{ .Content }}
<ul>
{{ range (.Paginate .Pages).Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}</ul>
{{ with .Paginator }}{{ if .HasPrev }}<a href="{{ .Prev.URL }}">previous</a>{{ end }} {{ if .HasNext }}<a href="{{ .Next.URL }}">next</a>{{ end }}{{ end }}
</main></body></html>
`

// Stats says what Write made.
type Stats struct {
	Records int // record pages
	Repos   int // repo files read
}

// Write makes the Hugo site for the export folder dataset in siteDir,
// replacing siteDir/content and siteDir/layouts. Repo files are converted
// in parallel by workers goroutines (the number of cores if < 1).
func Write(dataset, siteDir string, workers int) (Stats, error) {
	var st Stats
	files, err := RepoFiles(dataset)
	if err != nil {
		return st, err
	}
	if len(files) == 0 {
		return st, fmt.Errorf("hugobench: no repos/<owner>/<name>.json files in %s", dataset)
	}
	for _, d := range []string{"content", "layouts", "public", "resources"} {
		if err := os.RemoveAll(filepath.Join(siteDir, d)); err != nil {
			return st, err
		}
	}
	for name, text := range map[string]string{
		"config.toml":                  Config,
		"layouts/_default/single.html": SingleLayout,
		"layouts/_default/list.html":   ListLayout,
	} {
		p := filepath.Join(siteDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return st, err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return st, err
		}
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	content := filepath.Join(siteDir, "content")
	var (
		n       atomic.Int64
		wg      sync.WaitGroup
		mu      sync.Mutex
		errs    []error
		owners  sync.Map
		jobs    = make(chan string)
		addErrs = func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				k, owner, err := convertRepo(f, content)
				if err != nil {
					addErrs(err)
					continue
				}
				n.Add(int64(k))
				owners.Store(owner, true)
			}
		}()
	}
	for _, f := range files {
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return st, err
	}
	var ownerErr error
	owners.Range(func(k, _ any) bool {
		o := k.(string)
		ownerErr = writeIndex(filepath.Join(content, o), o)
		return ownerErr == nil
	})
	if ownerErr != nil {
		return st, ownerErr
	}
	if err := writeIndex(content, "Error reference"); err != nil {
		return st, err
	}
	st.Records = int(n.Load())
	st.Repos = len(files)
	return st, nil
}

// RepoFiles lists the record files of an export folder, sorted.
func RepoFiles(dataset string) ([]string, error) {
	var files []string
	root := filepath.Join(dataset, "repos")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func writeIndex(dir, title string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fm, _ := json.Marshal(map[string]string{"title": title})
	return os.WriteFile(filepath.Join(dir, "_index.md"), append(fm, '\n'), 0o644)
}

// convertRepo writes one repo file's records and the repo's _index.md; it
// returns how many records it wrote and the repo's owner.
func convertRepo(file, content string) (int, string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, "", err
	}
	var recs []record.Record
	if err := json.Unmarshal(data, &recs); err != nil {
		return 0, "", fmt.Errorf("hugobench: %s: %w", file, err)
	}
	if len(recs) == 0 {
		return 0, "", nil
	}
	owner, name := recs[0].Owner(), recs[0].Name()
	dir := filepath.Join(content, owner, name)
	if err := writeIndex(dir, recs[0].Repo); err != nil {
		return 0, "", err
	}
	var b strings.Builder
	for i := range recs {
		r := &recs[i]
		if r.Slug == "" || strings.ContainsAny(r.Slug, `/\`) || r.Repo != recs[0].Repo {
			continue // the build rejects these too
		}
		b.Reset()
		Page(&b, r)
		if err := os.WriteFile(filepath.Join(dir, r.Slug+".md"), []byte(b.String()), 0o644); err != nil {
			return 0, "", err
		}
	}
	return len(recs), owner, nil
}

// Page writes a record's Hugo page: JSON front matter and Markdown body.
func Page(b *strings.Builder, r *record.Record) {
	fm := map[string]any{
		"title":    r.ErrorMessage,
		"url":      "/" + r.Path(),
		"repo":     r.Repo,
		"severity": r.Severity,
		"tags":     r.Tags,
	}
	if r.BackgroundTag != "" {
		fm["families"] = []string{r.BackgroundTag}
	}
	if r.AnalyzedAt != "" {
		fm["date"] = r.AnalyzedAt
	}
	j, _ := json.MarshalIndent(fm, "", "  ")
	b.Write(j)
	b.WriteString("\n\n")
	lang := Lang(r.FilePath)

	b.WriteString(r.Documentation)
	b.WriteString("\n\n")
	if strings.TrimSpace(r.SourceCode) != "" {
		start := max(r.SourceCodeStart, 1)
		fmt.Fprintf(b, "## Source: `%s`\n\n", strings.ReplaceAll(r.FilePath, "`", ""))
		attrs := fmt.Sprintf("linenostart=%d", start)
		if r.LineNumber >= start {
			attrs += fmt.Sprintf(",hl_lines=[%d]", r.LineNumber-start+1)
		}
		fence(b, lang, attrs, r.SourceCode)
	}
	section(b, "When it happens", r.TriggerScenarios)
	section(b, "Common situations", r.CommonSituations)
	list(b, "Solutions", r.Solutions)
	for _, c := range []struct{ title, code string }{
		{"Example fix", r.ExampleFix},
		{"Validation", r.ValidationCode},
		{"Type guard", r.TypeGuard},
		{"Handling", r.TryCatchPattern},
	} {
		code := strings.TrimLeft(c.code, "\r\n")
		if strings.TrimSpace(code) == "" {
			continue
		}
		fmt.Fprintf(b, "## %s\n\n", c.title)
		fence(b, lang, "linenos=false", code)
	}
	list(b, "Prevention", r.PreventionTips)
}

func section(b *strings.Builder, title, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	fmt.Fprintf(b, "## %s\n\n%s\n\n", title, text)
}

func list(b *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "## %s\n\n", title)
	for _, it := range items {
		b.WriteString("- ")
		b.WriteString(strings.ReplaceAll(strings.TrimSpace(it), "\n", "\n  "))
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// fence writes code as a fenced block longer than any backtick run in it.
func fence(b *strings.Builder, lang, attrs, code string) {
	run, longest := 0, 0
	for _, c := range []byte(code) {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	fmt.Fprintf(b, "%s%s {%s}\n%s\n%s\n\n", f, lang, attrs, strings.TrimRight(code, "\n"), f)
}

// Lang gives the fence language for a source path: its extension, which
// chroma resolves the way errdocs does (by file name pattern), with the
// same overrides; "text" when there is none.
func Lang(filePath string) string {
	base := path.Base(strings.ReplaceAll(filePath, "\\", "/"))
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || i == len(base)-1 {
		return "text"
	}
	ext := strings.ToLower(base[i+1:])
	switch ext {
	case "m", "mm":
		return "objective-c"
	}
	for _, c := range []byte(ext) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '_' || c == '-') {
			return "text"
		}
	}
	return ext
}
