package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/errdocs/errdocs/internal/corpus"
)

// fileTimes maps every file of a folder to its modification time.
func fileTimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = fi.ModTime()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRebuildOnlyWhatChanged builds a small dataset, then rebuilds it with
// nothing changed, with one record's documentation changed, and with one
// record removed, checking what each rebuild touched.
func TestRebuildOnlyWhatChanged(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	out := filepath.Join(dir, "site")
	var recs []any
	for n := 1; n <= 6; n++ {
		recs = append(recs, variant(t, n, nil))
	}
	writeJSON(t, in, recs)
	build := func(flags ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, append([]string{"build", in, "--out", out}, flags...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stdout
	}
	build()
	// A page edited in the site by hand and another deleted: a rebuild
	// with its input unchanged trusts the site and looks at no page (the
	// no-change fast path, as make and Hugo do); one with --verify puts
	// both back as built.
	hand := "jax-ml/jax/" + recs[0].(map[string]any)["slug"].(string) + "/index.html"
	lost := "jax-ml/jax/" + recs[1].(map[string]any)["slug"].(string) + "/index.html"
	built, _ := os.ReadFile(filepath.Join(out, hand))
	if err := os.WriteFile(filepath.Join(out, hand), append(append([]byte(nil), built...), "<!-- by hand -->"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, lost)); err != nil {
		t.Fatal(err)
	}
	if sum := build(); !strings.Contains(sum, " 0 files written") {
		t.Errorf("no-change rebuild wrote files: %s", sum)
	}
	if _, err := os.Stat(filepath.Join(out, lost)); err == nil {
		t.Errorf("a no-change rebuild looked at the site's pages")
	}
	build("--verify")
	if data, _ := os.ReadFile(filepath.Join(out, hand)); string(data) != string(built) {
		t.Errorf("a page edited by hand in the site was not rebuilt")
	}
	if _, err := os.Stat(filepath.Join(out, lost)); err != nil {
		t.Errorf("a page deleted from the site was not rebuilt: %v", err)
	}

	// Make every timestamp old, so a rewrite cannot hide in the same tick.
	old := time.Now().Add(-time.Hour)
	for rel := range fileTimes(t, out) {
		os.Chtimes(filepath.Join(out, rel), old, old)
	}
	before := fileTimes(t, out)

	if sum := build(); !strings.Contains(sum, " 0 files written") {
		t.Errorf("no-change rebuild wrote files: %s", sum)
	}
	if after := fileTimes(t, out); len(after) != len(before) {
		t.Errorf("no-change rebuild: %d files, was %d", len(after), len(before))
	} else {
		for rel, mt := range before {
			if !after[rel].Equal(mt) {
				t.Errorf("no-change rebuild touched %s", rel)
			}
		}
	}

	// One record's documentation changes: its page changes, most pages not.
	changed := recs[2].(map[string]any)
	changed["documentation"] = changed["documentation"].(string) + " A new closing sentence."
	writeJSON(t, in, recs)
	code, stats, stderr := runCLI(t, "build", in, "--out", out, "--stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The search export redid only what the record touched, and wrote
	// what a build from nothing writes.
	if !strings.Contains(stats, "search export: incremental") {
		t.Errorf("the one-change rebuild's search export was not incremental:\n%s", stats)
	}
	// ... and on its own goroutine, begun before the site model (the
	// stage table then ends the export after the listings).
	if !strings.Contains(stats, "export (rest)") {
		t.Errorf("the one-change rebuild did not export early:\n%s", stats)
	}
	// It says why it could not be a no-change build, and what it cost
	// the machine.
	if !strings.Contains(stats, "no change: not taken: input files changed since the last build: 1 changed, 0 new, 0 gone (first: "+in) {
		t.Errorf("the one-change rebuild does not say which input changed:\n%s", stats)
	}
	if runtime.GOOS == "linux" && !regexp.MustCompile(`(?m)^process: .+ user, .+ system; peak resident [0-9.]+ [KMG]B; [1-9][0-9]* page faults$`).MatchString(stats) {
		t.Errorf("the rebuild's stats do not say what the process cost:\n%s", stats)
	}
	if runtime.GOOS == "linux" && !regexp.MustCompile(`(?m)^anonymous memory resident at each stage's end \(heap, stacks; not mapped files\): read\+validate [0-9.]+ [KMG]B, .*write [0-9.]+ [KMG]B$`).MatchString(stats) {
		t.Errorf("the rebuild's stats do not say what memory each stage left resident:\n%s", stats)
	}
	fresh := filepath.Join(dir, "fresh")
	if code, _, stderr := runCLI(t, "build", in, "--out", fresh, "--cache", filepath.Join(dir, "fresh-cache")); code != 0 {
		t.Fatalf("fresh build: exit %d: %s", code, stderr)
	}
	// So did the rest of the site: every file as a fresh build makes it
	// (the build marker, which names the build, aside).
	got, want := fileTimes(t, out), fileTimes(t, fresh)
	for rel := range got {
		if _, ok := want[rel]; !ok && rel != ".errdocs-site" {
			t.Errorf("%s: after the rebuild, not in a fresh build", rel)
		}
	}
	for rel := range want {
		if rel == ".errdocs-site" {
			continue
		}
		a, err := os.ReadFile(filepath.Join(out, rel))
		b, _ := os.ReadFile(filepath.Join(fresh, rel))
		if err != nil || string(a) != string(b) {
			t.Errorf("%s differs from a fresh build's (%v)", rel, err)
		}
	}
	after := fileTimes(t, out)
	page := "jax-ml/jax/" + changed["slug"].(string) + "/index.html"
	if after[page].Equal(before[page]) {
		t.Errorf("the changed record's page %s was not rewritten", page)
	}
	if data, _ := os.ReadFile(filepath.Join(out, page)); !strings.Contains(string(data), "A new closing sentence.") {
		t.Errorf("the changed record's page does not show the change")
	}
	var rewritten []string
	for rel, mt := range before {
		if !after[rel].Equal(mt) {
			rewritten = append(rewritten, rel)
		}
	}
	for _, other := range recs {
		if o := other.(map[string]any); o["id"] != changed["id"] {
			p := "jax-ml/jax/" + o["slug"].(string) + "/index.html"
			if !after[p].Equal(before[p]) {
				t.Errorf("an unchanged record's page %s was rewritten", p)
			}
		}
	}
	if len(rewritten) > len(before)/2 {
		t.Errorf("one changed record rewrote %d of %d files: %v", len(rewritten), len(before), rewritten)
	}

	// One record is removed: its page and its search entries go.
	gone := recs[4].(map[string]any)
	recs = append(recs[:4], recs[5:]...)
	writeJSON(t, in, recs)
	build()
	gonePage := filepath.Join(out, "jax-ml/jax", gone["slug"].(string))
	if _, err := os.Stat(gonePage); !os.IsNotExist(err) {
		t.Errorf("removed record's page folder survived: %v", err)
	}
	filepath.Walk(filepath.Join(out, "search"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), gone["id"].(string)) || strings.Contains(string(data), gone["slug"].(string)) {
				t.Errorf("removed record still in search file %s", p)
			}
		}
		return nil
	})
	for rel := range fileTimes(t, out) {
		data, _ := os.ReadFile(filepath.Join(out, rel))
		if strings.HasSuffix(rel, ".html") && strings.Contains(string(data), gone["slug"].(string)+"/") {
			t.Errorf("%s still links to the removed record", rel)
		}
	}
}

