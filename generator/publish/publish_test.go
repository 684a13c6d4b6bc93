package publish

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCommitReplacesWholeAndKeepsUnchangedFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	s, err := Begin(out)
	if err != nil {
		t.Fatal(err)
	}
	must(t, s.WriteFile("a/index.html", []byte("one")))
	must(t, s.WriteFile("gone.html", []byte("x")))
	must(t, s.Commit(nil))
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(out, "a/index.html"), old, old)

	s, err = Begin(out)
	if err != nil {
		t.Fatal(err)
	}
	must(t, s.WriteFile("a/index.html", []byte("one")))
	must(t, s.WriteFile("b.html", []byte("two")))
	must(t, s.Commit(nil))
	if st := s.Stats(); st.Unchanged != 1 || st.Written != 1 || st.Removed != 1 {
		t.Errorf("stats = %+v, want 1 unchanged, 1 written, 1 removed", st)
	}
	fi, err := os.Stat(filepath.Join(out, "a/index.html"))
	if err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("unchanged file's mtime changed: %v %v", fi.ModTime(), err)
	}
	if _, err := os.Stat(filepath.Join(out, "gone.html")); !os.IsNotExist(err) {
		t.Errorf("file of the previous build survived: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".site.*"))
	if len(leftovers) != 0 {
		t.Errorf("leftover folders: %v", leftovers)
	}
}

func TestAbortLeavesPreviousSite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	s, _ := Begin(out)
	must(t, s.WriteFile("index.html", []byte("v1")))
	must(t, s.Commit(nil))
	s, _ = Begin(out)
	must(t, s.WriteFile("index.html", []byte("v2")))
	s.Abort()
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); string(b) != "v1" {
		t.Errorf("index.html = %q after abort, want v1", b)
	}
}

func TestRefusesUnsafePaths(t *testing.T) {
	s, _ := Begin(filepath.Join(t.TempDir(), "site"))
	defer s.Abort()
	for _, p := range []string{"../x", "/etc/passwd", "a/../../x", "a\\b", "", "a/", "./a", Marker, "a//b"} {
		if err := s.WriteFile(p, []byte("x")); err == nil {
			t.Errorf("WriteFile(%q) succeeded", p)
		}
	}
	must(t, s.WriteFile("ok/x.html", nil))
	if err := s.WriteFile("ok/x.html", nil); err == nil {
		t.Error("second write of one path succeeded")
	}
}

