package pipeline

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errdocs/errdocs"
)

// noChangeSite is a dataset and the settings of its builds, with a
// fresh build (no cache, no previous site) to compare a rebuild with.
type noChangeSite struct {
	t   *testing.T
	dir string
	in  string
	c   Config
}

func newNoChangeSite(t *testing.T) *noChangeSite {
	trustAll(t) // the test writes files and builds at once
	in, _ := testInput(t)
	dir := t.TempDir()
	return &noChangeSite{t: t, dir: dir, in: in, c: Config{
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
	if !maps.Equal(o.files, f.files) {
		t.Errorf("%s: the rebuild's site (%d files) differs from a fresh build's (%d)", why, len(o.files), len(f.files))
	}
	if !slices.Equal(o.problems, f.problems) || o.rejects != f.rejects {
		t.Errorf("%s: problems or rejects differ from a fresh build's", why)
	}
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
	wantFastPath(t, s.build(), first)

	// One input file changed.
	recs := []any{seedRecord(t, 1, func(r map[string]any) { r["documentation"] = "Changed documentation." })}
	writeRecords(t, filepath.Join(s.in, "f0.json"), recs...)
	changed := s.build()
	if changed.rep.Inputs.Read == 0 {
		t.Errorf("a changed input file was not read: %+v", changed.rep.Inputs)
	}
	s.wantFull(changed, "one input file changed")
	wantFastPath(t, s.build(), changed)

	// An input file added.
	writeRecords(t, filepath.Join(s.in, "sub", "new.json"), seedRecord(t, 300, nil))
	s.wantFull(s.build(), "an input file added")

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
	s.wantFull(s.build(), "a template changed")

	// A setting changed.
	s.c.Title = "Another title"
	titled := s.build()
	s.wantFull(titled, "the title changed")
	wantFastPath(t, s.build(), titled)
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
	s.c.Verify = true
	verified := s.build()
	if verified.rep.NoChange || verified.rep.OutputsLooked == 0 || verified.files[page] != first.files[page] {
		t.Fatalf("--verify build: fast path %v, %d output files looked at, page restored %v", verified.rep.NoChange, verified.rep.OutputsLooked, verified.files[page] == first.files[page])
	}
	s.c.Verify = false

	// Another dataset built into the same folder (with a cache of its
	// own), then this one again: the stamp is not of the site now there.
	other := s.c
	other.Paths, other.CacheDir = []string{filepath.Join(s.in, "f1.json")}, filepath.Join(t.TempDir(), "cache")
	runConfig(t, other)
	s.wantFull(s.build(), "the site was replaced by another build")
}
