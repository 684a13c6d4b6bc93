package pipeline

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/errdocs/errdocs"
	"github.com/errdocs/errdocs/generator/publish"
)

// The table of record pages made from the previous one's runs is the
// table encoded whole, byte for byte, whatever pages were added, removed
// or changed between the two, and wherever (first, last, side by side).
func TestPatchRecordPagesAsEncoded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := 1 + rng.IntN(60)
		var prevRels []string
		prevEntries := map[string]cacheEntry{}
		for k := range n {
			// Paths that share prefixes of many lengths.
			rel := fmt.Sprintf("o%d/r%d/s%d-%d/index.html", rng.IntN(3), rng.IntN(3), rng.IntN(4), k)
			prevRels = append(prevRels, rel)
			prevEntries[rel] = cacheEntry{Kind: kindRecord, Key: fileKey{byte(k)}, Print: publish.Fingerprint{Size: int64(k), Ino: uint64(round)}}
		}
		slices.Sort(prevRels)
		table := encodeSorted(func(fn func(string, *cacheEntry)) {
			for _, rel := range prevRels {
				e := prevEntries[rel]
				fn(rel, &e)
			}
		})
		prev := &pageCache{records: table, nRecords: n}

		// This build: some pages gone, some new, some with another key.
		var rels []string
		var keys []fileKey
		for _, rel := range prevRels {
			switch rng.IntN(8) {
			case 0: // gone
				continue
			case 1: // another key
				rels, keys = append(rels, rel), append(keys, fileKey{0xff, byte(len(rels))})
			default:
				rels, keys = append(rels, rel), append(keys, prevEntries[rel].Key)
			}
		}
		for k := range rng.IntN(4) {
			rels, keys = append(rels, fmt.Sprintf("o%d/r%d/new-%d/index.html", rng.IntN(3), rng.IntN(3), k)), append(keys, fileKey{0xfe, byte(k)})
		}
		// The model's order is not the paths': order sorts them.
		perm := rng.Perm(len(rels))
		shuffled, shuffledKeys := make([]string, len(rels)), make([]fileKey, len(rels))
		for k, p := range perm {
			shuffled[p], shuffledKeys[p] = rels[k], keys[k]
		}
		rels, keys = shuffled, shuffledKeys
		order := sortedOrder(rels)

		m, err := matchRecordPages(prev, rels, keys, order)
		if err != nil {
			t.Fatal(err)
		}
		entryOf := func(i int32) cacheEntry {
			if e, ok := prevEntries[rels[i]]; ok && e.Key == keys[i] {
				return e // kept
			}
			return cacheEntry{Kind: kindRecord, Key: keys[i], Print: publish.Fingerprint{Size: 1000 + int64(i), ModTime: 7}}
		}
		want := encodeSorted(func(fn func(string, *cacheEntry)) {
			for _, i := range order {
				e := entryOf(i)
				fn(rels[i], &e)
			}
		})
		got := bytes.Join(patchRecordPages(table, m.runs, rels, order, entryOf), nil)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: the patched table differs from the table encoded whole\nprevious %q\nnow %q", round, prevRels, rels)
		}
		// What the walk says of the previous pages.
		gone := 0
		for _, rel := range prevRels {
			if !slices.Contains(rels, rel) {
				gone++
				if !slices.Contains(m.gone, rel) {
					t.Errorf("round %d: %s is gone but not noted", round, rel)
				}
			}
		}
		if len(m.gone) != gone || m.staying != n-gone {
			t.Errorf("round %d: %d gone, %d staying; want %d, %d", round, len(m.gone), m.staying, gone, n-gone)
		}
	}
}

// recordTable returns the record pages' entries of the page cache of the
// site at out, decoded.
func recordTable(t *testing.T, cache, out string) map[string]cacheEntry {
	t.Helper()
	data, err := os.ReadFile(pageCachePath(cache, out))
	if err != nil {
		t.Fatal(err)
	}
	pc, err := decodePageCache(data)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]cacheEntry{}
	if err := pc.walkRecords(func(rel []byte, e *cacheEntry) bool {
		got[string(rel)] = *e
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

// Over rebuilds that change, add and remove records, the page cache's
// table of record pages (made from the previous table's runs) holds
// exactly the site's record pages, each under the key a cold build gives
// it and with its file's fingerprint; the site is a cold build's; a page
// gone from the dataset is gone from the site.
func TestRecordPagesTableFollowsTheSite(t *testing.T) {
	trustAll(t)
	in, files := testInput(t)
	dir := t.TempDir()
	c := Config{Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: filepath.Join(dir, "cache"),
		Templates: errdocs.Templates, Static: errdocs.Static}
	runConfig(t, c)
	edits := []func(){
		func() { // one record's documentation
			r := files[0][1].(map[string]any)
			r["documentation"] = strings.Replace(r["documentation"].(string), "Record 2.", "Record X.", 1)
		},
		func() { // the first and the last record of a file
			for _, r := range []any{files[2][0], files[2][3]} {
				r.(map[string]any)["documentation"] = r.(map[string]any)["documentation"].(string) + " More."
			}
		},
		func() { // a record added, another removed
			files[0] = append(files[0][:2], files[0][3:]...)
			files[2] = append(files[2], seedRecord(t, 300, nil))
		},
		func() {}, // nothing
	}
	for round, edit := range edits {
		edit()
		for f, recs := range files {
			writeRecords(t, filepath.Join(in, fmt.Sprintf("f%d.json", f)), recs...)
		}
		o := runConfig(t, c)
		cold := Config{Paths: []string{in}, Out: filepath.Join(dir, fmt.Sprintf("cold%d", round)), CacheDir: filepath.Join(dir, fmt.Sprintf("cold-cache%d", round)),
			Templates: errdocs.Templates, Static: errdocs.Static}
		co := runConfig(t, cold)
		if !maps.Equal(o.files, co.files) {
			t.Fatalf("round %d: the rebuilt site differs from a cold build's", round)
		}
		got, want := recordTable(t, c.CacheDir, c.Out), recordTable(t, cold.CacheDir, cold.Out)
		if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
			t.Fatalf("round %d: the cache notes the record pages %q, want %q", round, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
		for rel, e := range got {
			fi, err := os.Lstat(filepath.Join(c.Out, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if e.Key != want[rel].Key || e.Print != publishPrint(fi) {
				t.Errorf("round %d: %s noted with key %x, print %+v; want %x, %+v", round, rel, e.Key, e.Print, want[rel].Key, publishPrint(fi))
			}
		}
	}
}

// publishPrint is the fingerprint publish notes of a file.
func publishPrint(fi os.FileInfo) publish.Fingerprint {
	return publish.Fingerprint{Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), Ino: fi.Sys().(*syscall.Stat_t).Ino}
}