func TestRefusesForeignFolder(t *testing.T) {
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "precious.txt"), []byte("keep"), 0o644)
	if _, err := Begin(out); err == nil {
		t.Fatal("Begin replaced a folder errdocs did not make")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// build commits a site of the given files and returns its stats.
func build(t *testing.T, out string, files map[string]string) Stats {
	t.Helper()
	s, err := Begin(out)
	if err != nil {
		t.Fatal(err)
	}
	for rel, data := range files {
		must(t, s.WriteFile(rel, []byte(data)))
	}
	must(t, s.Commit(nil))
	return s.Stats()
}

func TestPublishModes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	files := map[string]string{}
	for i := 0; i < 20; i++ {
		files[filepath.ToSlash(filepath.Join("r", string(rune('a'+i)), "index.html"))] = "page"
	}
	if st := build(t, out, files); st.Mode != "new" || st.Written != 20 {
		t.Fatalf("first build: %+v", st)
	}
	before := mtimes(t, out)
	if st := build(t, out, files); st.Mode != "unchanged" || st.Unchanged != 20 {
		t.Fatalf("same build: %+v", st)
	}
	if after := mtimes(t, out); !equal(before, after) {
		t.Fatal("a build with nothing changed touched files")
	}
	// One change and one removal: published in place.
	files["r/a/index.html"] = "changed"
	delete(files, "r/b/index.html")
	if st := build(t, out, files); st.Mode != "in place" || st.Written != 1 || st.Removed != 1 {
		t.Fatalf("small change: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(out, "r/b")); !os.IsNotExist(err) {
		t.Errorf("folder of a removed page survived: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "r/a/index.html")); string(b) != "changed" {
		t.Errorf("changed page = %q", b)
	}
	after := mtimes(t, out)
	if after["r/c/index.html"] != before["r/c/index.html"] {
		t.Error("an unchanged page was rewritten by an in-place publish")
	}
	// Most files change: the whole folder is swapped.
	for rel := range files {
		files[rel] = "all new"
	}
	if st := build(t, out, files); st.Mode != "swap" {
		t.Fatalf("big change: %+v", st)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "r/c/index.html")); string(b) != "all new" {
		t.Errorf("page after swap = %q", b)
	}
}

// TestRollForward simulates a build killed while publishing in place: the
// journal and the staged files are there, half of the steps done.
func TestRollForward(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	build(t, out, map[string]string{"a.html": "old a", "b.html": "old b", "gone/x.html": "x"})
	stage := filepath.Join(filepath.Dir(out), ".site.tmp-killed")
	os.MkdirAll(stage, 0o755)
	os.WriteFile(filepath.Join(stage, "b.html"), []byte("new b"), 0o644)
	os.WriteFile(filepath.Join(out, "a.html"), []byte("new a"), 0o644) // step done before the kill
	journal := `{"errdocs-journal":"v1","stage":".site.tmp-killed"}
{"op":"put","rel":"a.html"}
{"op":"put","rel":"b.html"}
{"op":"del","rel":"gone/x.html"}
`
	os.WriteFile(filepath.Join(filepath.Dir(out), ".site.journal"), []byte(journal), 0o644)
	s, err := Begin(out)
	if err != nil {
		t.Fatal(err)
	}
	s.Abort()
	for rel, want := range map[string]string{"a.html": "new a", "b.html": "new b"} {
		if b, _ := os.ReadFile(filepath.Join(out, rel)); string(b) != want {
			t.Errorf("%s = %q after roll forward, want %q", rel, b, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "gone")); !os.IsNotExist(err) {
		t.Error("removed file's folder survived the roll forward")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".site.*")); len(left) != 0 {
		t.Errorf("leftovers after roll forward: %v", left)
	}
}

func mtimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	m := map[string]time.Time{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			m[p[len(dir):]] = fi.ModTime()
		}
		return nil
	})
	out := map[string]time.Time{}
	for k, v := range m {
		out[k[1:]] = v
	}
	return out
}

func equal(a, b map[string]time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !b[k].Equal(v) {
			return false
		}
	}
	return true
}

func TestReuseAllIsAllOrNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	s, _ := Begin(out)
	for _, rel := range []string{"a.html", "b.html", "c.html"} {
		must(t, s.WriteFile(rel, []byte(rel)))
	}
	must(t, s.Commit(nil))
	rels := []string{"a.html", "b.html", "c.html"}
	wants, ok := make([]Fingerprint, 3), make([]bool, 3)
	s.FingerprintsOf(rels, wants, ok)
	if !ok[0] || !ok[1] || !ok[2] {
		t.Fatalf("the committed site lacks fingerprints: %v", ok)
	}

	s, _ = Begin(out)
	bad := slices.Clone(wants)
	bad[2].Size++
	if s.ReuseAll(rels, bad) || s.Has("a.html") {
		t.Fatal("kept files though one is not as wanted")
	}
	must(t, s.WriteFile("b.html", []byte("b.html")))
	if s.ReuseAll(rels, wants) || s.Has("a.html") {
		t.Fatal("kept files though one is claimed already")
	}
	if !s.ReuseAll([]string{"a.html", "c.html"}, []Fingerprint{wants[0], wants[2]}) || !s.Has("a.html") || !s.Has("c.html") {
		t.Fatal("did not keep unchanged files")
	}
	if st := s.Stats(); st.Unchanged != 3 || st.Bytes != 18 {
		t.Errorf("stats %+v, want 3 unchanged (one rewritten the same), 18 bytes", st)
	}
	must(t, s.Commit(nil))
}

