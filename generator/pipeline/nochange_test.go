package pipeline

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/errdocs/errdocs"
)

// noChangeSite is a dataset and the settings of its builds, with a
// fresh build (no cache, no previous site) to compare a rebuild with.
type noChangeSite struct {
	t        *testing.T
	dir      string
	in       string
	files    [][]any // the records of testInput's files
	c        Config
	freshOut string // of the last fresh build
}

func newNoChangeSite(t *testing.T) *noChangeSite {
	trustAll(t) // the test writes files and builds at once
	in, files := testInput(t)
	dir := t.TempDir()
	return &noChangeSite{t: t, dir: dir, in: in, files: files, c: Config{
		Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: filepath.Join(dir, "cache"),
		Templates: errdocs.Templates, Static: errdocs.Static,
	}}
}

func (s *noChangeSite) build() outcome {
	s.t.Helper()
	return runConfig(s.t, s.c)
}

// fresh builds the same as s.c into a new folder with no cache.
func (s *noChangeSite) fresh() outcome {
	s.t.Helper()
	c := s.c
	dir := s.t.TempDir()
	c.Out, c.CacheDir = filepath.Join(dir, "site"), filepath.Join(dir, "cache")
	s.freshOut = c.Out
	return runConfig(s.t, c)
}

// wantFastPath fails unless o is a build that took the no-change fast
// path, by its own report: no record file read, no output file looked at,
// nothing written, and the same site, problems and rejects file as prev.
func wantFastPath(t *testing.T, o, prev outcome) {
	t.Helper()
	r := o.rep
	if !r.NoChange || r.Inputs.Read != 0 || r.Inputs.Bytes != 0 || r.OutputsLooked != 0 || r.Written != 0 {
		t.Fatalf("a build with nothing changed did not take the fast path: no change %v, %d record files read (%d bytes), %d output files looked at, %d written",
			r.NoChange, r.Inputs.Read, r.Inputs.Bytes, r.OutputsLooked, r.Written)
	}
	p := prev.rep
	if r.Inputs.Served != r.Inputs.RecordFiles || r.Inputs.RecordFiles == 0 || r.Unchanged != p.Written+p.Unchanged {
		t.Errorf("fast path report: %+v, %d files unchanged; want every record file served and the %d files of the site", r.Inputs, r.Unchanged, p.Written+p.Unchanged)
	}
	if r.Read != p.Read || r.Rejected != p.Rejected || r.FileErrors != p.FileErrors || r.Built != p.Built || r.Files != p.Files {
		t.Errorf("fast path report %+v; the build it stands for said %+v", r, p)
	}
	if !slices.Equal(o.problems, prev.problems) || o.rejects != prev.rejects {
		t.Errorf("fast path problems %q, rejects %q; the build before said %q, %q", o.problems, o.rejects, prev.problems, prev.rejects)
	}
	if !maps.Equal(o.files, prev.files) {
		t.Errorf("the site changed in a no-change build")
	}
}

// wantFull fails unless o is a full build (not the fast path) that made
// the site a fresh build makes.
func (s *noChangeSite) wantFull(o outcome, why string) {
	t := s.t
	t.Helper()
	if o.rep.NoChange {
		t.Fatalf("%s: the build took the no-change fast path", why)
	}
	f := s.fresh()
	if differ := s.differing(o, f); len(differ) > 0 {
		t.Errorf("%s: the rebuild's site (%d files) differs from a fresh build's (%d): %q", why, len(o.files), len(f.files), differ)
	}
	if !slices.Equal(o.problems, f.problems) || o.rejects != f.rejects {
		t.Errorf("%s: problems or rejects differ from a fresh build's", why)
	}
}

// highlighted is a block of highlighted code: on a loaded machine the
// highlighter prints code as plain text once lexing overran its time
// budget, so two builds may differ there alone.
var highlighted = regexp.MustCompile(`(?s)<pre class="hl[^"]*"[^>]*>.*?</pre>`)

// differing lists the files of the rebuild o that differ from the fresh
// build f's (just made), highlighted code aside.
func (s *noChangeSite) differing(o, f outcome) []string {
	var differ []string
	for rel := range f.files {
		if _, ok := o.files[rel]; !ok {
			differ = append(differ, rel+" (missing)")
		}
	}
	for rel, sum := range o.files {
		if f.files[rel] == sum {
			continue
		}
		a, _ := os.ReadFile(filepath.Join(s.c.Out, filepath.FromSlash(rel)))
		b, err := os.ReadFile(filepath.Join(s.freshOut, filepath.FromSlash(rel)))
		if err != nil || highlighted.ReplaceAllString(string(a), "<pre>…</pre>") != highlighted.ReplaceAllString(string(b), "<pre>…</pre>") {
			differ = append(differ, rel)
		}
	}
	return differ
}

