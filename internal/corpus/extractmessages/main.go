// Command extractmessages takes the error messages raised in source trees on
// disk (the string literals of Python raise X("..."), Go errors.New /
// fmt.Errorf / panic, JS/TS throw new E("..."), Rust panic! / bail! /
// anyhow! / Err(format!(...)), Java and C++ throw) and writes them as
// gzipped JSON Lines, the real messages that internal/corpus puts in records
// when asked (corpus.Dataset.UseRealMessages).
//
//	go run ./internal/corpus/extractmessages -out internal/corpus/testdata/realmessages.jsonl.gz \
//	    owner/name=DIR [owner/name=DIR ...]
//
// A message keeps the source's placeholders as written (%s %d %v %q, {} {0}
// {name} {:?}, f-string {expr}, ${x}); a variable concatenated into the
// message ("..." + name + "...") is written as a placeholder of its name,
// ${name} in JavaScript and TypeScript and {name} elsewhere. Adjacent
// literals are joined, as the languages join them. Test folders, vendored
// and generated files are skipped; a message already taken (the same text)
// is taken once.
package main

import (
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Message is one line of the output file.
type Message struct {
	Repo    string `json:"repo"`    // owner/name it was taken from
	Path    string `json:"path"`    // its file in the repo
	Line    int    `json:"line"`    // the raising line (1-based)
	Lang    string `json:"lang"`    // corpus language code: py go ts js rs java cpp
	Message string `json:"message"` // the message as the source spells it
}

var langOf = map[string]string{
	".py": "py", ".go": "go", ".ts": "ts", ".tsx": "ts", ".js": "js", ".mjs": "js", ".cjs": "js",
	".rs": "rs", ".java": "java", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".h": "cpp",
}

// siteRE finds a raise site; its match ends where the message's argument
// list begins (just after an opening parenthesis) or, for raise and
// throw, before the raised expression.
var siteRE = map[string]*regexp.Regexp{
	"py":   regexp.MustCompile(`(?m)^[ \t]*raise[ \t]+[\w.]+\(`),
	"go":   regexp.MustCompile(`\b(?:panic|errors\.New|fmt\.Errorf|errors\.Errorf|status\.Errorf|errors\.Wrapf?|status\.Error)\(`),
	"ts":   regexp.MustCompile(`\bthrow\s+(?:new\s+)?[\w.]+\(`),
	"js":   regexp.MustCompile(`\bthrow\s+(?:new\s+)?[\w.]+\(`),
	"rs":   regexp.MustCompile(`\b(?:panic!|bail!|anyhow!|format_err!|unreachable!|Err)\(`),
	"java": regexp.MustCompile(`\bthrow\s+new\s+[\w.]+\(`),
	"cpp":  regexp.MustCompile(`\bthrow\s+[\w:]+(?:<[^>]*>)?\(`),
}

// leadRE is what may stand between a site and its message's first literal:
// calls that build the message (fmt.Sprintf(, format!(, String.format(,
// new Error(, _( ), and for Go's status.Errorf(codes.X, and errors.Wrap(err,
// one leading argument.
var leadRE = regexp.MustCompile(`^(?:[\s&]*(?:new\s+)?[\w.:]+!?\(|\s*[\w.]+\s*,)*\s*$`)

const (
	perRepo = 1200 // most messages taken from one source tree
	maxLen  = 300  // longest message kept (bytes)
)

func main() {
	out := flag.String("out", "realmessages.jsonl.gz", "output `file` (gzipped JSON Lines)")
	limit := flag.Int("per-repo", perRepo, "most messages taken from one source tree")
	flag.Parse()
	var all []Message
	seen := map[string]bool{}
	for _, arg := range flag.Args() {
		repo, dir, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintln(os.Stderr, "extractmessages: want owner/name=DIR, got", arg)
			os.Exit(2)
		}
		ms, err := fromTree(repo, dir, *limit, seen)
		if err != nil {
			fmt.Fprintln(os.Stderr, "extractmessages:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "%s: %d messages\n", repo, len(ms))
		all = append(all, ms...)
	}
	if err := write(*out, all); err != nil {
		fmt.Fprintln(os.Stderr, "extractmessages:", err)
		os.Exit(1)
	}
}

// skipDir reports folders of tests, examples, vendored or generated code.
func skipDir(name string) bool {
	switch strings.ToLower(name) {
	case "test", "tests", "testing", "testdata", "__tests__", "spec", "vendor", "node_modules",
		"third_party", "thirdparty", "examples", "example", "docs", "benches", "fuzz", "dist", "build":
		return true
	}
	return strings.HasPrefix(name, ".")
}

func skipFile(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "_test.") || strings.Contains(n, ".test.") || strings.Contains(n, ".spec.") ||
		strings.HasPrefix(n, "test_") || strings.HasSuffix(n, ".min.js") || strings.HasSuffix(n, ".d.ts") ||
		strings.HasSuffix(n, "test.java") || strings.HasSuffix(n, "tests.java")
}

func fromTree(repo, root string, limit int, seen map[string]bool) ([]Message, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if _, ok := langOf[strings.ToLower(filepath.Ext(p))]; ok && d.Type().IsRegular() && !skipFile(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Message
	for _, f := range files {
		ms, err := fromFile(repo, root, f)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			if !seen[m.Message] {
				seen[m.Message] = true
				out = append(out, m)
			}
		}
	}
	// Spread the limit over the whole tree rather than its first files.
	if len(out) > limit {
		kept := make([]Message, 0, limit)
		for i := range limit {
			kept = append(kept, out[i*len(out)/limit])
		}
		out = kept
	}
	return out, nil
}

func fromFile(repo, root, path string) ([]Message, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(data) || len(data) > 1<<20 || strings.Contains(string(data[:min(len(data), 2048)]), "Code generated") {
		return nil, nil
	}
	lang := langOf[strings.ToLower(filepath.Ext(path))]
	src := strings.ReplaceAll(string(data), "\r\n", "\n")
	rel, _ := filepath.Rel(root, path)
	var out []Message
	for _, loc := range siteRE[lang].FindAllStringIndex(src, -1) {
		if commented(src, loc[0], lang) {
			continue
		}
		msg, ok := messageAt(src, loc[1], lang)
		if !ok || !plausible(msg) {
			continue
		}
		line := 1 + strings.Count(src[:loc[0]], "\n")
		out = append(out, Message{Repo: repo, Path: filepath.ToSlash(rel), Line: line, Lang: lang, Message: msg})
	}
	return out, nil
}

// commented reports a site on a line that is a comment.
func commented(src string, at int, lang string) bool {
	start := strings.LastIndexByte(src[:at], '\n') + 1
	l := strings.TrimSpace(src[start:at])
	if lang == "py" {
		return strings.HasPrefix(l, "#")
	}
	return strings.HasPrefix(l, "//") || strings.HasPrefix(l, "*") || strings.HasPrefix(l, "/*")
}

// plausible keeps messages a person could read: two words of letters at
// least, one line, not too long.
func plausible(msg string) bool {
	if len(msg) < 8 || len(msg) > maxLen || strings.ContainsAny(msg, "\n\r\t") || !utf8.ValidString(msg) {
		return false
	}
	words := 0
	for _, w := range strings.Fields(msg) {
		if len(w) >= 2 && isLetters(strings.Trim(w, ".,:;'\"`()[]")) {
			words++
		}
	}
	return words >= 2
}

func isLetters(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '\'') {
			return false
		}
	}
	return true
}

func write(path string, ms []Message) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	for i := range ms {
		if err := enc.Encode(&ms[i]); err != nil {
			f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
