package main

// Tests of issue 15, "Nothing a user does by mistake costs them their
// site": each runs the errdocs command as a user would (a separate
// process, so that signals, locks and kill -9 are real) on generated or
// hostile input.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/errdocs/errdocs/internal/corpus"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// errdocsBin builds the errdocs command once for the tests that run it as
// a process of its own.
func errdocsBin(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "errdocs-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "errdocs")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// proc is one errdocs process started by a test.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	code           int
}

func start(t *testing.T, dir string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(errdocsBin(t), args...), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		p.code = p.cmd.ProcessState.ExitCode()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// wait waits for the process to end, at most limit; it reports whether it
// ended.
func (p *proc) wait(limit time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(limit):
		return false
	}
}

// runBin runs errdocs in dir to the end (at most two minutes).
func runBin(t *testing.T, dir string, args ...string) *proc {
	t.Helper()
	p := start(t, dir, args...)
	if !p.wait(2 * time.Minute) {
		t.Fatalf("errdocs %v did not end in two minutes", args)
	}
	return p
}

// generated writes a generated dataset of n records (the export layout)
// into dir/name and returns its path.
func generated(t *testing.T, dir, name string, n int, seed int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := corpus.Generate(n, seed).WriteExport(p, false); err != nil {
		t.Fatal(err)
	}
	return p
}

// siteFiles is a site's files, path → bytes, without the marker (which
// holds no content) and with highlighted code blocks taken out of pages:
// the highlighter prints code as plain text when lexing overruns a
// wall-clock budget, which a machine under load makes happen, so those
// bytes depend on the machine's load, not on what a test here checks.
func siteFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := snapshot(t, dir)
	delete(m, ".errdocs-site")
	for k, v := range m {
		if strings.HasSuffix(k, ".html") {
			m[k] = highlighted.ReplaceAllString(v, "<pre>…</pre>")
		}
	}
	return m
}

var highlighted = regexp.MustCompile(`(?s)<pre class="hl[^"]*"[^>]*>.*?</pre>`)

func differing(a, b map[string]string) int { return len(differ(a, b)) }

// differ lists the files that differ between two snapshots, sorted.
func differ(a, b map[string]string) []string {
	var n []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			n = append(n, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			n = append(n, k)
		}
	}
	slices.Sort(n)
	return n
}

