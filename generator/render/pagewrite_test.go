package render

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
)

// TestWrittenTemplatesAreTheWritersOwn fails when a written page's
// templates change without its writer: the build would fall back to
// html/template for every such page, a fifth of a cold build's CPU.
func TestWrittenTemplatesAreTheWritersOwn(t *testing.T) {
	for name, w := range pageWriters {
		if got := templatesSum(templatesDir, name); got != w.sum {
			t.Errorf("the templates of %s changed: change its writer to write what they write "+
				"(TestWritersMatchTemplates compares the two), then set its sum in pageWriters to %q", name, got)
		}
	}
	r := newRenderer(t, Options{})
	for name := range pageWriters {
		if !r.written[name] {
			t.Errorf("a renderer of the embedded templates does not write %s itself", name)
		}
	}
}

// writerRecords are records of every shape a page takes: the seed, records
// with null fields, hostile ones (with hostile names too), and generated
// records with their messy text and related records across repos.
func writerRecords(t *testing.T) []*record.Record {
	recs := sample(t)
	recs = append(recs, hostile("00000000000000a1", false), hostile("00000000000000a2", true))
	odd := minimal("00000000000000a3", "o/r", "odd")
	odd.GithubURL = "https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/a%20b/c+d.go#L3-L9"
	odd.LineNumber, odd.HTTPStatus, odd.AnalyzedSha = 5, 404, "ünïcödé-sha-longer-than-twelve"
	odd.Solutions, odd.PreventionTips = []string{"", "a & b"}, []string{"x < y"}
	odd.HandlingStrategy = "retry + back off"
	recs = append(recs, odd)
	gen := corpus.Generate(400, 3).Records()
	for i := range gen {
		recs = append(recs, &gen[i])
	}
	return recs
}

// TestWritersMatchTemplates renders every page twice, by the writers and
// by html/template, under each kind of site (hosted with a base URL,
// without one, the offline bundle, a report link, short listing pages, no
// Markdown or highlighter): the bytes must be the same.
func TestWritersMatchTemplates(t *testing.T) {
	recs := writerRecords(t)
	s := build(recs, hostileInfo(), record.Info{Slug: "plain", ClusterKey: "tag:" + recs[0].BackgroundTag,
		Title: "", Summary: "", Fixes: []string{"Retry."}, ErrorIDs: []string{recs[0].ID}, ErrorCount: 1, RepoCount: 1})
	for _, o := range []Options{
		{BaseURL: "https://errors.example.org/docs/", Title: "Errors & <Co>", Description: "All the errors + fixes"},
		{PerPage: 2},
		{IndexFile: true, PerPage: 3, ReportURL: "https://github.com/o/r/issues/new?title={title}&body={url}+{id}"},
		{BaseURL: "http://x.example/", Markdown: rawText{}, Highlighter: rawCode{}},
	} {
		t.Run(fmt.Sprintf("base=%q,index=%v,per=%d", o.BaseURL, o.IndexFile, o.PerPage), func(t *testing.T) {
			written := newRenderer(t, o)
			executed := newRenderer(t, o)
			executed.written = map[string]bool{}
			for name := range pageWriters {
				if !written.written[name] {
					t.Fatalf("the renderer does not write %s itself", name)
				}
			}
			want := renderAll(t, executed, s, recs)
			got := renderAll(t, written, s, recs)
			if len(got) != len(want) {
				t.Fatalf("%d pages written, %d executed", len(got), len(want))
			}
			kinds := map[string]int{}
			for path, w := range want {
				g := got[path]
				if !bytes.Equal(g, w) {
					i := firstDiff(g, w)
					t.Fatalf("%s: written page differs from html/template's at byte %d:\nwritten:  %q\ntemplate: %q",
						path, i, around(g, i), around(w, i))
				}
				kinds[pageKind(path)]++
			}
			for _, k := range []string{"record", "repo", "tag", "family", "page 2"} {
				if kinds[k] == 0 {
					t.Errorf("no %s page compared (%v)", k, kinds)
				}
			}
		})
	}
}

// pageKind names what a page path holds, to count the kinds compared.
func pageKind(path string) string {
	switch {
	case strings.Contains(path, "/page/"):
		return "page 2"
	case strings.HasPrefix(path, "tags/"):
		return "tag"
	case strings.HasPrefix(path, "families/"):
		return "family"
	case strings.Count(path, "/") == 3:
		return "record"
	case strings.Count(path, "/") == 2:
		return "repo"
	}
	return "other"
}

// rawText and rawCode stand for a site without Markdown or a
// highlighter configured by the test helper: nil fields are replaced
// there, so these give the plain output through the interfaces.
type rawText struct{}

func (rawText) Render(src string) (template.HTML, error) {
	return template.HTML("<p>" + string(appendHTML(nil, src)) + "</p>"), nil
}

type rawCode struct{}

func (rawCode) Excerpt(code, _ string, _, _ int) (template.HTML, error) {
	return template.HTML("<pre>" + string(appendHTML(nil, code)) + "</pre>"), nil
}

func (rawCode) Code(code, _ string) (template.HTML, error) {
	return template.HTML("<pre><code>" + string(appendHTML(nil, code)) + "</code></pre>"), nil
}

func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func around(b []byte, i int) string {
	return string(b[max(i-80, 0):min(i+80, len(b))])
}
