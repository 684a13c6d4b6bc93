package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/internal/testseed"
	"github.com/errdocs/errdocs/internal/testtools"
)

// runCLI runs the command in-process and returns its exit status and
// output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// contentDir is the module's sample dataset, content/.
func contentDir(t *testing.T) string {
	return filepath.Join(testtools.ModuleRoot(t), "content")
}

// seed returns the seed record as a map, to derive test records from.
func seed(t *testing.T) map[string]any {
	t.Helper()
	data := testseed.JSON()
	var w struct{ Record map[string]any }
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	return w.Record
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// variant returns a copy of the seed with a new id and slug.
func variant(t *testing.T, n int, change func(r map[string]any)) map[string]any {
	r := seed(t)
	r["id"] = strings.Repeat("0", 15) + string("0123456789abcdef"[n%16])
	r["slug"] = r["slug"].(string) + "-" + string(rune('a'+n))
	if change != nil {
		change(r)
	}
	return r
}

func TestUsage(t *testing.T) {
	if code, _, _ := runCLI(t); code != 2 {
		t.Errorf("no arguments: exit %d, want 2", code)
	}
	if code, _, errOut := runCLI(t, "frobnicate"); code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := runCLI(t, "build", "--no-such-flag"); code != 2 {
		t.Errorf("bad flag: exit %d, want 2", code)
	}
	if code, out, _ := runCLI(t, "version"); code != 0 || !strings.HasPrefix(out, "errdocs ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
	for _, cmd := range []string{"build", "check"} {
		code, _, errOut := runCLI(t, cmd, "--help")
		if code != 0 || !strings.Contains(errOut, "Usage: errdocs "+cmd) {
			t.Errorf("%s --help: exit %d, %q", cmd, code, errOut)
		}
	}
}

func TestBuildReportsRejectsAndBuildsTheRest(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	good := variant(t, 1, nil)
	bad := variant(t, 2, func(r map[string]any) {
		r["lineNumber"] = "913"
		r["severity"] = "fatal"
		r["colour"] = "red"
	})
	writeJSON(t, filepath.Join(in, "records.json"), []any{good, bad})
	os.WriteFile(filepath.Join(in, "broken.json"), []byte("[\n  {\"id\": 1,\n  }\n]"), 0o644)
	out := filepath.Join(dir, "site")
	rejects := filepath.Join(dir, "rejects.jsonl")
	code, stdout, stderr := runCLI(t, "build", in, "--out", out, "--rejects", rejects, "--quiet=false")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"records.json: record 1 (id 0000000000000002): lineNumber:",
		"records.json: record 1 (id 0000000000000002): severity:",
		"records.json: record 1 (id 0000000000000002): colour:",
		"broken.json:3:",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, "built 1, rejected 1") {
		t.Errorf("summary: %q", stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "jax-ml/jax", good["slug"].(string), "index.html")); err != nil {
		t.Errorf("good record's page missing: %v", err)
	}
	data, err := os.ReadFile(rejects)
	// The rejected record, and the file that failed whole (issue 15).
	if err != nil || bytes.Count(data, []byte("\n")) != 2 || !bytes.Contains(data, []byte(`"0000000000000002"`)) ||
		!bytes.Contains(data, []byte(`broken.json","index":-1`)) {
		t.Errorf("rejects file: %q, %v", data, err)
	}
}

func TestStrictLeavesPreviousSite(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	out := filepath.Join(dir, "site")
	writeJSON(t, in, []any{variant(t, 1, nil)})
	if code, _, stderr := runCLI(t, "build", in, "--out", out, "--quiet"); code != 0 {
		t.Fatalf("first build: exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)
	writeJSON(t, in, []any{variant(t, 1, nil), variant(t, 3, func(r map[string]any) { r["id"] = "XYZ" })})
	code, _, stderr := runCLI(t, "build", in, "--out", out, "--strict", "--quiet")
	if code != 1 {
		t.Fatalf("strict build with a reject: exit %d, want 1; stderr %s", code, stderr)
	}
	if after := snapshot(t, out); !maps(before, after) {
		t.Error("a failed strict build changed the previous site")
	}
	if code, _, _ := runCLI(t, "check", in, "--strict", "--quiet"); code != 1 {
		t.Errorf("check --strict with a reject: exit %d, want 1", code)
	}
	if code, _, _ := runCLI(t, "check", in, "--quiet"); code != 0 {
		t.Errorf("check without --strict: exit %d, want 0", code)
	}
}

func TestNothingWrittenOutsideOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	out := filepath.Join(dir, "a", "site")
	writeJSON(t, in, []any{
		variant(t, 1, func(r map[string]any) { r["repo"] = "../x" }),
		variant(t, 2, func(r map[string]any) { r["repo"] = "../../escaped" }),
		variant(t, 3, nil),
	})
	code, _, stderr := runCLI(t, "build", in, "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var outside []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		// the output's lock file stands beside it, by design
		lock := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".lock")
		if err == nil && !d.IsDir() && !strings.HasPrefix(p, out+string(filepath.Separator)) && p != in &&
			p != lock && !strings.Contains(p, ".errdocs-cache") {
			outside = append(outside, p)
		}
		return nil
	})
	if len(outside) > 0 {
		t.Errorf("files written outside the output folder: %v", outside)
	}
	if !strings.Contains(stderr, "repo:") {
		t.Errorf("hostile repo not reported: %s", stderr)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, out := range []string{a, b} {
		if code, _, stderr := runCLI(t, "build", contentDir(t), "--out", out, "--cache", filepath.Join(dir, "cache-"+filepath.Base(out)), "--quiet"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	sa, sb := snapshot(t, a), snapshot(t, b)
	if !maps(sa, sb) {
		var diff []string
		for k := range sa {
			if sa[k] != sb[k] {
				diff = append(diff, k)
			}
		}
		t.Errorf("two builds of the same input differ: %v", diff[:min(10, len(diff))])
	}
}

// TestContentSite checks the site built from content/: every record has
// its page, the binding pages exist, pages are small and no internal link
// is broken.
func TestContentSite(t *testing.T) {
	out := buildContent(t)
	files := snapshot(t, out)
	for _, p := range []string{"index.html", "404.html", "repos/index.html", "tags/index.html", "families/index.html", "search/index.html"} {
		if _, ok := files[p]; !ok {
			t.Errorf("missing %s", p)
		}
	}
	var recordSizes []int
	for p, body := range files {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		if len(body) > 250*1024 {
			t.Errorf("%s is %d bytes, over 250 KB", p, len(body))
		}
		if strings.Count(p, "/") == 3 && !strings.HasPrefix(p, "tags/") && !strings.HasPrefix(p, "families/") && !strings.Contains(p, "/page/") {
			recordSizes = append(recordSizes, len(body))
		}
		for _, link := range internalLinks(body) {
			target := resolve(p, link)
			if target == "" {
				continue
			}
			if _, ok := files[target]; !ok {
				t.Errorf("%s: broken link %q (resolves to %s)", p, link, target)
			}
		}
	}
	if len(recordSizes) < 25 {
		t.Fatalf("only %d record pages built from content/", len(recordSizes))
	}
	slices.Sort(recordSizes)
	if median := recordSizes[len(recordSizes)/2]; median > 25*1024 {
		t.Errorf("median record page is %d bytes, over 25 KB", median)
	}
}

var buildContentOnce = map[string]string{}

// buildContent builds content/ once per test binary and returns the site.
func buildContent(t *testing.T) string {
	t.Helper()
	if out, ok := buildContentOnce["content"]; ok {
		return out
	}
	dir, err := os.MkdirTemp("", "errdocs-content-")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "site")
	if code, _, stderr := runCLI(t, "build", contentDir(t), "--out", out, "--quiet"); code != 0 {
		t.Fatalf("building content/: exit %d: %s", code, stderr)
	}
	buildContentOnce["content"] = out
	return out
}

var hrefRE = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// internalLinks returns the relative URLs of a page's links and assets.
func internalLinks(page string) []string {
	var out []string
	for _, m := range hrefRE.FindAllStringSubmatch(page, -1) {
		u := strings.ReplaceAll(m[1], "&amp;", "&")
		if u == "" || strings.Contains(u, ":") || strings.HasPrefix(u, "#") || strings.HasPrefix(u, "/") {
			continue
		}
		out = append(out, u)
	}
	return out
}

// resolve turns a relative link on page p into the site file it names;
// "../" stands for a link that leaves the site, which is always broken.
func resolve(p, link string) string {
	link, _, _ = strings.Cut(link, "#")
	link, _, _ = strings.Cut(link, "?")
	if link == "" {
		return p
	}
	if u, err := url.PathUnescape(link); err == nil {
		link = u
	}
	target := path.Join(path.Dir(p), link)
	if target == ".." || strings.HasPrefix(target, "../") {
		return "../"
	}
	if strings.HasSuffix(link, "/") || link == "." || link == ".." || strings.HasSuffix(link, "/..") {
		target = path.Join(target, "index.html")
	}
	return target
}

// snapshot reads every file of a folder: path → content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestReportsUnusablePatterns: content/ holds one messagePattern with a
// backreference, which the browser's linear-time matcher cannot run; the
// build says so.
func TestReportsUnusablePatterns(t *testing.T) {
	code, stdout, stderr := runCLI(t, "build", contentDir(t), "--out", filepath.Join(t.TempDir(), "site"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "1 message patterns cannot run") {
		t.Errorf("summary does not report the unusable pattern:\n%s", stdout)
	}
}