// TestConcurrentBuildsSameOut is failure 1: two builds into one output at
// once (a watcher and a manual build, two CI jobs), with one cache and
// with two, started in both orders. One may fail, at once, naming the
// process that holds the output; the site left is a clean build of one of
// the datasets, and a later build of the first dataset is byte for byte a
// clean build of it (the cache does not keep the other dataset's terms).
func TestConcurrentBuildsSameOut(t *testing.T) {
	dir := t.TempDir()
	a := generated(t, dir, "a", 400, 1)
	b := generated(t, dir, "b", 400, 2)
	runBin(t, dir, "build", a, "--out", "refA", "--cache", "cacheRefA", "--quiet")
	runBin(t, dir, "build", b, "--out", "refB", "--cache", "cacheRefB", "--quiet")
	refA, refB := siteFiles(t, filepath.Join(dir, "refA")), siteFiles(t, filepath.Join(dir, "refB"))
	if len(refA) < 100 || differing(refA, refB) == 0 {
		t.Fatalf("reference sites: %d files, %d differ", len(refA), differing(refA, refB))
	}
	for _, tc := range []struct {
		name       string
		separate   bool
		firstIsOne bool
	}{
		{"same cache, a first", false, true}, {"same cache, b first", false, false},
		{"separate caches, a first", true, true}, {"separate caches, b first", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := "site-" + strings.ReplaceAll(tc.name, " ", "")
			args := func(data, cache string) []string {
				a := []string{"build", data, "--out", out, "--quiet"}
				if tc.separate {
					a = append(a, "--cache", out+"-"+cache)
				}
				return a
			}
			runBin(t, dir, args(a, "a")...) // a good site to lose
			first, second := args(a, "a"), args(b, "b")
			if !tc.firstIsOne {
				first, second = second, first
			}
			// The second starts once the first is writing its new site
			// (its staging folder exists): the two then overlap for sure.
			p1 := start(t, dir, first...)
			for deadline := time.Now().Add(time.Minute); ; {
				if m, _ := filepath.Glob(filepath.Join(dir, "."+out+".tmp-*")); len(m) > 0 || p1.wait(5*time.Millisecond) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the first build never began writing")
				}
			}
			p2 := start(t, dir, second...)
			for _, p := range []*proc{p1, p2} {
				if !p.wait(2 * time.Minute) {
					t.Fatal("a build did not end")
				}
				if p.code != 0 && !strings.Contains(p.stderr.String(), "in use by another errdocs (pid ") {
					t.Errorf("a build failed without naming the holder: exit %d: %s", p.code, p.stderr.String())
				}
			}
			if p1.code != 0 && p2.code != 0 {
				t.Fatalf("both builds failed:\n%s\n%s", p1.stderr.String(), p2.stderr.String())
			}
			got := siteFiles(t, filepath.Join(dir, out))
			if differing(got, refA) != 0 && differing(got, refB) != 0 {
				t.Errorf("the site is a mix: %d files differ from a clean build of a, %d from one of b",
					differing(got, refA), differing(got, refB))
			}
			for round := 0; round < 1; round++ {
				if p := runBin(t, dir, args(a, "a")...); p.code != 0 {
					t.Fatalf("rebuild of a: exit %d: %s", p.code, p.stderr.String())
				}
				if d := differ(siteFiles(t, filepath.Join(dir, out)), refA); len(d) != 0 {
					t.Errorf("rebuild %d of a: %d files differ from a clean build of a: %.10q", round+1, len(d), d)
				}
			}
		})
	}
}

// TestLockNamesHolderAndIsTakenOver: a build into an output that a
// preview (errdocs serve) holds fails at once and names the preview's
// pid; once the preview is killed (kill -9: it cannot clean up), the
// lock it left is taken over.
func TestLockNamesHolderAndIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	data := generated(t, dir, "data", 30, 3)
	srv := start(t, dir, "serve", data, "--out", "site", "--port", "0")
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(srv.stdout.String(), "serving") {
		if time.Now().After(deadline) || srv.wait(50*time.Millisecond) {
			t.Fatalf("serve did not start: %s", srv.stderr.String())
		}
	}
	checkFraming(t, srv.stdout.String(), filepath.Join(dir, "site"))
	for _, cmd := range [][]string{
		{"build", data, "--out", "site"},
		{"build", data, "--out", "other"}, // the same cache, beside both
		{"serve", data, "--out", "site", "--port", "0"},
	} {
		began := time.Now()
		p := runBin(t, dir, cmd...)
		want := fmt.Sprintf("in use by another errdocs (pid %d: errdocs serve", srv.cmd.Process.Pid)
		if p.code != 1 || !strings.Contains(p.stderr.String(), want) {
			t.Errorf("%v while serve runs: exit %d, stderr %q; want exit 1 naming %q", cmd, p.code, p.stderr.String(), want)
		}
		if d := time.Since(began); d > 10*time.Second {
			t.Errorf("%v waited %v before failing", cmd, d)
		}
	}
	srv.cmd.Process.Signal(syscall.SIGKILL)
	srv.wait(10 * time.Second)
	if p := runBin(t, dir, "build", data, "--out", "site", "--quiet"); p.code != 0 {
		t.Errorf("build after the holder was killed: exit %d: %s", p.code, p.stderr.String())
	}
}