// Keep keeps a previous file without looking at it: once per path, not
// an unsafe path, not after the commit; what it kept is published as it
// was, and what it did not keep goes.
func TestKeepTakesTheCallersWord(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	s, _ := Begin(out)
	for _, rel := range []string{"a/index.html", "b/index.html"} {
		must(t, s.WriteFile(rel, []byte(rel)))
	}
	must(t, s.Commit(nil))
	rels := []string{"a/index.html", "b/index.html"}
	prints, ok := make([]Fingerprint, 2), make([]bool, 2)
	s.FingerprintsOf(rels, prints, ok)

	s, _ = Begin(out)
	if !s.Keep("a/index.html", prints[0]) {
		t.Fatal("did not keep a file")
	}
	if s.Keep("a/index.html", prints[0]) || s.Keep("../x", prints[0]) || s.Keep(Marker, prints[0]) {
		t.Error("kept a path twice, or an unsafe or reserved one")
	}
	if st := s.Stats(); st.Unchanged != 1 || st.Bytes != prints[0].Size {
		t.Errorf("stats %+v, want 1 unchanged of %d bytes", st, prints[0].Size)
	}
	must(t, s.Commit(rels))
	if s.Keep("b/index.html", prints[1]) {
		t.Error("kept a file after the commit")
	}
	if b, err := os.ReadFile(filepath.Join(out, "a", "index.html")); err != nil || string(b) != "a/index.html" {
		t.Errorf("kept file: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(out, "b", "index.html")); !os.IsNotExist(err) {
		t.Errorf("a file not kept survived: %v", err)
	}
}

// TestWrittenFilesFingerprints checks that the fingerprint WriteFile notes
// for a file it writes is the one the published file has (a later build
// keeps the file on it), and that the file holds the bytes, with mode 0644
// less the umask, in a cold build and in a rebuild.
func TestWrittenFilesFingerprints(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	for round, files := range []map[string]string{
		{"index.html": "home", "o/n/slug/index.html": "page", "empty.txt": ""},
		{"index.html": "home v2", "o/n/slug/index.html": "page", "o/n/other/index.html": "new"},
	} {
		s, err := Begin(out)
		if err != nil {
			t.Fatal(err)
		}
		rels := slices.Sorted(maps.Keys(files))
		for _, rel := range rels {
			must(t, s.WriteFile(rel, []byte(files[rel])))
		}
		prints, ok := make([]Fingerprint, len(rels)), make([]bool, len(rels))
		s.FingerprintsOf(rels, prints, ok)
		must(t, s.Commit(nil))
		for k, rel := range rels {
			path := filepath.Join(out, filepath.FromSlash(rel))
			fi, err := os.Lstat(path)
			if err != nil {
				t.Fatalf("round %d: %s: %v", round, rel, err)
			}
			if !ok[k] || prints[k] != fingerprintOf(fi) {
				t.Errorf("round %d: %s: noted fingerprint %+v (%v), published file has %+v", round, rel, prints[k], ok[k], fingerprintOf(fi))
			}
			if b, _ := os.ReadFile(path); string(b) != files[rel] {
				t.Errorf("round %d: %s holds %q, want %q", round, rel, b, files[rel])
			}
			if want := 0o644 &^ umask(); fi.Mode().Perm() != want {
				t.Errorf("round %d: %s has mode %v, want %v", round, rel, fi.Mode().Perm(), want)
			}
		}
	}
}

// umask returns the process's file mode creation mask.
func umask() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return fs.FileMode(m)
}

// The file list (FileList) names the site's files after every publish;
// an in-place publish that changes files but adds and removes none leaves
// it as it was, untouched.
func TestFileListFollowsTheFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	files := map[string]string{}
	for i := 0; i < 20; i++ {
		files["r/"+string(rune('a'+i))+"/index.html"] = "page"
	}
	listed := func() []string {
		t.Helper()
		got := readFileList(out)
		slices.Sort(got)
		return got
	}
	want := func() []string {
		var w []string
		for rel := range files {
			w = append(w, rel)
		}
		slices.Sort(w)
		return w
	}
	build(t, out, files)
	if got := listed(); !slices.Equal(got, want()) {
		t.Fatalf("new site lists %q, want %q", got, want())
	}
	stat := func() os.FileInfo {
		fi, err := os.Lstat(filepath.Join(out, FileList))
		must(t, err)
		return fi
	}
	before := stat()
	files["r/a/index.html"] = "changed"
	if st := build(t, out, files); st.Mode != "in place" {
		t.Fatalf("one page changed: %+v", st)
	}
	if after := stat(); !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Error("the file list was rewritten although the site has the same files")
	}
	files["r/new/index.html"] = "added"
	delete(files, "r/b/index.html")
	if st := build(t, out, files); st.Mode != "in place" {
		t.Fatalf("one page added, one removed: %+v", st)
	}
	if got := listed(); !slices.Equal(got, want()) {
		t.Fatalf("after an added and a removed page the list is %q, want %q", got, want())
	}
	// Deleted by hand: the next publish writes it again.
	must(t, os.Remove(filepath.Join(out, FileList)))
	files["r/c/index.html"] = "changed"
	build(t, out, files)
	if got := listed(); !slices.Equal(got, want()) {
		t.Fatalf("a list deleted by hand came back as %q, want %q", got, want())
	}
}

