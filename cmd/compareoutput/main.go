// Command compareoutput checks that this tree's errdocs builds the same
// site and search export, byte for byte, as another commit's (or another
// binary's): for content/ and for a generated dataset, built cold, then
// rebuilt incrementally after one record changed, and rebuilt over the
// other binary's cache (a cache from before a format change must be
// ignored, never misread).
//
//	go run ./cmd/compareoutput -base e3e3a32
//	go run ./cmd/compareoutput -base /path/to/errdocs -dataset content -dataset /data/g20k
//
// It exits 1 when any output differs (a gzip file: once decompressed). Files that differ only in syntax
// highlighting are listed as such: a base binary from before session 8
// printed an input as plain text once lexing it overran a time budget (the
// highlighter's budgets count work now, not time), so on a loaded machine
// its builds could differ there alone; -share-highlight has the new binary
// start from the base binary's highlight cache (a memo of highlighted
// code: every other cache and output is the new binary's own).
package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/errdocs/errdocs/internal/corpus"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

type options struct {
	base     string // commit or binary
	records  int    // generated dataset size; 0 skips it
	datasets []string
	work     string
	keep     bool
	// shareHighlight copies the base build's highlight cache into the new
	// build's cache folder before the new cold build.
	shareHighlight bool
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("compareoutput", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.base, "base", "", "`commit` (built from git archive) or path of an errdocs binary to compare against")
	fs.IntVar(&o.records, "records", 20000, "size of the generated dataset (0: none)")
	fs.Var((*stringList)(&o.datasets), "dataset", "compare on this dataset `folder` too (repeatable; default content/ and the generated one)")
	fs.StringVar(&o.work, "work", "", "work `folder` (default a temporary one, removed at the end)")
	fs.BoolVar(&o.keep, "keep", false, "keep the work folder")
	fs.StringVar(&baseURL, "base-url", "", "build both sites as hosted at this `URL` (sitemaps, feed, pretty links); default: as opened from disk")
	fs.BoolVar(&o.shareHighlight, "share-highlight", false, "start the new binary's cold build from the base build's highlight cache")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.base == "" {
		fmt.Fprintln(stderr, "compareoutput: -base is required")
		fs.Usage()
		return 2
	}
	same, err := compare(o, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "compareoutput:", err)
		return 1
	}
	if !same {
		fmt.Fprintln(stdout, "DIFFERENT")
		return 1
	}
	fmt.Fprintln(stdout, "all byte-identical")
	return 0
}

func compare(o options, out io.Writer) (bool, error) {
	work := o.work
	if work == "" {
		d, err := os.MkdirTemp("", "compareoutput-")
		if err != nil {
			return false, err
		}
		work = d
	}
	if !o.keep {
		defer os.RemoveAll(work)
	}
	newBin, err := buildTree(".", filepath.Join(work, "errdocs-new"))
	if err != nil {
		return false, err
	}
	baseBin, err := baseBinary(o.base, work)
	if err != nil {
		return false, err
	}
	datasets := o.datasets
	if len(o.datasets) == 0 {
		datasets = []string{"content"}
	}
	if o.records > 0 && len(o.datasets) == 0 {
		gen := filepath.Join(work, "generated")
		if err := command("go", "run", "./cmd/gencorpus", "-q", "-records", fmt.Sprint(o.records), gen); err != nil {
			return false, err
		}
		datasets = append(datasets, gen)
	}
	same := true
	for i, ds := range datasets {
		ok, err := compareDataset(out, o, ds, filepath.Join(work, fmt.Sprintf("ds%d", i)), baseBin, newBin)
		if err != nil {
			return false, err
		}
		same = same && ok
	}
	return same, nil
}