// TestMistypedPathKeepsSite is failure 2: a build that read nothing of
// what it was asked to read (a mistyped path, a truncated single input,
// an empty folder, one bad path beside a good one) exits 1, with and
// without --strict, and leaves the previous site as it was, byte for
// byte, marker included.
func TestMistypedPathKeepsSite(t *testing.T) {
	dir := t.TempDir()
	good := generated(t, dir, "small", 40, 4)
	if p := runBin(t, dir, "build", good, "--out", "site", "--quiet"); p.code != 0 {
		t.Fatalf("first build: exit %d: %s", p.code, p.stderr.String())
	}
	before := snapshot(t, filepath.Join(dir, "site"))
	one, err := os.ReadFile(filepath.Join(dir, "small", "repos.json"))
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := filepath.Glob(filepath.Join(good, "repos", "*", "*.json"))
	whole, err := os.ReadFile(recs[0])
	if err != nil || len(one) == 0 {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "truncated.json"), whole[:len(whole)/2], 0o644)
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	os.WriteFile(filepath.Join(dir, "invalid.json"), []byte(`{"id":"nope"}`), 0o644)
	for _, args := range [][]string{
		{"../smal"}, {"smal"}, {"truncated.json"}, {"empty"}, {good, "smal"}, {"smal", "--strict"}, {"invalid.json"},
	} {
		p := runBin(t, dir, append([]string{"build", "--out", "site"}, args...)...)
		said := p.stderr.String()
		if p.code != 1 || !strings.Contains(said, "no record read from") && !strings.Contains(said, "all 1 records were rejected") &&
			!strings.Contains(said, "smal: stat: no such file or directory; the previous site is untouched") {
			t.Errorf("build %v: exit %d, stderr %q; want exit 1 saying nothing was read", args, p.code, p.stderr.String())
		}
		if after := snapshot(t, filepath.Join(dir, "site")); !maps(before, after) {
			t.Errorf("build %v changed the previous site (%d files differ)", args, differing(before, after))
		}
	}
}

// TestFailedFilesCountedAndRejected is failure 2's report: files that
// failed whole beside good ones are counted in the summary and listed in
// --rejects, whose every line is valid JSON.
func TestFailedFilesCountedAndRejected(t *testing.T) {
	dir := t.TempDir()
	good := generated(t, dir, "data", 40, 5)
	recs, _ := filepath.Glob(filepath.Join(good, "repos", "*", "*.json"))
	whole, err := os.ReadFile(recs[0])
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(good, "cut.json"), whole[:len(whole)/3], 0o644)
	os.WriteFile(filepath.Join(good, "binary.json"), []byte("\xff\xfe{\x00not json"), 0o644)
	p := runBin(t, dir, "build", good, "--out", "site", "--rejects", "rejects.jsonl")
	if p.code != 0 {
		t.Fatalf("exit %d: %s", p.code, p.stderr.String())
	}
	if !strings.Contains(p.stdout.String(), "(2 more could not be read)") {
		t.Errorf("summary does not count the two files that failed whole: %s", p.stdout.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "rejects.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"cut.json", "binary.json"} {
		if !strings.Contains(string(data), name) {
			t.Errorf("--rejects does not list %s:\n%s", name, data)
		}
	}
	for k, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if !json.Valid([]byte(line)) || !utf8.ValidString(line) {
			t.Errorf("rejects line %d is not valid JSON: %q", k+1, line)
		}
	}
}

