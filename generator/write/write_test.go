package write

import (
	"os"
	"path/filepath"
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
	must(t, s.Commit())
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(out, "a/index.html"), old, old)

	s, err = Begin(out)
	if err != nil {
		t.Fatal(err)
	}
	must(t, s.WriteFile("a/index.html", []byte("one")))
	must(t, s.WriteFile("b.html", []byte("two")))
	must(t, s.Commit())
	if st := s.Stats(); st.Unchanged != 1 || st.Written != 1 {
		t.Errorf("stats = %+v, want 1 unchanged, 1 written", st)
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
	must(t, s.Commit())
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