// baseBinary returns base itself when it names a file, else builds the
// commit it names from a git archive.
func baseBinary(base, work string) (string, error) {
	if st, err := os.Stat(base); err == nil && st.Mode().IsRegular() {
		return filepath.Abs(base)
	}
	src := filepath.Join(work, "base-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	archive := exec.Command("git", "archive", "--format=tar", base)
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	untar.Stdin = pipe
	archive.Stderr, untar.Stderr = os.Stderr, os.Stderr
	if err := untar.Start(); err != nil {
		return "", err
	}
	if err := archive.Run(); err != nil {
		return "", fmt.Errorf("git archive %s: %w", base, err)
	}
	if err := untar.Wait(); err != nil {
		return "", err
	}
	return buildTree(src, filepath.Join(work, "errdocs-base"))
}

func buildTree(dir, bin string) (string, error) {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return "", err
	}
	c := exec.Command("go", "build", "-o", abs, "./cmd/errdocs")
	c.Dir, c.Stdout, c.Stderr = dir, os.Stderr, os.Stderr
	if err := c.Run(); err != nil {
		return "", fmt.Errorf("go build in %s: %w", dir, err)
	}
	return abs, nil
}

// compareDataset builds a copy of the dataset with both binaries cold,
// changes one record, rebuilds both incrementally and once more with the
// new binary over the base binary's cold cache and site, and compares.
func compareDataset(out io.Writer, o options, dataset, dir, baseBin, newBin string) (bool, error) {
	data := filepath.Join(dir, "data")
	if err := copyTree(dataset, data); err != nil {
		return false, err
	}
	base, nw, cross := filepath.Join(dir, "base"), filepath.Join(dir, "new"), filepath.Join(dir, "cross")
	if err := buildSite(baseBin, data, base); err != nil {
		return false, err
	}
	if o.shareHighlight {
		if err := copyTree(filepath.Join(base, "cache", "highlight"), filepath.Join(nw, "cache", "highlight")); err != nil {
			return false, err
		}
	}
	if err := buildSite(newBin, data, nw); err != nil {
		return false, err
	}
	same := report(out, dataset+", cold", filepath.Join(base, "site"), filepath.Join(nw, "site"))
	if err := copyTree(base, cross); err != nil {
		return false, err
	}
	rel, err := changeOneRecord(data)
	if err != nil {
		return false, err
	}
	if err := buildSite(baseBin, data, base); err != nil {
		return false, err
	}
	// The change must show in the site, or the incremental runs compare
	// nothing new: cross still holds the cold site.
	changed, err := countDiffs(filepath.Join(base, "site"), filepath.Join(cross, "site"))
	if err != nil {
		return false, err
	}
	if changed == 0 {
		return false, fmt.Errorf("changing a record of %s changed no output file", rel)
	}
	fmt.Fprintf(out, "%s: changing a record of %s changed %d output files\n", dataset, rel, changed)
	for _, d := range []string{nw, cross} {
		if err := buildSite(newBin, data, d); err != nil {
			return false, err
		}
	}
	label := fmt.Sprintf("%s, incremental after changing a record of %s", dataset, rel)
	same = report(out, label, filepath.Join(base, "site"), filepath.Join(nw, "site")) && same
	same = report(out, label+", over the base binary's cache", filepath.Join(base, "site"), filepath.Join(cross, "site")) && same
	return same, nil
}

// baseURL is the -base-url flag, passed to every build.
var baseURL string

func buildSite(bin, data, dir string) error {
	start := time.Now()
	args := []string{"build", "--quiet", "--out", filepath.Join(dir, "site"), "--cache", filepath.Join(dir, "cache")}
	if baseURL != "" {
		args = append(args, "--base-url", baseURL)
	}
	err := command(bin, append(args, data)...)
	fmt.Fprintf(os.Stderr, "compareoutput: %s build → %s (%s)\n", filepath.Base(bin), dir, time.Since(start).Round(time.Millisecond))
	return err
}

func command(name string, args ...string) error {
	c := exec.Command(name, args...)
	c.Stdout, c.Stderr = os.Stderr, os.Stderr
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}

func copyTree(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	os.RemoveAll(to)
	return command("cp", "-a", from, to)
}

var docField = regexp.MustCompile(`"documentation"\s*:\s*"`)