// TestNoChangeFastPath: a build after a build, with nothing changed, takes
// the fast path; changing an input file, a template or a setting does
// not, and makes the site a fresh build makes.
func TestNoChangeFastPath(t *testing.T) {
	s := newNoChangeSite(t)
	first := s.build()
	if first.rep.NoChange {
		t.Fatal("a first build took the no-change fast path")
	}
	wantMissed(t, first, "no site of an earlier build")
	wantFastPath(t, s.build(), first)

	// One input file changed.
	recs := []any{seedRecord(t, 1, func(r map[string]any) { r["documentation"] = "Changed documentation." })}
	writeRecords(t, filepath.Join(s.in, "f0.json"), recs...)
	changed := s.build()
	if changed.rep.Inputs.Read == 0 {
		t.Errorf("a changed input file was not read: %+v", changed.rep.Inputs)
	}
	s.wantFull(changed, "one input file changed")
	wantMissed(t, changed, "1 changed, 0 new, 0 gone", "f0.json")
	wantFastPath(t, s.build(), changed)

	// An input file added.
	writeRecords(t, filepath.Join(s.in, "sub", "new.json"), seedRecord(t, 300, nil))
	added := s.build()
	s.wantFull(added, "an input file added")
	wantMissed(t, added, "0 changed, 1 new, 0 gone", "new.json")

	// A template changed.
	tmpl := fstest.MapFS{}
	fs.WalkDir(errdocs.Templates, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := fs.ReadFile(errdocs.Templates, p)
			if p == "record.html" {
				data = []byte(strings.Replace(string(data), "</article>", "<p>A template edit.</p></article>", 1))
			}
			tmpl[p] = &fstest.MapFile{Data: data}
		}
		return err
	})
	s.c.Templates = tmpl
	edited := s.build()
	s.wantFull(edited, "a template changed")
	wantMissed(t, edited, "the templates")

	// A setting changed.
	s.c.Title = "Another title"
	titled := s.build()
	s.wantFull(titled, "the title changed")
	wantMissed(t, titled, "the settings")
	wantFastPath(t, s.build(), titled)
}

// wantMissed fails unless o is a build that did not take the fast path
// and said why in its report, in words that hold each of want.
func wantMissed(t *testing.T, o outcome, want ...string) {
	t.Helper()
	if o.rep.NoChange {
		t.Fatalf("the build took the fast path; want it not taken because of %q", want)
	}
	for _, w := range want {
		if !strings.Contains(o.rep.NoChangeMissed, w) {
			t.Errorf("why the fast path was not taken: %q; want it to say %q", o.rep.NoChangeMissed, w)
		}
	}
}

// TestNoChangeStampSkipped: a build that is not sure of its inputs (here
// every file is too young to trust its times) says that it left no stamp,
// the next build says why it could not take the fast path, and the one
// after takes it.
func TestNoChangeStampSkipped(t *testing.T) {
	s := newNoChangeSite(t)
	trusted := fineMargin
	fineMargin = time.Hour // every file changed a moment ago
	unsure := s.build()
	fineMargin = trusted
	if !strings.Contains(unsure.rep.StampSkipped, "changed a moment before") {
		t.Fatalf("a build unsure of its inputs says of its stamp: %q", unsure.rep.StampSkipped)
	}
	next := s.build()
	wantMissed(t, next, "left no stamp")
	if next.rep.StampSkipped != "" {
		t.Errorf("a build sure of its inputs left no stamp: %q", next.rep.StampSkipped)
	}
	wantFastPath(t, s.build(), next)
}

