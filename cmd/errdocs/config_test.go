package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportURLSetting: reportURL in the config file gives record pages a
// "Report a problem with this page" link with the record's values filled
// in; the flag overrides it; a URL that is not http, https or mailto is a
// usage error; without it there is no link.
func TestReportURLSetting(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in", "seed.json")
	writeJSON(t, in, seed(t))
	r := seed(t)
	page := filepath.Join(r["repo"].(string), r["slug"].(string), "index.html")
	cfg := filepath.Join(dir, "errdocs.toml")
	build := func(args ...string) (int, string, string) {
		out := filepath.Join(dir, "site")
		code, _, errOut := runCLI(t, append([]string{"build", in, "--out", out, "--quiet", "--config", cfg}, args...)...)
		b, _ := os.ReadFile(filepath.Join(out, page))
		return code, string(b), errOut
	}
	os.WriteFile(cfg, []byte(`reportURL = "https://example.org/report?id={id}&repo={repo}&page={url}"`+"\n"), 0o644)
	code, html, errOut := build()
	want := `href="https://example.org/report?id=` + r["id"].(string) + `&amp;repo=` + strings.ReplaceAll(r["repo"].(string), "/", "%2F") +
		`&amp;page=` + strings.ReplaceAll(r["repo"].(string), "/", "%2F") + `%2F` + r["slug"].(string) + `%2F">Report a problem with this page</a>`
	if code != 0 || !strings.Contains(html, want) {
		t.Errorf("config reportURL: exit %d (%s); page lacks %s", code, errOut, want)
	}
	code, html, _ = build("--report-url", "mailto:docs@example.org?subject={id}")
	if code != 0 || !strings.Contains(html, `href="mailto:docs@example.org?subject=`+r["id"].(string)+`"`) {
		t.Errorf("--report-url overrides the config: exit %d, no mailto link", code)
	}
	if code, _, errOut := build("--report-url", "javascript:alert({id})"); code != 2 || !strings.Contains(errOut, "report URL") {
		t.Errorf("a javascript: report URL: exit %d (%q), want a usage error", code, errOut)
	}
	os.WriteFile(cfg, []byte(`title = "x"`+"\n"), 0o644)
	if code, html, _ := build(); code != 0 || strings.Contains(html, "Report a problem") {
		t.Errorf("without reportURL: exit %d, the page has a report link: %v", code, strings.Contains(html, "Report a problem"))
	}
}
