package export

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/index"
)

var (
	hashedName  = regexp.MustCompile(`^(.+)\.([0-9a-f]{8})\.js$`)
	contentName = regexp.MustCompile(`^([dhp])/([0-9a-f]{12})\.js$`)
)

// checkHashedNames: every exported file but the entry is <key>.<hash>.js
// with hash = nameHash(bytes), or (dictionary shards, postings and head
// files) <kind>/<hash>.js with hash = the first 12 hex digits of the
// SHA-256 of the data it loads; each calls errdocsSearch.load with its key.
func checkHashedNames(t *testing.T, files memWriter) {
	t.Helper()
	entry := "search/" + EntryFile
	if _, ok := files[entry]; !ok {
		t.Fatalf("no entry file %s", entry)
	}
	for rel, data := range files {
		if rel == entry {
			continue
		}
		name := strings.TrimPrefix(rel, "search/")
		if c := contentName.FindStringSubmatch(name); c != nil {
			key := c[1] + "/" + c[2]
			prefix := `errdocsSearch.load("` + key + `",`
			if !bytes.HasPrefix(data, []byte(prefix)) || !bytes.HasSuffix(data, []byte(");\n")) {
				t.Errorf("%s: does not load %s", rel, key)
				continue
			}
			body := data[len(prefix) : len(data)-len(");\n")]
			if sum := sha256.Sum256(body); hex.EncodeToString(sum[:6]) != c[2] {
				t.Errorf("%s: name says %s, data hashes to %x", rel, c[2], sum[:6])
			}
			continue
		}
		m := hashedName.FindStringSubmatch(name)
		if m == nil {
			t.Errorf("%s: not a <key>.<hash8>.js name", rel)
			continue
		}
		if h := nameHash(data); h != m[2] {
			t.Errorf("%s: name says %s, bytes hash to %s", rel, m[2], h)
		}
		if want := `errdocsSearch.load("` + m[1] + `",`; !bytes.HasPrefix(data, []byte(want)) {
			t.Errorf("%s: does not start with %s", rel, want)
		}
	}
}

func TestHashedNames(t *testing.T) {
	f := buildFixture(t, 2000, 3, Options{})
	m := memWriter{}
	if _, err := New(f.ix).Export(m, Options{}); err != nil {
		t.Fatal(err)
	}
	checkHashedNames(t, m)
	// the entry names the manifest, which exists
	e := string(m["search/"+EntryFile])
	h := strings.TrimSuffix(strings.TrimPrefix(e, `errdocsSearch.load("entry","`), "\");\n")
	if _, ok := m["search/manifest."+h+".js"]; !ok {
		t.Errorf("entry %q names no manifest", e)
	}
}

// TestOneChangeRenamesFew: changing one record's documentation renames
// only the files whose bytes change and the few that name them (the
// shards naming a changed postings file, a name table, the
// manifest); every other file keeps its name and bytes, and no chunk
// boundary moves (the file count stays).
func TestOneChangeRenamesFew(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	const n = 20000
	dir := t.TempDir()
	ix, err := index.Open(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	recs := genRecords(n, 7)
	if _, err := ix.Sync(index.Records(recs)); err != nil {
		t.Fatal(err)
	}
	before := memWriter{}
	if _, err := New(ix).Export(before, Options{}); err != nil {
		t.Fatal(err)
	}
	checkHashedNames(t, before)
	word := regexp.MustCompile(`\b[a-z]{6,}\b`)
	for _, c := range []struct {
		name  string
		edit  func(doc string) string
		limit int // percent of the files
	}{
		// one word for another: the field length (so every norm) stays,
		// two terms change
		{"word replaced", func(doc string) string {
			locs := word.FindAllStringIndex(doc, -1)
			l := locs[len(locs)-1]
			return doc[:l[0]] + "zebrafishes" + doc[l[1]:]
		}, 2},
		// a sentence added: the field length changes, so the postings of
		// every documentation term of the record change (each in its
		// shard and postings file, wherever the term sorts)
		{"sentence added", func(doc string) string {
			return doc + " The fix was to rotate the expired signing certificate before the retry window closed."
		}, 5},
	} {
		k := n / 3
		if c.name != "word replaced" {
			k = n / 2
		}
		recs[k].Documentation = c.edit(recs[k].Documentation)
		if _, err := ix.Sync(index.Records(recs)); err != nil {
			t.Fatal(err)
		}
		after := memWriter{}
		if _, err := New(ix).Export(after, Options{}); err != nil {
			t.Fatal(err)
		}
		checkHashedNames(t, after)
		var gone, added []string
		for rel, data := range before {
			if d, ok := after[rel]; !ok {
				gone = append(gone, rel)
			} else if !bytes.Equal(d, data) && rel != "search/"+EntryFile {
				t.Errorf("%s: %s kept its name but changed its bytes", c.name, rel)
			}
		}
		for rel := range after {
			if _, ok := before[rel]; !ok {
				added = append(added, rel)
			}
		}
		sort.Strings(added)
		kinds := map[string]int{}
		for _, rel := range added {
			kinds[strings.SplitN(strings.TrimPrefix(rel, "search/"), "/", 2)[0]]++
		}
		t.Logf("%s: %d files; %d renamed %v", c.name, len(before), len(added), kinds)
		if len(added) != len(gone) {
			t.Errorf("%s: file count changed: %d gone, %d new", c.name, len(gone), len(added))
		}
		if limit := len(before) * c.limit / 100; len(added) > limit {
			t.Errorf("%s: %d of %d files renamed, want at most %d (%d%%): %v", c.name, len(added), len(before), limit, c.limit, added)
		}
		before = after
	}
}
