package render

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errdocs/errdocs"

	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/testseed"
)

// templatesDir is the module's templates folder, as the binary embeds it.
var templatesDir = errdocs.Templates

func seed(t testing.TB) *record.Record {
	t.Helper()
	b := testseed.JSON()
	var w record.Wrapped
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return &w.Record
}

// minimal returns a record with every nullable field null and every list
// empty.
func minimal(id, repo, slug string) *record.Record {
	return &record.Record{
		ID: id, Repo: repo, Slug: slug,
		ErrorMessage: "failed: " + slug, MessagePattern: "failed: .*",
		ErrorType: "panic", Severity: "warning", FilePath: "src/lib.rs",
		GithubURL:     "https://github.com/" + repo + "/blob/0/src/lib.rs",
		Documentation: "It fails.", TriggerScenarios: "When it fails.", CommonSituations: "Often.",
		AnalyzedSha: strings.Repeat("a", 40), AnalyzedAt: "2026-01-01T00:00:00Z", SchemaVersion: 2,
	}
}

func newRenderer(t testing.TB, o Options) *Renderer {
	t.Helper()
	if o.Templates == nil {
		o.Templates = templatesDir
	}
	if o.Highlighter == nil {
		h, err := highlight.New(highlight.Options{})
		if err != nil {
			t.Fatal(err)
		}
		o.Highlighter = h
	}
	o.Markdown = testMarkdown(o.Markdown)
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func build(recs []*record.Record, infos ...record.Info) *model.Model {
	var b model.Builder
	for _, r := range recs {
		b.Add(model.Summarize(r))
	}
	b.AddInfos(infos)
	return b.Build()
}

// renderAll renders every page of a site into a map from file path to HTML.
func renderAll(t testing.TB, r *Renderer, s *model.Model, recs []*record.Record) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for i, rec := range recs {
		b, err := r.Record(s, int32(i), rec)
		if err != nil {
			t.Fatalf("record %s: %v", rec.Path(), err)
		}
		out[rec.Path()+"index.html"] = b
	}
	err := r.Pages(s, func(p string, b []byte) error {
		if _, dup := out[p]; dup {
			return fmt.Errorf("page %s emitted twice", p)
		}
		out[p] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sample is a small site: the seed, a minimal record in another repo of the
// same family, and a few more.
func sample(t testing.TB) []*record.Record {
	s := seed(t)
	m := minimal("0000000000000001", "rust-lang/regex", "too-big")
	m.BackgroundTag = s.BackgroundTag
	m.Tags = []string{"resource-limit"}
	o := minimal("0000000000000002", "rust-lang/regex", "other")
	o.Tags = []string{"debugging", "jax"}
	o.Severity = "critical"
	return []*record.Record{s, m, o}
}

// dump writes a rendered site to dir when ERRDOCS_RENDER_DUMP names one,
// for looking at pages by hand.
func dump(t *testing.T, name string, pages map[string][]byte) {
	dir := os.Getenv("ERRDOCS_RENDER_DUMP")
	if dir == "" {
		return
	}
	dir = filepath.Join(dir, name)
	for p, b := range pages {
		f := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, b, 0o644)
	}
	css, err := StyleSheet(errdocs.Static)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "static"), 0o755)
	os.WriteFile(filepath.Join(dir, "static", "style.css"), css, 0o644)
	for _, f := range []string{"checklist.js", "favicon.svg"} {
		b, _ := fs.ReadFile(errdocs.Static, f)
		os.WriteFile(filepath.Join(dir, "static", f), b, 0o644)
	}
}

func TestSampleSite(t *testing.T) {
	recs := sample(t)
	s := build(recs, record.Info{Slug: "limits", ClusterKey: "tag:resource-limit-exceeded",
		Title: "Resource limits exceeded", Summary: "A fixed limit was reached.",
		Background: "Libraries cap **resources**.", CommonCauses: []record.Cause{{Cause: "Loops", Detail: "Unrolled *loops*."}},
		Fixes: []string{"Batch `work`."}, ErrorIDs: []string{recs[0].ID}, ErrorCount: 2, RepoCount: 2})
	pages := renderAll(t, newRenderer(t, Options{Title: "errdocs", Description: "Errors explained."}), s, recs)
	dump(t, "sample", pages)
	fam := string(pages["families/resource-limit-exceeded/index.html"])
	for _, want := range []string{"<h1>Resource limits exceeded</h1>", "A fixed limit was reached.", ">Background</a></h2>",
		"<strong>resources</strong>", "<dt>Loops</dt>", "<em>loops</em>", ">Fixes</a></h2>", "<code>work</code>"} {
		if !strings.Contains(fam, want) {
			t.Errorf("family page lacks %q", want)
		}
	}
	rp := string(pages[recs[0].Path()+"index.html"])
	t.Logf("seed record page: %d bytes", len(rp))
	for _, want := range []string{
		"<h1 class=\"msg\">Host callback lowering created too many channels.",
		`<h2 id="meaning"><a class="anchor" href="#meaning">What it means</a></h2>`,
		`<a href="#meaning">What it means</a>`, ">What triggers it</a></h2>", ">Common situations</a></h2>",
		">Solutions</a></h2>", ">Example fix</a></h2>", ">Handling it</a></h2>", ">Prevention checklist</a></h2>",
		"<dt>Error class</dt>", "<dt>Severity</dt>", "<dt>Repository</dt>",
		`href="https://github.com/jax-ml/jax/blob/`, `class="hl hl-n"`, `<mark class="hll">`, `data-n="913"`, `<span id="L913"><a class="ln" href="#L913" data-n="913"`, `<span id="L895">`,
		`href="https://github.com/jax-ml/jax/commit/`,
		`<h3>Validation</h3>`, `<h3>Try/catch</h3>`, `data-record="e171781a76b49a91"`,
		`<nav class="crumbs" aria-label="Breadcrumb">`, `name="q"`, `<html lang="en">`,
		`page.js`, `theme.js`, `Content-Security-Policy`,
	} {
		if !strings.Contains(rp, want) {
			t.Errorf("seed page lacks %q", want)
		}
	}
	if strings.Contains(rp, "<h3>Type guard</h3>") {
		t.Error("null typeGuard left a heading")
	}
}
