package pipeline

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	errdocs "github.com/errdocs/errdocs"
	"github.com/errdocs/errdocs/internal/cachefile"
)

// The minified stylesheet and scripts are kept in the cache: a rebuild
// publishes what the kept file holds when it was made from the same bytes
// by the same binary, and minifies again a script whose source changed.
func TestMinifiedAssetsKept(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in")
	writeRecords(t, filepath.Join(in, "r.json"), seedRecord(t, 0, nil))
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	static := fstest.MapFS{}
	fs.WalkDir(errdocs.Static, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(errdocs.Static, p)
			static[p] = &fstest.MapFile{Data: data}
		}
		return err
	})
	script := func(src string) string {
		t.Helper()
		static["page.js"] = &fstest.MapFile{Data: []byte(src)}
		o := runConfig(t, Config{Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: cache,
			Templates: errdocs.Templates, Static: static, Verify: true}) // Verify: never the no-change path
		for rel := range o.files {
			if strings.HasPrefix(rel, "static/page.") && strings.HasSuffix(rel, ".js") {
				data, err := os.ReadFile(filepath.Join(dir, "site", filepath.FromSlash(rel)))
				if err != nil {
					t.Fatal(err)
				}
				return string(data)
			}
		}
		t.Fatal("no static/page.*.js published")
		return ""
	}
	const first = "(function () {\n  // a comment minifying drops\n  var answer = 40 + 2;\n  window.answer = answer;\n})();\n"
	got := script(first)
	if strings.Contains(got, "comment") || !strings.Contains(got, "42") {
		t.Fatalf("page.js not minified: %q", got)
	}
	// The kept file, made for these bytes, is what the next build
	// publishes: given other contents under the same key, they appear.
	key, ok := assetKey("page.js", []byte(first))
	if !ok {
		t.Fatal("no key: the binary could not be hashed")
	}
	kept := filepath.Join(cache, "assets", assetFile("page.js"))
	const planted = "window.answer=43;"
	if err := cachefile.WriteFile(kept, cachefile.Seal(append(append(cachefile.Begin(nil, assetKind, assetVersion), key[:]...), planted...))); err != nil {
		t.Fatal(err)
	}
	if got := script(first); got != planted {
		t.Fatalf("rebuild published %q, not the kept %q", got, planted)
	}
	// Another source is minified again, not served the kept file.
	if got := script(strings.Replace(first, "40 + 2", "40 + 7", 1)); !strings.Contains(got, "47") || got == planted {
		t.Fatalf("changed page.js published as %q", got)
	}
}
