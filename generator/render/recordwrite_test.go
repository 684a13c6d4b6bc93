package render

import (
	"bytes"
	"fmt"
	"html/template"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
)

// TestRecordTemplatesAreTheWrittenOnes fails when record.html, layout.html
// or partials.html change without writeRecord: the build would fall back
// to html/template for every record page, a fifth of a cold build's CPU.
func TestRecordTemplatesAreTheWrittenOnes(t *testing.T) {
	if got := templatesSum(templatesDir); got != recordTemplatesSum {
		t.Fatalf("the record page's templates changed: change writeRecord (recordwrite.go) to write what they write "+
			"(TestRecordWriterMatchesTemplates compares the two), then set recordTemplatesSum to %q", got)
	}
	if r := newRenderer(t, Options{}); !r.writeRecords {
		t.Fatal("a renderer of the embedded templates does not write record pages itself")
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

// TestRecordWriterMatchesTemplates renders every record page twice, by
// writeRecord and by html/template, under each kind of site (hosted with a
// base URL, without one, the offline bundle, a report link, no Markdown or
// highlighter): the bytes must be the same.
func TestRecordWriterMatchesTemplates(t *testing.T) {
	recs := writerRecords(t)
	s := build(recs)
	for _, o := range []Options{
		{BaseURL: "https://errors.example.org/docs/", Title: "Errors & <Co>", Description: "All the errors + fixes"},
		{},
		{IndexFile: true, ReportURL: "https://github.com/o/r/issues/new?title={title}&body={url}+{id}"},
		{BaseURL: "http://x.example/", Markdown: rawText{}, Highlighter: rawCode{}},
	} {
		t.Run(fmt.Sprintf("base=%q,index=%v", o.BaseURL, o.IndexFile), func(t *testing.T) {
			written := newRenderer(t, o)
			executed := newRenderer(t, o)
			executed.writeRecords = false
			if !written.writeRecords {
				t.Fatal("the renderer does not write record pages itself")
			}
			for i, rec := range recs {
				want, err := executed.Record(s, int32(i), rec)
				if err != nil {
					t.Fatal(err)
				}
				got, err := written.Record(s, int32(i), rec)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("record %d (%s): written page differs from html/template's at byte %d:\nwritten:  %q\ntemplate: %q",
						i, rec.ID, firstDiff(got, want), around(got, firstDiff(got, want)), around(want, firstDiff(got, want)))
				}
			}
		})
	}
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