// Told the size of the site twice, Expect makes its table once.
func TestExpectSizesOnce(t *testing.T) {
	s, err := Begin(filepath.Join(t.TempDir(), "site"))
	if err != nil {
		t.Fatal(err)
	}
	must(t, s.WriteFile("static/a.css", []byte("a")))
	s.Expect(1000)
	table := reflect.ValueOf(s.prints).UnsafePointer()
	s.Expect(1000)
	if reflect.ValueOf(s.prints).UnsafePointer() != table {
		t.Error("the table was made again for the same size")
	}
	if !s.Has("static/a.css") {
		t.Error("a file written before Expect was lost")
	}
	s.Abort()
}

// A path plainPath passes is one CheckPath's general rules pass too, and
// the site's usual paths pass it; the reserved names stay refused.
func TestPlainPathIsCleanAndLocal(t *testing.T) {
	plain := []string{"a", "a/b", "a/b/index.html", ".x", "..x", "...", "a/.../b", "a-b_c.9/Z", Marker, FileList}
	other := []string{"", "/", "/a", "a/", "a//b", ".", "..", "./a", "a/./b", "a/..", "../a", "a/../b",
		"a\\b", "a b", "a\x00", "é/a"}
	for _, p := range plain {
		if !plainPath(p) {
			t.Errorf("plainPath(%q) = false", p)
		}
		if p != Marker && p != FileList && checkPath(p) != nil {
			t.Errorf("plainPath(%q) but CheckPath's rules refuse it: %v", p, checkPath(p))
		}
	}
	for _, p := range other {
		if plainPath(p) {
			t.Errorf("plainPath(%q) = true", p)
		}
	}
	for _, p := range []string{Marker, FileList} {
		if CheckPath(p) == nil {
			t.Errorf("CheckPath(%q) passed a reserved name", p)
		}
	}
}

// KeepSorted keeps a block of the previous site's files on the caller's
// word, all or none; a block's path cannot be written or kept again; the
// published site holds them as they were and lists them with the others;
// a file of the previous site left out of the block and not written goes.
func TestKeepSortedKeepsABlock(t *testing.T) {
	rels := []string{"a/index.html", "b/index.html", "c/index.html", "d/index.html"}
	out, prints := publishedSite(t, rels)

	s, _ := Begin(out)
	must(t, s.WriteFile("b/index.html", []byte("b, changed")))
	for _, bad := range [][]string{
		{"c/index.html", "a/index.html"}, // not sorted
		{"a/index.html", "a/index.html"}, // twice
		{"a/index.html", "b/index.html"}, // b is written
		{"../x", "a/index.html"},         // not inside the site
	} {
		if s.KeepSorted(bad, prints[:2]) {
			t.Fatalf("kept %q", bad)
		}
	}
	if s.Has("a/index.html") {
		t.Fatal("a refused block kept a file")
	}
	block := []string{"a/index.html", "c/index.html"}
	if !s.KeepSorted(block, []Fingerprint{prints[0], prints[2]}) {
		t.Fatal("did not keep the block")
	}
	if s.KeepSorted([]string{"z/index.html"}, prints[:1]) {
		t.Error("kept a second block")
	}
	if err := s.WriteFile("c/index.html", []byte("again")); err == nil {
		t.Error("wrote a file of the block")
	}
	if s.Keep("a/index.html", prints[0]) || !s.Has("c/index.html") {
		t.Error("a file of the block was kept again, or is not the site's")
	}
	got, gotOK := make([]Fingerprint, 2), make([]bool, 2)
	s.FingerprintsOf(block, got, gotOK)
	if !gotOK[0] || !gotOK[1] || got[0] != prints[0] || got[1] != prints[2] {
		t.Errorf("the block's fingerprints: %+v %v", got, gotOK)
	}
	must(t, s.WriteFile("e/index.html", []byte("new")))
	// The block's files are left out of previous, as a rebuild does.
	must(t, s.CommitKnown([]string{"b/index.html", "d/index.html"}, len(block)))
	if st := s.Stats(); st.Unchanged != 2 || st.Written != 2 || st.Removed != 1 {
		t.Errorf("stats %+v, want 2 unchanged, 2 written, 1 removed", st)
	}
	for rel, want := range map[string]string{"a/index.html": "a/index.html", "b/index.html": "b, changed", "c/index.html": "c/index.html", "e/index.html": "new"} {
		if b, err := os.ReadFile(filepath.Join(out, rel)); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", rel, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "d", "index.html")); !os.IsNotExist(err) {
		t.Errorf("a file neither kept nor written survived: %v", err)
	}
	if got, want := readFileList(out), []string{"a/index.html", "b/index.html", "c/index.html", "e/index.html"}; !slices.Equal(got, want) {
		t.Errorf("file list %q, want %q", got, want)
	}
}