// TestStreamsAndSignals is failure 3: /dev/zero, a FIFO with no writer
// and a socket given as PATH fail at once, naming the rule; a build
// stopped by SIGTERM or SIGINT ends within two seconds and leaves the
// previous site as it was.
func TestStreamsAndSignals(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "records.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dev/zero", fifo} {
		began := time.Now()
		p := start(t, dir, "build", path, "--out", "site")
		if !p.wait(2 * time.Second) {
			p.cmd.Process.Signal(syscall.SIGTERM)
			if !p.wait(2 * time.Second) {
				t.Errorf("build %s: still running 2 s after SIGTERM", path)
			}
			t.Errorf("build %s: still running after 2 s", path)
			continue
		}
		if p.code != 1 || !strings.Contains(p.stderr.String(), "not a regular file") {
			t.Errorf("build %s: exit %d after %v, stderr %q", path, p.code, time.Since(began), p.stderr.String())
		}
	}
	// A folder holding a FIFO named like a record file: skipped.
	data := generated(t, dir, "data", 800, 6)
	if err := syscall.Mkfifo(filepath.Join(data, "stream.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := runBin(t, dir, "build", data, "--out", "site", "--quiet"); p.code != 0 {
		t.Fatalf("build with a FIFO inside: exit %d: %s", p.code, p.stderr.String())
	}
	before := snapshot(t, filepath.Join(dir, "site"))
	os.RemoveAll(filepath.Join(dir, ".errdocs-cache")) // a slow, cold build to stop
	other := generated(t, dir, "other", 800, 7)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		p := start(t, dir, "build", other, "--out", "site", "--quiet")
		time.Sleep(700 * time.Millisecond)
		p.cmd.Process.Signal(sig)
		sent := time.Now()
		if !p.wait(2 * time.Second) {
			t.Errorf("%v: build still running 2 s after the signal", sig)
			continue
		}
		if p.code == 0 {
			t.Logf("%v: the build ended before the signal (%v)", sig, time.Since(sent))
			before = snapshot(t, filepath.Join(dir, "site"))
			continue
		}
		if after := snapshot(t, filepath.Join(dir, "site")); !maps(before, after) {
			t.Errorf("%v: the previous site changed (%d files)", sig, differing(before, after))
		}
	}
}

// TestKilledPublishEveryStep is failure 5: a rebuild that changes one
// record publishes in place, file by file after a journal; it is killed
// (SIGKILL) before each step in turn. After every kill each file of the
// site is the old one or the new one, and search/manifest.js names a
// whole search index: when it is the new one, every file of the new
// index and assets is in place (and the old when it is the old). The next
// build completes the publication.
func TestKilledPublishEveryStep(t *testing.T) {
	dir := t.TempDir()
	data := generated(t, dir, "data", 150, 8)
	os.Remove(filepath.Join(data, "manifest.json")) // the edit below would break its sums
	if p := runBin(t, dir, "build", data, "--out", "site", "--quiet"); p.code != 0 {
		t.Fatalf("first build: %s", p.stderr.String())
	}
	old := snapshot(t, filepath.Join(dir, "site"))
	cp := func(from, to string) {
		t.Helper()
		os.RemoveAll(filepath.Join(dir, to))
		if out, err := exec.Command("cp", "-a", filepath.Join(dir, from), filepath.Join(dir, to)).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
	}
	cp("site", "site.v1")
	cp(".errdocs-cache", "cache.v1")
	editOneRecord(t, data)
	if p := runBin(t, dir, "build", data, "--out", "site", "--stats"); p.code != 0 || !strings.Contains(p.stdout.String(), "in place") && !strings.Contains(p.stdout.String(), "written") {
		t.Fatalf("second build: exit %d %s %s", p.code, p.stdout.String(), p.stderr.String())
	}
	next := snapshot(t, filepath.Join(dir, "site"))
	if differing(old, next) == 0 {
		t.Fatal("the edit changed nothing")
	}
	steps := 0
	for k := 0; ; k++ {
		cp("site.v1", "site")
		cp("cache.v1", ".errdocs-cache")
		// Each step starts from the site before the publication: the
		// journal and stage a kill left belong to the site just replaced.
		leftovers, _ := filepath.Glob(filepath.Join(dir, ".site.[jt]*"))
		for _, l := range leftovers {
			os.RemoveAll(l)
		}
		p := runEnv(t, dir, k, data)
		if p.code == 0 {
			steps = k
			break
		}
		got := snapshot(t, filepath.Join(dir, "site"))
		checkOldOrNew(t, k, got, old, next)
		if k%10 != 3 {
			continue // the roll forward is checked at some steps: each costs a build
		}
		if p := runBin(t, dir, "build", data, "--out", "site", "--quiet"); p.code != 0 {
			t.Fatalf("step %d: the build after the kill: %s", k, p.stderr.String())
		}
		if d := differ(siteFiles(t, filepath.Join(dir, "site")), mapsWithout(next)); len(d) > 0 {
			t.Errorf("step %d: the build after the kill did not complete the publication: %.5q", k, d)
		}
	}
	if steps < 3 {
		t.Errorf("the publication had %d steps; want an in-place publication of several", steps)
	}
}