// TestNoChangeTrustsTheOutput: the fast path does not look at output
// files, so one deleted by hand stays deleted (as with make or Hugo);
// Verify looks at every output file and puts it back. A site replaced by
// another build (its marker changed) is not taken for the stamped one.
func TestNoChangeTrustsTheOutput(t *testing.T) {
	s := newNoChangeSite(t)
	first := s.build()
	var page string
	for rel := range first.files {
		if strings.HasSuffix(rel, "index.html") && strings.Count(rel, "/") >= 3 {
			page = rel
			break
		}
	}
	if page == "" {
		t.Fatal("no record page in the site")
	}
	if err := os.Remove(filepath.Join(s.c.Out, filepath.FromSlash(page))); err != nil {
		t.Fatal(err)
	}
	if o := s.build(); !o.rep.NoChange || o.files[page] != "" {
		t.Fatalf("after a page was deleted by hand, a no-change build: fast path %v, page back %v; want the fast path, the page still gone", o.rep.NoChange, o.files[page] != "")
	}
	// A rebuild with one input changed trusts the site's other files as
	// the page cache noted them: it looks at none.
	recs := slices.Clone(s.files[2])
	recs[len(recs)-1] = seedRecord(t, 12, func(r map[string]any) { r["documentation"] = "Changed documentation." })
	writeRecords(t, filepath.Join(s.in, "f2.json"), recs...)
	if o := s.build(); o.rep.NoChange || o.rep.OutputsLooked != 0 {
		t.Fatalf("a one-change rebuild after a page was deleted by hand: fast path %v, %d output files looked at; want a full build that looks at none",
			o.rep.NoChange, o.rep.OutputsLooked)
	}
	s.c.Verify = true
	verified := s.build()
	if verified.rep.NoChange || verified.rep.OutputsLooked == 0 || verified.files[page] == "" {
		t.Fatalf("--verify build: fast path %v, %d output files looked at, page restored %v", verified.rep.NoChange, verified.rep.OutputsLooked, verified.files[page] != "")
	}
	s.wantFull(verified, "--verify after a page was deleted by hand")
	s.c.Verify = false

	// A rebuild that changes most files publishes a new folder, linking
	// the files it keeps into it: an unchanged record's page deleted by
	// hand cannot be linked, and the build, which trusted it, builds again
	// looking at every file.
	var kept string
	for rel := range first.files {
		if strings.HasSuffix(rel, "-10/index.html") {
			kept = rel // of a record of f2.json, unchanged below
		}
	}
	if err := os.Remove(filepath.Join(s.c.Out, filepath.FromSlash(kept))); err != nil {
		t.Fatal(err)
	}
	for f := range 2 {
		recs := slices.Clone(s.files[f])
		for k := range recs {
			recs[k] = seedRecord(t, 4*f+k+1, func(r map[string]any) { r["documentation"] = "Every record of this file changed." })
		}
		writeRecords(t, filepath.Join(s.in, fmt.Sprintf("f%d.json", f)), recs...)
	}
	swapped := s.build()
	if swapped.rep.Publish != "swap" || swapped.rep.OutputsLooked == 0 || swapped.files[kept] == "" {
		t.Errorf("a rebuild changing most pages after one was deleted by hand: published %q, %d output files looked at, page back %v; want a swap, after looking, the page back",
			swapped.rep.Publish, swapped.rep.OutputsLooked, swapped.files[kept] != "")
	}
	s.wantFull(swapped, "a page deleted by hand, then most pages changed")

	// Another dataset built into the same folder (with a cache of its
	// own), then this one again: the stamp is not of the site now there.
	other := s.c
	other.Paths, other.CacheDir = []string{filepath.Join(s.in, "f1.json")}, filepath.Join(t.TempDir(), "cache")
	runConfig(t, other)
	s.wantFull(s.build(), "the site was replaced by another build")
}

// TestNoChangeRightAfterWriting: a dataset built at once after it was
// written (its files younger than the racy margin) is stamped by that
// build, which waits for them to settle first, so the next build takes
// the fast path: the first no-change build after writing a dataset reads
// nothing either.
func TestNoChangeRightAfterWriting(t *testing.T) {
	const files = 5
	in, changed := writeYoungDataset(t, files)
	dir := t.TempDir()
	c := Config{Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: filepath.Join(dir, "cache"),
		Templates: errdocs.Templates, Static: errdocs.Static}
	first := runConfig(t, c)
	if age := time.Since(changed); age > racyMargin {
		t.Skipf("the first build ended %v after the dataset was written; the test wants it within %v", age, racyMargin)
	}
	if first.rep.NoChange || first.rep.Inputs.Read != files || first.rep.Inputs.Young != 0 {
		t.Fatalf("first build: no change %v, %+v; want every file read, none too young to cache", first.rep.NoChange, first.rep.Inputs)
	}
	wantFastPath(t, runConfig(t, c), first)
}
