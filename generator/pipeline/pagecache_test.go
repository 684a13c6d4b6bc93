package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/errdocs/errdocs"
	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/publish"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/cachefile"
)

// recordKey writes its fields into one buffer; it must hash exactly what
// the field-by-field hasher would.
func TestRecordKeyAsHasher(t *testing.T) {
	var b model.Builder
	for i := 0; i < 40; i++ {
		b.Add(model.Summarize(&record.Record{ID: fmt.Sprintf("%016x", i), Repo: fmt.Sprintf("o/r%d", i%3),
			Slug: fmt.Sprintf("s%d", i), BackgroundTag: "fam", Tags: []string{"t", fmt.Sprint(i % 5)},
			ErrorCode: fmt.Sprint(i % 7), Documentation: string(make([]byte, 50*i))}))
	}
	s := b.Build()
	global := fileKey{1, 2, 3}
	rels := make([]string, len(s.Summaries))
	recordPaths(s.Summaries, rels)
	for i := range s.Summaries {
		raw := [32]byte{byte(i)}
		h := newHasher(global)
		h.bytes(raw[:])
		h.str(rels[s.Canonical(int32(i))])
		if s.Summaries[i].Thin() {
			h.num(1)
		} else {
			h.num(0)
		}
		for _, j := range s.Related(int32(i)) {
			sum := s.Sum(j)
			h.h.Write(sum[:])
		}
		if got, want := recordKey(global, s, rels, int32(i), raw), h.key(); got != want {
			t.Fatalf("record %d: key %x, want %x", i, got, want)
		}
	}
}

func TestPageCacheForm(t *testing.T) {
	pc := &pageCache{Entries: entryMap{}, Unusable: 3, Marker: publish.Fingerprint{Size: 1, ModTime: 2, Ino: 3}}
	indexed := indexedMap{}
	for i := 0; i < 500; i++ {
		pc.Entries[fmt.Sprintf("o/r%d/s%d/index.html", i%7, i)] = cacheEntry{Kind: uint8(i % 5), Key: fileKey{byte(i), 9},
			Group: fmt.Sprintf("tags/t%d/", i%3), Print: publish.Fingerprint{Size: int64(i), ModTime: -int64(i) << 40, Ino: uint64(i) << 50}}
		indexed[fmt.Sprintf("%016x", i)] = [32]byte{byte(i), 1}
	}
	pc.indexed = indexedTableOf(indexed)
	enc := encodePageCache
	data := enc(pc)
	if !bytes.Equal(enc(pc), data) {
		t.Error("the same cache encodes to other bytes")
	}
	got, err := decodePageCache(data)
	if err != nil {
		t.Fatal(err)
	}
	all, err := got.allEntries()
	if err != nil || !maps.Equal(all, pc.Entries) || !maps.Equal(got.indexed.toMap(), indexed) || got.Unusable != 3 || got.Marker != pc.Marker {
		t.Errorf("decoded cache differs (%v)", err)
	}
	// The record pages' entries are in a table of their own, walked in
	// path order, not in the map.
	var walked []string
	got.walkRecords(func(rel []byte, e *cacheEntry) bool {
		if e.Kind != kindRecord {
			t.Errorf("%s of kind %d in the record pages' table", rel, e.Kind)
		}
		walked = append(walked, string(rel))
		return true
	})
	if len(walked) != got.nRecords || len(walked) != 100 || !slices.IsSorted(walked) {
		t.Errorf("walked %d record pages (noted %d, want 100), sorted %v", len(walked), got.nRecords, slices.IsSorted(walked))
	}
	for rel, e := range got.Entries {
		if e.Kind == kindRecord {
			t.Errorf("record page %s in the map", rel)
		}
	}
	var m entryMap
	form := pc.Entries.encode()
	for n := 0; n < len(form); n += 97 {
		if m.decode(form[:n]) == nil {
			t.Errorf("entries cut at %d bytes decoded", n)
		}
	}
	var ix indexedMap
	form = indexed.encode()
	for n := 0; n < len(form); n += 41 {
		if ix.decode(form[:n]) == nil {
			t.Errorf("index hashes cut at %d bytes decoded", n)
		}
	}
}