// changeOneRecord prepends a sentence to the documentation of the first
// record (in path order) that has one, leaving every other byte of the
// file alone, and recomputes the manifest as a fresh export would.
func changeOneRecord(data string) (string, error) {
	var files []string
	filepath.WalkDir(filepath.Join(data, "repos"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		loc := docField.FindIndex(b)
		if loc == nil {
			continue
		}
		edited := append(append(append([]byte(nil), b[:loc[1]]...), "Changed for the output comparison. "...), b[loc[1]:]...)
		if err := os.WriteFile(f, edited, 0o644); err != nil {
			return "", err
		}
		if _, err := os.Stat(filepath.Join(data, "manifest.json")); err == nil {
			if err := corpus.WriteManifest(data, ""); err != nil {
				return "", err
			}
		}
		return filepath.Rel(data, f)
	}
	return "", errors.New("no record with documentation in " + data)
}

// report compares two site folders and prints the verdict, with the first
// few differences.
func report(out io.Writer, label, a, b string) bool {
	diffs, total, search, err := diff(a, b)
	if err != nil {
		fmt.Fprintf(out, "%s: %v\n", label, err)
		return false
	}
	if len(diffs) == 0 {
		fmt.Fprintf(out, "%s: identical (%d files, %d of them the search export)\n", label, total, search)
		return true
	}
	sort.Strings(diffs)
	fmt.Fprintf(out, "%s: %d differences\n", label, len(diffs))
	if n := highlightOnly(a, b, diffs); n > 0 {
		fmt.Fprintf(out, "  (%d of them only in syntax highlighting: a base binary's time budget on a loaded machine, or a highlighting change; try -share-highlight)\n", n)
	}
	for i, d := range diffs {
		if i == 20 {
			fmt.Fprintf(out, "  …\n")
			break
		}
		fmt.Fprintf(out, "  %s\n", d)
	}
	return false
}

func countDiffs(a, b string) (int, error) {
	diffs, _, _, err := diff(a, b)
	return len(diffs), err
}

// diff lists the files that differ between two folders, and counts the
// identical ones (and those of them under search/).
func diff(a, b string) (diffs []string, total, search int, err error) {
	fa, err1 := listFiles(a)
	fb, err2 := listFiles(b)
	if err := errors.Join(err1, err2); err != nil {
		return nil, 0, 0, err
	}
	for rel := range fa {
		if !fb[rel] {
			diffs = append(diffs, "only in base: "+rel)
		}
	}
	for rel := range fb {
		if !fa[rel] {
			diffs = append(diffs, "only in new: "+rel)
			continue
		}
		if !sameFile(filepath.Join(a, rel), filepath.Join(b, rel)) {
			diffs = append(diffs, "differs: "+rel)
			continue
		}
		total++
		if strings.HasPrefix(rel, "search/") {
			search++
		}
	}
	return diffs, total, search, nil
}

// sameFile reports whether two files hold the same bytes; gzip files
// (the site's list of its files) the same bytes once decompressed: how
// hard a build compresses its own bookkeeping is not its output.
func sameFile(a, b string) bool {
	da, err1 := os.ReadFile(a)
	db, err2 := os.ReadFile(b)
	if err1 != nil || err2 != nil {
		return false
	}
	if bytes.Equal(da, db) {
		return true
	}
	if !strings.HasSuffix(a, ".gz") {
		return false
	}
	ua, err1 := gunzip(da)
	ub, err2 := gunzip(db)
	return err1 == nil && err2 == nil && bytes.Equal(ua, ub)
}

func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

var spanTag = regexp.MustCompile(`</?span[^>]*>`)

// highlightOnly counts the differing files that are the same once every
// span tag (the highlighter's markup) is taken out.
func highlightOnly(a, b string, diffs []string) int {
	n := 0
	for _, d := range diffs {
		rel, ok := strings.CutPrefix(d, "differs: ")
		if !ok || !strings.HasSuffix(rel, ".html") {
			continue
		}
		da, err1 := os.ReadFile(filepath.Join(a, rel))
		db, err2 := os.ReadFile(filepath.Join(b, rel))
		if err1 == nil && err2 == nil && bytes.Equal(spanTag.ReplaceAll(da, nil), spanTag.ReplaceAll(db, nil)) {
			n++
		}
	}
	return n
}

// listFiles lists the files under root by slash-separated relative path.
func listFiles(root string) (map[string]bool, error) {
	files := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = true
		return nil
	})
	return files, err
}
