package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	errdocs "github.com/errdocs/errdocs"
)

// A rebuild keeps the sitemap files when no page they list changed its
// path or lastmod (a documentation edit), and writes them again when one
// did (a new analyzedAt); the files kept are the ones written.
func TestSitemapsKeptUnlessTheirPagesChanged(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in")
	// Distinct errors (message, pattern, code): each record is canonical,
	// so each page is listed.
	distinct := func(k int, more func(map[string]any)) map[string]any {
		return seedRecord(t, k, func(r map[string]any) {
			r["errorMessage"] = fmt.Sprintf("Host callback lowering created %d channels", 70000+k)
			r["messagePattern"] = fmt.Sprintf(`Host callback lowering created %d channels`, 70000+k)
			if _, ok := r["errorCode"]; ok {
				r["errorCode"] = fmt.Sprintf("E%d", k)
			}
			if more != nil {
				more(r)
			}
		})
	}
	var recs []any
	for k := range 12 {
		recs = append(recs, distinct(k, nil))
	}
	file := filepath.Join(in, "r.json")
	writeRecords(t, file, recs...)
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	build := func() *Report {
		t.Helper()
		return runConfig(t, Config{Paths: []string{in}, Out: out, CacheDir: filepath.Join(dir, "cache"),
			Templates: errdocs.Templates, Static: errdocs.Static, BaseURL: "https://errors.example.org/docs"}).rep
	}
	sitemap := filepath.Join(out, "sitemaps", "sitemap-0.xml")
	look := func() (os.FileInfo, string) {
		t.Helper()
		fi, err := os.Lstat(sitemap)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(sitemap)
		if err != nil {
			t.Fatal(err)
		}
		return fi, string(b)
	}
	if build().SitemapsKept {
		t.Fatal("a cold build kept sitemaps")
	}
	fi0, text0 := look()
	recs[4] = distinct(4, func(r map[string]any) { r["documentation"] = r["documentation"].(string) + " Edited." })
	writeRecords(t, file, recs...)
	if !build().SitemapsKept {
		t.Error("a documentation edit made the sitemaps again")
	}
	if fi1, text1 := look(); !os.SameFile(fi0, fi1) || !fi1.ModTime().Equal(fi0.ModTime()) || text1 != text0 {
		t.Fatalf("a documentation edit rewrote the sitemap: same file %v, same mtime %v, same text %v\n%s\n%s", os.SameFile(fi0, fi1), fi1.ModTime().Equal(fi0.ModTime()), text1 == text0, text0, text1)
	}
	const when = "2031-05-06T07:08:09Z"
	recs[4] = distinct(4, func(r map[string]any) { r["analyzedAt"] = when })
	writeRecords(t, file, recs...)
	if build().SitemapsKept {
		t.Error("a new analyzedAt kept the sitemaps")
	}
	if _, text2 := look(); !strings.Contains(text2, "<lastmod>"+when+"</lastmod>") {
		t.Fatalf("a new analyzedAt is not in the sitemap:\n%s", text2)
	}
	// A record page's path is its repo and slug: a new slug, the same
	// times, makes the files again.
	recs[5] = distinct(5, func(r map[string]any) { r["slug"] = "renamed-page-five" })
	writeRecords(t, file, recs...)
	if build().SitemapsKept {
		t.Error("a renamed record page kept the sitemaps")
	}
	if _, text3 := look(); !strings.Contains(text3, "/renamed-page-five/</loc>") {
		t.Fatalf("a renamed record page is not in the sitemap:\n%s", text3)
	}
}