// A rebuild that changes nothing writes no page cache: it compares the
// cache's bytes with the file's. So equal caches must make equal bytes,
// and a cache that differs in anything other bytes.
func TestPageCacheBytes(t *testing.T) {
	mk := func() *pageCache {
		return &pageCache{Entries: entryMap{"a/index.html": {Kind: 1, Key: fileKey{1}}, "b/index.html": {Kind: 2}},
			indexed: indexedTableOf(indexedMap{"x": {2}, "y": {3}}), Unusable: 1}
	}
	enc := encodePageCache
	want := enc(mk())
	if !bytes.Equal(enc(mk()), want) {
		t.Error("equal caches encode to other bytes")
	}
	got, err := decodePageCache(want)
	if err != nil || !bytes.Equal(enc(got), want) {
		t.Errorf("a decoded cache encodes to other bytes (%v)", err)
	}
	for _, k := range []int{0, len(want) / 2, len(want) - 1} {
		bad := bytes.Clone(want)
		bad[k] ^= 1
		if _, err := decodePageCache(bad); err == nil {
			t.Errorf("a cache with byte %d changed decoded", k)
		}
	}
	if _, err := decodePageCache(want[:len(want)-1]); err == nil {
		t.Error("a cut cache decoded")
	}
	for name, change := range map[string]func(*pageCache){
		"entry": func(p *pageCache) { p.Entries["a/index.html"] = cacheEntry{Kind: 1, Key: fileKey{2}} },
		"print": func(p *pageCache) {
			p.Entries["a/index.html"] = cacheEntry{Kind: 1, Key: fileKey{1}, Print: publish.Fingerprint{Ino: 1}}
		},
		"entries":  func(p *pageCache) { p.Entries["c"] = cacheEntry{} },
		"indexed":  func(p *pageCache) { p.indexed = indexedTableOf(indexedMap{"x": {3}, "y": {3}}) },
		"nil":      func(p *pageCache) { p.indexed = indexedTable{} },
		"unusable": func(p *pageCache) { p.Unusable = 2 },
		"marker":   func(p *pageCache) { p.Marker.Ino = 9 },
	} {
		b := mk()
		change(b)
		if bytes.Equal(enc(b), want) {
			t.Errorf("caches differing in %s encode alike", name)
		}
	}
}

// encodeIndexed makes the bytes indexedMap.encode makes of the same
// table, which decode back to it.
func TestEncodeIndexed(t *testing.T) {
	var ids []string
	var raws [][32]byte
	m := indexedMap{}
	for k := range 500 {
		id := fmt.Sprintf("%016x", uint64(k*2654435761)%99991)
		if _, dup := m[id]; dup {
			continue
		}
		h := sha256.Sum256([]byte(id))
		ids, raws = append(ids, id), append(raws, h)
		m[id] = h
	}
	got := encodeIndexed(ids, raws, sortedOrder(ids))
	if !bytes.Equal(got, m.encode()) {
		t.Fatal("encodeIndexed and indexedMap.encode differ")
	}
	var back indexedMap
	if err := back.decode(got); err != nil || !maps.Equal(back, m) {
		t.Fatalf("decoded back: %v, equal %v", err, maps.Equal(back, m))
	}
	if empty := encodeIndexed(nil, nil, nil); !bytes.Equal(empty, (indexedMap{}).encode()) {
		t.Fatal("an empty table encodes otherwise")
	}
}

