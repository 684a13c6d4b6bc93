// Command extractcode takes source excerpts around real raise sites
// (Python raise, Go panic/errors.New/fmt.Errorf, JS/TS throw, Rust
// panic!/bail!/anyhow!/Err(, Java and C++ throw) from source trees on disk
// and writes them as gzipped JSON Lines, the real-code excerpts that
// internal/corpus puts in records when asked (corpus.Dataset.UseRealCode).
//
//	go run ./internal/corpus/extractcode -out internal/corpus/testdata/realcode.jsonl.gz \
//	    owner/name=DIR [owner/name=DIR ...]
//
// Each excerpt is the raising line with up to 39 lines before and after it
// (cut at the file's ends), so that a record can show any 40-line window
// that holds the raising line: records then show distinct excerpts, as
// real ones do, and the highlight cache does not serve them. Test
// folders, vendored and generated files are skipped; at most perFile
// sites are taken from a file (spread over it) and perRepo from a source
// tree, so no project dominates.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/errdocs/errdocs/internal/corpus/sourcetree"
)

// Excerpt is one line of the output file.
type Excerpt struct {
	Repo  string `json:"repo"`  // owner/name it was taken from
	Path  string `json:"path"`  // its file in the repo
	Lang  string `json:"lang"`  // corpus language code: py go ts js rs java cpp
	Start int    `json:"start"` // the excerpt's first line in the file (1-based)
	Raise int    `json:"raise"` // the raising line's index in the excerpt (0-based)
	Code  string `json:"code"`  // lines joined by "\n", no final newline: up to 79
}

var raiseRE = map[string]*regexp.Regexp{
	"py":   regexp.MustCompile(`^\s*raise\s+\w`),
	"go":   regexp.MustCompile(`\bpanic\(|\berrors\.New\(|\bfmt\.Errorf\(`),
	"ts":   regexp.MustCompile(`\bthrow\s+(new\s+)?\w`),
	"js":   regexp.MustCompile(`\bthrow\s+(new\s+)?\w`),
	"rs":   regexp.MustCompile(`\bpanic!\(|\bbail!\(|\banyhow!\(|return Err\(`),
	"java": regexp.MustCompile(`\bthrow\s+new\s+\w`),
	"cpp":  regexp.MustCompile(`\bthrow\s+\w`),
}

const (
	around  = 39 // lines kept before and after the raising line
	perFile = 10
)

func main() {
	out := flag.String("out", "realcode.jsonl.gz", "output `file` (gzipped JSON Lines)")
	perRepo := flag.Int("per-repo", 400, "most excerpts taken from one source tree")
	flag.Parse()
	var all []Excerpt
	for _, arg := range flag.Args() {
		repo, dir, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintln(os.Stderr, "extractcode: want owner/name=DIR, got", arg)
			os.Exit(2)
		}
		ex, err := fromTree(repo, dir, *perRepo)
		if err != nil {
			fmt.Fprintln(os.Stderr, "extractcode:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "%s: %d excerpts\n", repo, len(ex))
		all = append(all, ex...)
	}
	if err := sourcetree.WriteJSONL(*out, all); err != nil {
		fmt.Fprintln(os.Stderr, "extractcode:", err)
		os.Exit(1)
	}
}

func fromTree(repo, root string, limit int) ([]Excerpt, error) {
	files, err := sourcetree.Files(root)
	if err != nil {
		return nil, err
	}
	var out []Excerpt
	for _, f := range files {
		ex, err := fromFile(repo, root, f)
		if err != nil {
			return nil, err
		}
		out = append(out, ex...)
	}
	return sourcetree.Spread(out, limit), nil
}

func fromFile(repo, root, path string) ([]Excerpt, error) {
	src, ok, err := sourcetree.Read(path)
	if !ok {
		return nil, err
	}
	lang := sourcetree.Lang(path)
	re := raiseRE[lang]
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	var sites []int
	for i, l := range lines {
		if re.MatchString(l) && !strings.HasPrefix(strings.TrimSpace(l), "//") && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			sites = append(sites, i)
		}
	}
	if len(sites) > perFile {
		picked := make([]int, 0, perFile)
		for k := range perFile {
			picked = append(picked, sites[k*len(sites)/perFile])
		}
		sites = picked
	}
	rel, _ := filepath.Rel(root, path)
	var out []Excerpt
	for _, s := range sites {
		first := max(0, s-around)
		last := min(len(lines), s+around+1)
		code := strings.Join(lines[first:last], "\n")
		if strings.TrimSpace(code) == "" {
			continue
		}
		out = append(out, Excerpt{Repo: repo, Path: filepath.ToSlash(rel), Lang: lang, Start: first + 1, Raise: s - first, Code: code})
	}
	return out, nil
}