// TestTemplatesOverride builds with one template replaced from disk: pages
// use it, and the other templates fall back to the built-in ones.
func TestTemplatesOverride(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	writeJSON(t, in, []any{variant(t, 1, nil)})
	tmpl := filepath.Join(dir, "tmpl")
	os.MkdirAll(tmpl, 0o755)
	os.WriteFile(filepath.Join(tmpl, "404.html"), []byte(`{{define "main"}}<h1>Custom lost page</h1>{{end}}`), 0o644)
	out := filepath.Join(dir, "site")
	if code, _, stderr := runCLI(t, "build", in, "--out", out, "--templates", tmpl, "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "404.html")); !strings.Contains(string(data), "Custom lost page") {
		t.Error("404.html does not use the template from --templates")
	}
	if data, _ := os.ReadFile(filepath.Join(out, "index.html")); !strings.Contains(string(data), "<main") {
		t.Error("home page lost its built-in template")
	}
	if code, _, _ := runCLI(t, "build", in, "--out", out, "--templates", filepath.Join(dir, "nope")); code != 2 {
		t.Errorf("missing --templates folder: exit %d, want 2", code)
	}
}

// TestOneChangePatchesCaches rebuilds a generated dataset after one
// record's documentation grew by a sentence: the page cache, whose tables
// of every record keep their length, and the search export's state,
// whose doc sets keep their places, are patched where they stand (the
// same files, not ones written anew), and the site is the one a cold
// build of the edited dataset makes. Two edits in a row are checked, so
// that patched files are patched again.
func TestOneChangePatchesCaches(t *testing.T) {
	dir := t.TempDir()
	data := generated(t, dir, "data", 3000, 5)
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, "cache")
	build := func(out, cache string) {
		t.Helper()
		if code, _, stderr := runCLI(t, "build", data, "--out", out, "--cache", cache, "--quiet"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	build(out, cache)
	pageCache := func() os.FileInfo {
		t.Helper()
		paths, _ := filepath.Glob(filepath.Join(cache, "pages", "*"))
		var found []os.FileInfo
		for _, p := range paths {
			if fi, err := os.Stat(p); err == nil && filepath.Ext(p) == "" {
				found = append(found, fi)
			}
		}
		if len(found) != 1 {
			t.Fatalf("%d page caches in %s (%v), want 1", len(found), cache, paths)
		}
		return found[0]
	}
	repos, _ := filepath.Glob(filepath.Join(data, "repos", "*", "*.json"))
	if len(repos) < 2 {
		t.Fatalf("%d repo files in the generated dataset", len(repos))
	}
	for k, repo := range repos[:2] {
		before := pageCache()
		stateBefore, err := os.Stat(filepath.Join(cache, "index", "export.state"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(repo)
		if err != nil {
			t.Fatal(err)
		}
		loc := regexp.MustCompile(`"documentation"\s*:\s*"`).FindIndex(b)
		if loc == nil {
			t.Fatalf("no documentation in %s", repo)
		}
		at := loc[1]
		edited := append(append(append([]byte(nil), b[:at]...), "Changed for this test. "...), b[at:]...)
		if err := os.WriteFile(repo, edited, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := corpus.WriteManifest(data, ""); err != nil {
			t.Fatal(err)
		}
		build(out, cache)
		if after := pageCache(); !os.SameFile(before, after) {
			t.Errorf("edit %d: the page cache was written anew (%d bytes, then %d), not patched", k+1, before.Size(), after.Size())
		}
		if after, err := os.Stat(filepath.Join(cache, "index", "export.state")); err != nil || !os.SameFile(stateBefore, after) {
			t.Errorf("edit %d: the search export's state was written anew (%d bytes, then %v), not patched", k+1, stateBefore.Size(), after)
		}
	}
	build(filepath.Join(dir, "cold"), filepath.Join(dir, "cold-cache"))
	if got, want := siteFiles(t, out), siteFiles(t, filepath.Join(dir, "cold")); !maps(got, want) {
		t.Error("the site rebuilt over a patched page cache differs from a cold build's")
	}
}