// encodeEntries of a table and entries kept beside it, sorted, makes the
// bytes entryMap.encode makes of one table holding them all (the sorted
// entries winning a path both have), which decode back to it.
func TestEncodeEntriesMerged(t *testing.T) {
	all, table := entryMap{}, entryMap{}
	var recs sortedEntries
	for k := range 600 {
		rel := fmt.Sprintf("repo-%d/slug-%x/index.html", k%7, uint64(k*2654435761)%99991)
		e := cacheEntry{Kind: kindRecord, Print: publish.Fingerprint{Size: int64(k), ModTime: int64(k * 3), Ino: uint64(k)}}
		e.Key[0] = byte(k)
		if k%3 == 0 {
			e.Kind, e.Group = kindListing, fmt.Sprintf("repo-%d/", k%7)
			table[rel] = e
		} else {
			recs.rels = append(recs.rels, rel)
		}
		all[rel] = e
	}
	// A path in both: the sorted entry's is the one kept.
	shared := "repo-1/index.html"
	table[shared] = cacheEntry{Kind: kindListing, Group: "repo-1/"}
	all[shared] = cacheEntry{Kind: kindRecord, Key: fileKey{9}}
	recs.rels = append(recs.rels, shared)
	slices.Sort(recs.rels)
	for _, rel := range recs.rels {
		recs.entries = append(recs.entries, all[rel])
	}
	got := encodeEntries(table, recs)
	if !bytes.Equal(got, all.encode()) {
		t.Fatal("encodeEntries and entryMap.encode of the whole differ")
	}
	var back entryMap
	if err := back.decode(got); err != nil || !maps.Equal(back, all) {
		t.Fatalf("decoded back: %v, equal %v", err, maps.Equal(back, all))
	}
	if !bytes.Equal(encodeEntries(entryMap{}, sortedEntries{}), (entryMap{}).encode()) {
		t.Fatal("an empty table encodes otherwise")
	}
}

// The table of hashes, read in place, tells each record whether it holds
// its id and with its hash, as a map of it would; a table out of order or
// cut short is refused.
func TestIndexedTableDiff(t *testing.T) {
	held := indexedMap{}
	var ids []string
	var raws [][32]byte
	// Enough records for diff to walk them in parts side by side.
	const n = 3*minDiffPart + 17
	for k := range n {
		id := fmt.Sprintf("%016x", uint64(k)*2654435761%(1<<40))
		h := sha256.Sum256([]byte(id))
		switch k % 3 {
		case 0: // held, same hash
			held[id] = h
		case 1: // held, another hash
			held[id] = [32]byte{1}
		}
		if k%5 != 4 { // in the dataset
			ids, raws = append(ids, id), append(raws, h)
		}
	}
	table, err := decodeIndexedTable(held.encode())
	if err != nil || !table.known || table.n != len(held) || !table.fixed {
		t.Fatalf("table of %d: %+v, %v", len(held), table.n, err)
	}
	var want []int32
	wantHeld := 0
	order := sortedOrder(ids)
	for _, i := range order {
		h, ok := held[ids[i]]
		if ok {
			wantHeld++
		}
		if !ok || h != raws[i] {
			want = append(want, i)
		}
	}
	for _, parts := range []int{1, 2, 3, 8} {
		edited, got, ok := table.diff(ids, raws, order, len(ids), parts)
		if !ok || got != wantHeld || !slices.Equal(edited, want) {
			t.Errorf("%d parts: %d edited, %d held, ok %v; want %d, %d", parts, len(edited), got, ok, len(want), wantHeld)
		}
		if _, _, ok := table.diff(ids, raws, order, len(want)-1, parts); ok {
			t.Errorf("%d parts: went on past the most edited asked for", parts)
		}
		if _, _, ok := table.diff(ids, raws, order, len(want), parts); !ok {
			t.Errorf("%d parts: gave up at exactly the most edited", parts)
		}
	}
	// A table of ids of other lengths is walked whole, in one part.
	odd := indexedMap{"a": [32]byte{}, "b" + ids[order[0]]: raws[order[0]], ids[order[1]]: raws[order[1]]}
	oddTable, err := decodeIndexedTable(odd.encode())
	if err != nil || oddTable.fixed {
		t.Fatalf("odd table: fixed %v, %v", oddTable.fixed, err)
	}
	edited, got, ok := oddTable.diff(ids, raws, order, len(ids), 4)
	if !ok || got != 1 || len(edited) != len(ids)-1 || slices.Contains(edited, order[1]) {
		t.Errorf("odd table: %d edited, %d held, ok %v", len(edited), got, ok)
	}
	if none, err := decodeIndexedTable([]byte{0}); err != nil || none.known {
		t.Errorf("no table: %+v, %v", none, err)
	}
	form := held.encode()
	for n := 1; n < len(form); n += 37 {
		if _, err := decodeIndexedTable(form[:n]); err == nil {
			t.Errorf("a table cut at %d bytes decoded", n)
		}
	}
	// Two entries swapped: out of order.
	b := binary.AppendUvarint(nil, 3)
	b = append(cachefile.AppendString(b, "b"), make([]byte, 32)...)
	b = append(cachefile.AppendString(b, "a"), make([]byte, 32)...)
	if _, err := decodeIndexedTable(b); err == nil {
		t.Error("a table out of order decoded")
	}
}