// A swap hard-links a block's files into the new site.
func TestKeepSortedSwap(t *testing.T) {
	rels := []string{"a/index.html", "b/index.html", "c/index.html"}
	out, prints := publishedSite(t, rels)

	s, _ := Begin(out)
	if !s.KeepSorted(rels[:1], prints[:1]) {
		t.Fatal("did not keep the block")
	}
	for _, rel := range []string{"x/index.html", "y/index.html", "z/index.html"} {
		must(t, s.WriteFile(rel, []byte(rel)))
	}
	must(t, s.CommitKnown(rels[1:], 1))
	if st := s.Stats(); st.Mode != "swap" {
		t.Fatalf("stats %+v, want a swap", st)
	}
	if b, err := os.ReadFile(filepath.Join(out, "a/index.html")); err != nil || string(b) != "a/index.html" {
		t.Errorf("the block's file: %q, %v", b, err)
	}
	if got, want := readFileList(out), []string{"a/index.html", "x/index.html", "y/index.html", "z/index.html"}; !slices.Equal(got, want) {
		t.Errorf("file list %q, want %q", got, want)
	}
}

// The file list written in members reads back, with any gzip reader, as
// the paths in order, a line each.
func TestWriteListInParts(t *testing.T) {
	for _, n := range []int{0, 1, 5000, 3*maxListChunk + 7} {
		rels := sitePaths(n)
		var b bytes.Buffer
		must(t, writeList(&b, rels, nil))
		if got, want := gunzip(t, b.Bytes()), joinLines(rels); got != want {
			t.Errorf("%d paths: the list reads back as %d bytes, want %d", n, len(got), len(want))
		}
	}
}

// A list written after another copies the members whose paths did not
// change: one path added and one removed change at most the members that
// held them (and, were a removed path a member's last, the next).
func TestWriteListCopiesUnchangedMembers(t *testing.T) {
	rels := sitePaths(60000)
	var before bytes.Buffer
	must(t, writeList(&before, rels, nil))
	// Each member of the old list stamped (its header's time, which no
	// checksum covers), so that a member copied tells itself from one
	// compressed again.
	old := memberList(t, before.Bytes())
	if len(old) < 10 {
		t.Fatalf("60,000 paths made %d members, want at least 10", len(old))
	}
	for _, m := range old {
		m[4] = 1
	}
	changed := slices.Delete(slices.Clone(rels), 30000, 30001)
	changed = slices.Insert(changed, 123, rels[122]+"x/index.html")
	var after bytes.Buffer
	must(t, writeList(&after, changed, before.Bytes()))
	if got, want := gunzip(t, after.Bytes()), joinLines(changed); got != want {
		t.Fatalf("the list reads back as %d bytes, want %d", len(got), len(want))
	}
	members := memberList(t, after.Bytes())
	fresh := 0
	for _, m := range members {
		if m[4] != 1 {
			fresh++
		}
	}
	if fresh == 0 || fresh > 3 || len(members) < len(old)-2 {
		t.Errorf("%d of %d members compressed again (the old list had %d) after one path added and one removed, want 1 to 3", fresh, len(members), len(old))
	}
}

