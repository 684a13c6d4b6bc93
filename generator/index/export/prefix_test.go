package export

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestPrefixListParity: type-ahead queries whose last word has an
// exported prefix list (one virtual leaf in the client) find the same
// top-10 set as bleve's prefix query.
func TestPrefixListParity(t *testing.T) {
	f := buildFixture(t, 3000, 21, Options{BlockSize: 32, PostingFileBytes: 8 << 10, HeadSize: 32})
	shards, _ := filepath.Glob(filepath.Join(f.site, "search", "d", "*.js"))
	seen := map[string]bool{}
	for _, p := range shards {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		i := strings.Index(s, ",{")
		var data struct{ X map[string]string }
		if err := json.Unmarshal([]byte(s[i+1:len(s)-3]), &data); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for k := range data.X {
			seen[k] = true
		}
	}
	var prefixes []string
	for k := range seen {
		prefixes = append(prefixes, k)
	}
	sort.Strings(prefixes)
	if len(prefixes) < 5 {
		t.Fatalf("only %d prefix lists in the fixture: %v", len(prefixes), prefixes)
	}
	var qs []parityQuery
	words := []string{"connection", "invalid", "error failed"}
	for i, p := range prefixes {
		if i >= 40 {
			break
		}
		qs = append(qs, parityQuery{q: p, opts: QueryOptions{Prefix: true}})
		qs = append(qs, parityQuery{q: words[i%len(words)] + " " + p, opts: QueryOptions{Prefix: true}})
	}
	t.Logf("%d prefix lists, e.g. %v", len(prefixes), prefixes[:5])
	checkParity(t, f, qs)
}
