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
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/errdocs/errdocs/internal/corpus/sourcetree"
)

// Message is one line of the output file.
type Message struct {
	Repo    string `json:"repo"`    // owner/name it was taken from
	Path    string `json:"path"`    // its file in the repo
	Line    int    `json:"line"`    // the raising line (1-based)
	Lang    string `json:"lang"`    // corpus language code: py go ts js rs java cpp
	Message string `json:"message"` // the message as the source spells it
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
	if err := sourcetree.WriteJSONL(*out, all); err != nil {
		fmt.Fprintln(os.Stderr, "extractmessages:", err)
		os.Exit(1)
	}
}

func fromTree(repo, root string, limit int, seen map[string]bool) ([]Message, error) {
	files, err := sourcetree.Files(root)
	if err != nil {
		return nil, err
	}
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
	return sourcetree.Spread(out, limit), nil
}

func fromFile(repo, root, path string) ([]Message, error) {
	src, ok, err := sourcetree.Read(path)
	if !ok {
		return nil, err
	}
	lang := sourcetree.Lang(path)
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