// A previous list whose members' headers do not match what they hold
// (changed by hand) is not copied from: the list still reads back right.
func TestWriteListChecksWhatItCopies(t *testing.T) {
	rels := sitePaths(20000)
	var good bytes.Buffer
	must(t, writeList(&good, rels, nil))
	// The old list: the same members with their lines changed (as long),
	// under the headers (hashes) of the right ones.
	forged := []byte{}
	goodMembers := memberList(t, good.Bytes())
	for c, chunk := range listChunks(rels) {
		lines := appendLines(nil, chunk)
		for k := range lines {
			if lines[k] == 'i' {
				lines[k] = 'I'
			}
		}
		fake := zipLines(lines, [16]byte(goodMembers[c][16:32]))
		forged = append(forged, fake...)
	}
	var b bytes.Buffer
	must(t, writeList(&b, rels, forged))
	if got, want := gunzip(t, b.Bytes()), joinLines(rels); got != want {
		t.Fatalf("after a forged list the list reads back as %d bytes, want %d", len(got), len(want))
	}
}

// memberList returns a list's members in order.
func memberList(t *testing.T, list []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(list) > 0 {
		n := int(binary.LittleEndian.Uint32(list[listLenAt:]))
		if n <= 0 || n > len(list) {
			t.Fatalf("a member claims %d bytes of %d", n, len(list))
		}
		out, list = append(out, list[:n]), list[n:]
	}
	return out
}

// sitePaths makes n paths like a site's, sorted: record pages of a few
// repos and content-hashed search files.
func sitePaths(n int) []string {
	rels := make([]string, n)
	for k := range rels {
		if k%10 == 0 {
			rels[k] = fmt.Sprintf("search/t%05x-%08x.json", k, uint32(k)*2654435761)
		} else {
			rels[k] = fmt.Sprintf("o%d/r%d/s%07d-%s/index.html", k%7, k%13, k, strings.Repeat("x", k%17))
		}
	}
	slices.Sort(rels)
	return rels
}

func joinLines(rels []string) string { return string(appendLines(nil, rels)) }

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	if len(b) == 0 {
		return ""
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	must(t, err)
	data, err := io.ReadAll(zr)
	must(t, err)
	return string(data)
}

// publishedSite publishes a site of rels, each file holding its own path,
// and returns its folder and the files' fingerprints.
func publishedSite(t *testing.T, rels []string) (string, []Fingerprint) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	s, _ := Begin(out)
	for _, rel := range rels {
		must(t, s.WriteFile(rel, []byte(rel)))
	}
	must(t, s.Commit(nil))
	prints, ok := make([]Fingerprint, len(rels)), make([]bool, len(rels))
	s.FingerprintsOf(rels, prints, ok)
	return out, prints
}

// sortedPaths, which looks at a long list in parts side by side, finds a
// path out of order or outside the site wherever it lies: at the first
// or last path, in the second part, or where one part meets the next.
func TestSortedPathsInParts(t *testing.T) {
	n := 4*minPathsPart + 3
	rels := make([]string, n)
	for k := range rels {
		rels[k] = fmt.Sprintf("r/%07d/index.html", k)
	}
	if !sortedPaths(rels) {
		t.Fatal("refused sorted paths")
	}
	for _, at := range []int{0, 1, n / 2, n/2 + 1, n/4*3 - 1, n - 1} {
		bads := []string{"../x", "a//index.html"}
		if at > 0 {
			bads = append(bads, rels[at-1]) // twice
		}
		if at < n-1 {
			bads = append(bads, "r/zzz/index.html") // after the next
		}
		for _, bad := range bads {
			was := rels[at]
			rels[at] = bad
			if sortedPaths(rels) {
				t.Errorf("accepted %q at %d of %d", bad, at, n)
			}
			rels[at] = was
		}
	}
}
