package index

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/errdocs/errdocs/internal/corpus"
)

// sourceIdentifiersAll is SourceIdentifiers over the whole identifier text.
func sourceIdentifiersAll(code string) string {
	code = stripCommentsAndStrings(code)
	var keep []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(IdentifierText(code, 4)) {
		if len(keep) >= maxSourceIdentifiers {
			break
		}
		if strings.Contains(w, ".") {
			last := w[strings.LastIndexByte(w, '.')+1:]
			r, _ := utf8.DecodeRuneInString(last)
			first := w[:strings.IndexByte(w, '.')]
			if !unicode.IsUpper(r) || first == "this" || first == "self" {
				continue
			}
		} else if !hasStructure(w) {
			continue
		}
		if !seen[w] {
			seen[w] = true
			keep = append(keep, w)
		}
	}
	return IdentifierText(strings.Join(keep, " "), 0)
}

// TestSourceIdentifiersStopsEarly checks that stopping the walk at the
// last identifier kept changes nothing.
func TestSourceIdentifiersStopsEarly(t *testing.T) {
	srcs := []string{"", "a", strings.Repeat("fooBar_baz QuxQuux.Zed ", 40), "this.fooBar self.X os.PathError"}
	for _, r := range corpus.Generate(1500, 11).Records() {
		srcs = append(srcs, r.SourceCode, r.TryCatchPattern, r.ExampleFix)
	}
	for _, src := range srcs {
		if got, want := SourceIdentifiers(src), sourceIdentifiersAll(src); got != want {
			t.Fatalf("SourceIdentifiers(%q) = %q, want %q", src, got, want)
		}
	}
}