// A rebuild after one record's documentation changed renders that
// record's page alone and keeps every other, trusting the page cache or
// (--verify) looking at the files; the site is the one a cold build
// makes.
func TestOneChangeRendersOnePage(t *testing.T) {
	trustAll(t)
	for _, verify := range []bool{false, true} {
		in, files := testInput(t)
		dir := t.TempDir()
		c := Config{Paths: []string{in}, Out: filepath.Join(dir, "site"), CacheDir: filepath.Join(dir, "cache"),
			Templates: errdocs.Templates, Static: errdocs.Static, Verify: verify}
		first := runConfig(t, c)
		// Of the same length: the summaries, which the related records'
		// pages are made from, stay the same.
		r := files[0][1].(map[string]any)
		r["documentation"] = strings.Replace(r["documentation"].(string), "Record 2.", "Record X.", 1)
		writeRecords(t, filepath.Join(in, "f0.json"), files[0]...)
		o := runConfig(t, c)
		if o.rep.Reused != first.rep.Built-1 || o.rep.Built != first.rep.Built {
			t.Errorf("verify %v: %d record pages, %d kept; want %d, %d", verify, o.rep.Built, o.rep.Reused, first.rep.Built, first.rep.Built-1)
		}
		cold := runConfig(t, Config{Paths: []string{in}, Out: filepath.Join(dir, "cold"), CacheDir: filepath.Join(dir, "cold-cache"),
			Templates: errdocs.Templates, Static: errdocs.Static})
		if !maps.Equal(o.files, cold.files) {
			t.Errorf("verify %v: the rebuilt site differs from a cold build's", verify)
		}
	}
}

// patchIndexed makes, from the previous table and the records whose
// hashes changed as diff finds them, the bytes encodeIndexed makes of
// the whole dataset; it refuses an edited id the table lacks, and a
// table whose ids are not all of a valid id's length.
func TestPatchIndexed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 3000
	ids, raws := make([]string, n), make([][32]byte, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("%016x", rng.Uint64())
		raws[i] = sha256.Sum256([]byte(ids[i]))
	}
	order := sortedOrder(ids)
	prev, err := decodeIndexedTable(encodeIndexed(ids, raws, order))
	if err != nil || !prev.fixed {
		t.Fatalf("the table of valid ids: %v, fixed %v", err, prev.fixed)
	}
	for _, edits := range []int{0, 1, 2, 40, n} {
		now := slices.Clone(raws)
		for _, i := range rng.Perm(n)[:edits] {
			now[i][0] ^= 0xff
		}
		d := indexedDiff{}
		d.edited, d.held, d.ok = prev.diff(ids, now, order, n, 2)
		pieces, ok := patchIndexed(prev, ids, now, d.edited)
		if !ok || len(d.edited) != edits || !bytes.Equal(bytes.Join(pieces, nil), encodeIndexed(ids, now, order)) {
			t.Fatalf("%d edits (diff found %d): patched %v, not the table encoded whole", edits, len(d.edited), ok)
		}
	}
	missing := slices.Clone(ids)
	missing[7] = "00000000000000zz"
	if _, ok := patchIndexed(prev, missing, raws, []int32{7}); ok {
		t.Error("patched an id the table does not hold")
	}
	short, _ := decodeIndexedTable(encodeIndexed([]string{"a", ids[0]}, raws[:2], []int32{0, 1}))
	if _, ok := patchIndexed(short, []string{"a", ids[0]}, raws[:2], []int32{1}); ok {
		t.Error("patched a table whose ids are not all of one length")
	}
}
