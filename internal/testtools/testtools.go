// Package testtools finds what the tests use from outside Go: the module
// root, and the Node packages installed in this folder by `npm ci` (its
// package.json pins them): axe-core (run in headless Chromium), the Nu
// HTML checker (vnu-jar, run with Java) and Pagefind (the search the
// known-item benchmark compares against). errdocs itself needs no Node.
//
// A tool that is missing skips the test with the command that installs it,
// except under CI=true, where it fails the test: .ci/run installs them.
package testtools

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/errdocs/errdocs/internal/browsertest"
)

// modulePath is the module whose root ModuleRoot looks for.
const modulePath = "github.com/errdocs/errdocs"

// Folder is where the Node tools live, relative to the module root.
const Folder = "internal/testtools"

// install is the command that installs the Node tools, for skip messages.
const install = "npm ci --prefix " + Folder

// ModuleRoot is the errdocs module's root: the nearest folder above the
// working folder (a test's package folder) whose go.mod declares the module.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if declaresModule(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testtools: no go.mod of " + modulePath + " above the working folder")
		}
		dir = parent
	}
}

// declaresModule reports whether the go.mod at path is errdocs' own.
func declaresModule(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for line := range bytes.Lines(b) {
		if f := bytes.Fields(line); len(f) == 2 && string(f[0]) == "module" && string(f[1]) == modulePath {
			return true
		}
	}
	return false
}

// Dir is the folder holding package.json and node_modules.
func Dir(t testing.TB) string {
	t.Helper()
	return filepath.Join(ModuleRoot(t), filepath.FromSlash(Folder))
}

// path returns the installed file rel (under node_modules), or skips the
// test (fails it under CI) naming the tool when it is not there.
func path(t testing.TB, tool, rel string) string {
	t.Helper()
	p := filepath.Join(Dir(t), "node_modules", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		browsertest.Require(t, tool+" (run "+install+")", "")
	}
	return p
}

// Axe returns the axe-core script, to be injected into a page.
func Axe(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(path(t, "axe-core", "axe-core/axe.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// VNUJar returns the path of the Nu HTML checker's jar.
func VNUJar(t testing.TB) string {
	t.Helper()
	return path(t, "vnu-jar", "vnu-jar/build/dist/vnu.jar")
}

// Pagefind returns the path of the pagefind command.
func Pagefind(t testing.TB) string {
	t.Helper()
	return path(t, "pagefind", ".bin/pagefind")
}
