package hugobench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
)

func TestPage(t *testing.T) {
	r := &record.Record{
		ID: "abc", Repo: "acme/lib", Slug: "boom", ErrorMessage: "boom: it broke",
		Severity: "error", FilePath: "pkg/x.go", LineNumber: 12, SourceCodeStart: 10,
		SourceCode: "a := 1\nb := 2\npanic(\"boom ```\")\n", Documentation: "It *broke*.",
		ExampleFix: "\n\nfix()", Tags: []string{"io"}, BackgroundTag: "panic",
	}
	var b strings.Builder
	Page(&b, r)
	got := b.String()
	for _, want := range []string{
		`"url": "/acme/lib/boom/"`,
		`"families": [`,
		"````go {linenostart=10,hl_lines=[3]}\na := 1\n",
		"```go {linenos=false}\nfix()\n```",
		"It *broke*.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("page lacks %q:\n%s", want, got)
		}
	}
}

func TestLang(t *testing.T) {
	for in, want := range map[string]string{"a/b.py": "py", "x.M": "objective-c", "Makefile": "text", "a.b/c": "text", "x.c++": "c++", "y.t$": "text"} {
		if got := Lang(in); got != want {
			t.Errorf("Lang(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrite(t *testing.T) {
	ds := t.TempDir()
	if err := corpus.Generate(200, 2).WriteExport(ds, false); err != nil {
		t.Fatal(err)
	}
	site := t.TempDir()
	st, err := Write(ds, site, 2)
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 200 {
		t.Errorf("wrote %d records, want 200", st.Records)
	}
	var pages int
	filepath.WalkDir(filepath.Join(site, "content"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, "_index.md") {
			pages++
		}
		return err
	})
	if pages != 200 {
		t.Errorf("%d content pages, want 200", pages)
	}
	for _, f := range []string{"config.toml", "layouts/_default/single.html", "layouts/_default/list.html", "content/_index.md"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Error(err)
		}
	}
}