// runEnv runs a build killed before roll-forward step k.
func runEnv(t *testing.T, dir string, k int, data string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(errdocsBin(t), "build", data, "--out", "site", "--quiet"), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), "ERRDOCS_TEST_KILL_AT_STEP="+fmt.Sprint(k))
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	p.code = p.cmd.ProcessState.ExitCode()
	return p
}

func mapsWithout(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if k != ".errdocs-site" {
			out[k] = v
		}
	}
	for k, v := range out {
		if strings.HasSuffix(k, ".html") {
			out[k] = highlighted.ReplaceAllString(v, "<pre>…</pre>")
		}
	}
	return out
}

// checkOldOrNew checks a site killed mid-publication against the old and
// the new site.
func checkOldOrNew(t *testing.T, k int, got, old, next map[string]string) {
	t.Helper()
	for rel, v := range got {
		if rel == ".errdocs-site" {
			continue
		}
		if o, ok := old[rel]; ok && o == v {
			continue
		}
		if n, ok := next[rel]; ok && n == v {
			continue
		}
		t.Errorf("step %d: %s is neither the old file nor the new", k, rel)
	}
	var want map[string]string
	which := "old"
	switch got["search/manifest.js"] {
	case old["search/manifest.js"]:
		want = old
	case next["search/manifest.js"]:
		want, which = next, "new"
	default:
		t.Fatalf("step %d: search/manifest.js is neither", k)
	}
	for rel, v := range want {
		if strings.HasPrefix(rel, "search/") && !strings.HasSuffix(rel, ".html") || strings.HasPrefix(rel, "static/") {
			if got[rel] != v {
				t.Errorf("step %d: search/manifest.js is the %s one, but %s is missing or not its", k, which, rel)
			}
		}
	}
}

// editOneRecord changes the message and documentation of the first record
// of the first repo file of an export.
func editOneRecord(t *testing.T, data string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(data, "repos", "*", "*.json"))
	slices.Sort(files)
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(raw, &recs); err != nil {
		t.Fatal(err)
	}
	recs[0]["errorMessage"] = "quux frobnication exceeded the zorblax limit"
	recs[0]["documentation"] = "The zorblax limit bounds frobnication."
	writeJSON(t, files[0], recs)
}

