package testtools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleRootFromASubfolder finds the module root from this package's
// folder (two levels down) and the Node tools' package.json under it.
func TestModuleRootFromASubfolder(t *testing.T) {
	root := ModuleRoot(t)
	wd, _ := os.Getwd()
	if rel, err := filepath.Rel(root, wd); err != nil || filepath.ToSlash(rel) != Folder {
		t.Errorf("ModuleRoot = %s, working folder %s: want the folder %s above it", root, wd, Folder)
	}
	if _, err := os.Stat(filepath.Join(Dir(t), "package.json")); err != nil {
		t.Errorf("no package.json in %s: %v", Dir(t), err)
	}
}

// TestModuleRootNeedsErrdocsGoMod does not take another module's go.mod,
// nor a folder with none, for the root.
func TestModuleRootNeedsErrdocsGoMod(t *testing.T) {
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(other, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	if dir, err := moduleRoot(); err == nil {
		t.Errorf("moduleRoot in another module = %s, want an error", dir)
	}
	if err := os.WriteFile(filepath.Join(other, "a", "go.mod"), []byte("// errdocs\nmodule "+modulePath+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if dir, err := moduleRoot(); err != nil || dir != filepath.Join(other, "a") {
		t.Errorf("moduleRoot = %q, %v; want %s", dir, err, filepath.Join(other, "a"))
	}
}

// TestTools finds each installed tool where the tests look for it (skips
// where npm ci has not been run, except under CI).
func TestTools(t *testing.T) {
	if js := Axe(t); !strings.Contains(js, "axe.version") {
		t.Errorf("axe.min.js does not look like axe-core (%d bytes)", len(js))
	}
	for name, p := range map[string]string{"vnu.jar": VNUJar(t), "pagefind": Pagefind(t)} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s at %s: %v", name, p, err)
		}
	}
}
