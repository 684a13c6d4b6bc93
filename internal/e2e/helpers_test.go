package e2e

// Helpers of the end-to-end tests of the three uses of a build: hosted
// (hosted_test.go), the offline bundle (bundle_test.go) and the preview
// server (serve_test.go). They run the errdocs command itself, built once
// for the whole package in TestMain.

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errdocs/errdocs/generator/read"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/validate"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/testtools"
)

// errdocsBin is the errdocs command built for these tests; workDir holds it
// and the datasets shared by the tests.
var errdocsBin, workDir string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

// runMain builds the command once, so each test runs the real binary (as
// a person or a CI job would) without paying for a build each time.
func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "errdocs-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	workDir = dir
	errdocsBin = filepath.Join(dir, "errdocs")
	cmd := exec.Command("go", "build", "-o", errdocsBin, "./cmd/errdocs")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ./cmd/errdocs: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// runErrdocs runs the command in dir and returns its standard output,
// failing the test when it fails.
func runErrdocs(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(errdocsBin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("errdocs %s: %v\n%s%s", strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.String()
}

var (
	sampleOnce    sync.Once
	sampleDir     string
	sampleRecords []record.Record
	sampleErr     error
)

// sampleData returns the sample dataset and its valid records: content/
// at the module root when it holds one, else 300 generated records (the
// same as `gencorpus -records 300 -seed 1`) in an export folder.
func sampleData(t testing.TB) (string, []record.Record) {
	t.Helper()
	sampleOnce.Do(func() {
		dir := filepath.Join(testtools.ModuleRoot(t), "content")
		if ents, err := os.ReadDir(dir); err != nil || len(ents) == 0 {
			dir = ""
		}
		if dir == "" {
			dir = filepath.Join(workDir, "content")
			if sampleErr = corpus.Generate(300, 1).WriteExport(dir, false); sampleErr != nil {
				return
			}
		}
		sampleDir = dir
		sampleRecords, sampleErr = loadRecords(dir)
	})
	if sampleErr != nil {
		t.Fatal(sampleErr)
	}
	if len(sampleRecords) == 0 {
		t.Fatalf("%s holds no valid records", sampleDir)
	}
	return sampleDir, sampleRecords
}

// loadRecords reads the valid records under paths as the build does.
func loadRecords(paths ...string) ([]record.Record, error) {
	var out []record.Record
	set := validate.NewSet()
	_, errs := read.Read(paths, func(it read.Item) error {
		r, problems := validate.Record(it.Raw)
		if len(problems) == 0 && len(set.Add(it.Source, &r)) == 0 {
			out = append(out, r)
		}
		return nil
	})
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return out, nil
}

// siteLinkRE finds the URLs of a page's href and src attributes. Our pages
// are written by html/template, which always quotes attributes with ".
var siteLinkRE = regexp.MustCompile(`\s(?:href|src)="([^"]*)"`)

// pageLinks returns the URLs a page links to or loads, unescaped.
func pageLinks(page []byte) []string {
	var out []string
	for _, m := range siteLinkRE.FindAllSubmatch(page, -1) {
		out = append(out, html.UnescapeString(string(m[1])))
	}
	return out
}

// external reports a URL that leaves the site (another scheme or host):
// links to GitHub from record pages, mailto: and the like.
func external(u string) bool {
	if strings.HasPrefix(u, "//") {
		return true
	}
	if i := strings.IndexAny(u, ":/?#"); i > 0 && u[i] == ':' {
		return true
	}
	return false
}

// htmlFiles lists the HTML files under dir, slash-separated and relative.
func htmlFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// httpClient never follows redirects, so a test sees each status as sent.
var httpClient = &http.Client{
	Timeout:       30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// get fetches u and returns its status, headers and body.
func get(t testing.TB, u string) (int, http.Header, []byte) {
	t.Helper()
	res, err := httpClient.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	return res.StatusCode, res.Header, b
}

// unzip unpacks a zip archive into dir, refusing entries that would land
// outside it.
func unzip(t testing.TB, archive, dir string) {
	t.Helper()
	z, err := zip.OpenReader(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, f := range z.File {
		name := filepath.Clean(filepath.FromSlash(f.Name))
		if strings.HasPrefix(name, "..") || filepath.IsAbs(name) {
			t.Fatalf("archive entry %q escapes the folder", f.Name)
		}
		p := filepath.Join(dir, name)
		if f.FileInfo().IsDir() {
			os.MkdirAll(p, 0o755)
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