// TestSymlinksRelativeAndAbsolute is failures 7 and 8: a link inside the
// input to a record file elsewhere inside it is read whether PATH is
// given relative or absolute; a link out of the input is neither read nor
// described, also when the manifest lists it (its size and sha256 would
// tell what lies outside).
func TestSymlinksRelativeAndAbsolute(t *testing.T) {
	dir := t.TempDir()
	data := generated(t, dir, "content", 30, 9)
	recs, _ := filepath.Glob(filepath.Join(data, "repos", "*", "*.json"))
	slices.Sort(recs)
	store := filepath.Join(data, ".store")
	os.Mkdir(store, 0o755)
	os.Rename(recs[0], filepath.Join(store, "real.json"))
	rel, _ := filepath.Rel(filepath.Dir(recs[0]), filepath.Join(store, "real.json"))
	if err := os.Symlink(rel, recs[0]); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret.txt")
	os.WriteFile(secret, []byte("the secret outside the input\n"), 0o600)
	os.Symlink(secret, filepath.Join(data, "leak.txt"))
	var m map[string]any
	raw, _ := os.ReadFile(filepath.Join(data, "manifest.json"))
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	files, ok := m["files"].([]any)
	if !ok {
		t.Fatalf("manifest without files: %.300s", raw)
	}
	m["files"] = append(files, map[string]any{"path": "leak.txt", "bytes": 1, "sha256": strings.Repeat("0", 64)})
	writeJSON(t, filepath.Join(data, "manifest.json"), m)
	counts := map[string]string{}
	for _, path := range []string{"content", data} {
		p := runBin(t, dir, "check", path)
		if p.code != 0 {
			t.Fatalf("check %s: exit %d: %s", path, p.code, p.stderr.String())
		}
		counts[path] = p.stdout.String()
		if strings.Contains(p.stderr.String(), "leads out of the folder being read") && !strings.Contains(p.stderr.String(), "leak.txt") {
			t.Errorf("check %s: the in-tree link was taken for one out of the folder: %s", path, p.stderr.String())
		}
		if !strings.Contains(p.stderr.String(), "leak.txt") || strings.Contains(p.stderr.String(), "is 29 bytes") ||
			strings.Contains(p.stderr.String(), "has sha256") {
			t.Errorf("check %s: the link out of the input is not refused, or is described: %s", path, p.stderr.String())
		}
	}
	if counts["content"] != counts[data] || !strings.Contains(counts[data], "read 30 records") {
		t.Errorf("relative and absolute PATH read differently:\n%s\n%s", counts["content"], counts[data])
	}
}

// TestCacheFolderRefused is failure 12: --cache set to the output, to an
// input, or to a folder holding other files is refused before anything is
// written (the folder's files are kept); bundle --out set to an input
// file is refused and the input kept.
func TestCacheFolderRefused(t *testing.T) {
	dir := t.TempDir()
	data := generated(t, dir, "data", 20, 10)
	if p := runBin(t, dir, "build", data, "--out", "site", "--quiet"); p.code != 0 {
		t.Fatal(p.stderr.String())
	}
	os.MkdirAll(filepath.Join(dir, "mine"), 0o755)
	os.WriteFile(filepath.Join(dir, "mine", "thesis.tex"), []byte("years of work"), 0o644)
	before := snapshot(t, dir)
	for _, args := range [][]string{
		{"build", data, "--out", "site", "--cache", "site"},
		{"build", data, "--out", "site", "--cache", "site/sub"},
		{"build", data, "--out", "site", "--cache", data},
		{"build", data, "--out", "site", "--cache", filepath.Join(data, "repos")},
		{"build", data, "--out", "site", "--cache", "mine"},
		{"bundle", filepath.Join(data, "repos.json"), "--out", filepath.Join(data, "repos.json")},
	} {
		p := runBin(t, dir, args...)
		if p.code == 0 {
			t.Errorf("%v: exit 0", args)
		}
		if after := snapshot(t, dir); !maps(before, after) {
			t.Errorf("%v changed files: %.5q", args, differ(before, after))
		}
	}
	// The default cache, hidden inside the input folder, is fine.
	if p := runBin(t, data, "build", ".", "--out", "../site2", "--cache", ".cache", "--quiet"); p.code != 0 {
		t.Errorf("a hidden cache inside the input: exit %d: %s", p.code, p.stderr.String())
	}
}

