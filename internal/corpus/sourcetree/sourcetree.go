// Package sourcetree is what the corpus's extraction commands
// (extractcode, extractmessages) share: which files of a source tree on
// disk are real source of a language the corpus knows, their text, and how
// the commands write what they took from them.
package sourcetree

import (
	"compress/gzip"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// langOf maps a file extension to the corpus's language code.
var langOf = map[string]string{
	".py": "py", ".go": "go", ".ts": "ts", ".tsx": "ts", ".js": "js", ".mjs": "js", ".cjs": "js",
	".rs": "rs", ".java": "java", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".h": "cpp",
}

// Lang is the corpus language code of a source file (py go ts js rs java
// cpp), or "" when the corpus has none for its extension.
func Lang(path string) string { return langOf[strings.ToLower(filepath.Ext(path))] }

// Files returns the source files below root of a language the corpus
// knows, sorted, leaving out tests, examples, vendored and built code.
func Files(root string) ([]string, error) {
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
		if Lang(p) != "" && d.Type().IsRegular() && !skipFile(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
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

// skipFile reports test files and minified or declaration-only ones.
func skipFile(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "_test.") || strings.Contains(n, ".test.") || strings.Contains(n, ".spec.") ||
		strings.HasPrefix(n, "test_") || strings.HasSuffix(n, ".min.js") || strings.HasSuffix(n, ".d.ts") ||
		strings.HasSuffix(n, "test.java") || strings.HasSuffix(n, "tests.java")
}

// Read returns a source file's text with CRLF line ends made LF, and
// false when it is nothing to take from: not UTF-8, over 1 MB, or
// generated.
func Read(path string) (string, bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false, err
	}
	if !utf8.Valid(data) || len(data) > 1<<20 || strings.Contains(string(data[:min(len(data), 2048)]), "Code generated") {
		return "", false, nil
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n"), true, nil
}

// Spread keeps at most limit of items, spread over the whole list rather
// than its first ones, so that one tree's first files do not stand for it.
func Spread[T any](items []T, limit int) []T {
	if len(items) <= limit {
		return items
	}
	kept := make([]T, 0, limit)
	for i := range limit {
		kept = append(kept, items[i*len(items)/limit])
	}
	return kept
}

// WriteJSONL writes items to path as gzipped JSON Lines.
func WriteJSONL[T any](path string, items []T) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	for i := range items {
		if err := enc.Encode(&items[i]); err != nil {
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