// checkFraming is failure 13's policy: every page's CSP keeps forms to
// the site itself (form-action 'self'; a form planted in a page cannot
// post elsewhere), and, since frame-ancestors is ignored in a <meta>
// policy, the preview sends it as a header.
func checkFraming(t *testing.T, said, site string) {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "form-action 'self'") {
		t.Errorf("the page's CSP has no form-action")
	}
	url := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/`).FindString(said)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %q: %v", url, err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Content-Security-Policy"); got != "frame-ancestors 'none'" {
		t.Errorf("the preview's CSP header is %q", got)
	}
}

// TestForeignFilesKept is failure 11: files a user put in the site folder
// (CNAME, .htaccess) are kept by every kind of publication: in place (one
// record edited), unchanged, and swap (another dataset), with the cache
// and without it (deleted: then the site's own list of its files tells).
func TestForeignFilesKept(t *testing.T) {
	dir := t.TempDir()
	a := generated(t, dir, "a", 60, 11)
	b := generated(t, dir, "b", 60, 12)
	os.Remove(filepath.Join(a, "manifest.json"))
	if p := runBin(t, dir, "build", a, "--out", "site", "--quiet"); p.code != 0 {
		t.Fatal(p.stderr.String())
	}
	mine := map[string]string{"CNAME": "docs.example.org\n", ".htaccess": "Options -Indexes\n", "well-known/x.txt": "proof\n"}
	for rel, v := range mine {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, "site", rel)), 0o755)
		os.WriteFile(filepath.Join(dir, "site", rel), []byte(v), 0o644)
	}
	steps := []struct {
		name string
		prep func()
		data string
	}{
		{"unchanged", func() {}, a},
		{"in place", func() { editOneRecord(t, a) }, a},
		{"swap", func() {}, b},
		{"swap without the cache", func() { os.RemoveAll(filepath.Join(dir, ".errdocs-cache")) }, a},
		{"in place without the cache", func() { editOneRecord(t, a); os.RemoveAll(filepath.Join(dir, ".errdocs-cache")) }, a},
	}
	for _, st := range steps {
		st.prep()
		p := runBin(t, dir, "build", st.data, "--out", "site", "--stats")
		if p.code != 0 {
			t.Fatalf("%s: %s", st.name, p.stderr.String())
		}
		for rel, v := range mine {
			if got, err := os.ReadFile(filepath.Join(dir, "site", rel)); err != nil || string(got) != v {
				t.Errorf("%s publication: %s lost (%v)", st.name, rel, err)
			}
		}
	}
}

// TestReservedAndCollidingNames is failures 4 and 10: a record whose repo
// would land on a name the site uses for itself, a name too long for a
// file system, a name Windows cannot hold, or another repo's folder on a
// file system that folds case or normalises Unicode, is rejected with its
// rule; the build goes on and writes the others.
func TestReservedAndCollidingNames(t *testing.T) {
	dir := t.TempDir()
	repos := []string{
		"good/one", ".errdocs-site/x", "sitemaps/y", "search/z", strings.Repeat("o", 300) + "/long",
		"Foo/Bar", "foo/bar", "caf\u00e9/x", "cafe\u0301/x", "con/x", "a:b/x", "q?*<>|/x", "dots./x", "Nul.txt/x",
	}
	var recs []any
	for n, repo := range repos {
		recs = append(recs, variant(t, n, func(r map[string]any) {
			r["repo"] = repo
			r["id"] = fmt.Sprintf("%016x", n+1)
		}))
	}
	writeJSON(t, filepath.Join(dir, "data.json"), recs)
	out := filepath.Join(dir, "site")
	code, stdout, stderr := runCLI(t, "build", filepath.Join(dir, "data.json"), "--out", out, "--base-url", "https://example.org/", "--rejects", filepath.Join(dir, "rejects.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "built 3, rejected 11") {
		t.Errorf("want the three safe repos built (good/one, Foo/Bar, café NFC) and the rest rejected: %s\n%s", stdout, stderr)
	}
	for _, want := range []string{"a name the site uses", "over the 200-byte limit", "reserved device name", "one folder on file systems", `holds ":"`, "ends in a dot"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no rejection saying %q:\n%s", want, stderr)
		}
	}
	for _, p := range []string{"good/one", "Foo/Bar"} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Errorf("%s not built: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "foo")); err == nil {
		t.Errorf("foo/bar was written beside Foo/Bar")
	}
}
