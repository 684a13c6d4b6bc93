package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errdocs/errdocs"
	"github.com/errdocs/errdocs/internal/cachefile"
	"github.com/errdocs/errdocs/internal/testseed"
)

// The read cache must never change what a build makes: each test below
// builds the same input twice, once keeping the read cache from build to
// build and once with the cache deleted first, and wants the same site,
// the same problems and the same rejects file from both, byte for byte.

// trustAll lets the read cache keep files however recently they changed
// (the tests write files and build at once), for the length of a test.
func trustAll(t *testing.T) {
	old, oldFine := racyMargin, fineMargin
	racyMargin, fineMargin = -time.Hour, -time.Hour
	t.Cleanup(func() { racyMargin, fineMargin = old, oldFine })
}

func seedRecord(t *testing.T, n int, change func(r map[string]any)) map[string]any {
	t.Helper()
	data := testseed.JSON()
	var w struct{ Record map[string]any }
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	r := w.Record
	r["id"] = fmt.Sprintf("%016x", n)
	r["slug"] = fmt.Sprintf("%s-%d", r["slug"], n)
	r["documentation"] = fmt.Sprintf("%s Record %d.", r["documentation"], n)
	if change != nil {
		change(r)
	}
	return r
}

func writeRecords(t *testing.T, path string, recs ...any) {
	t.Helper()
	data, err := json.MarshalIndent(recs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// outcome is everything a build says and makes.
type outcome struct {
	rep      *Report
	problems []string
	rejects  string
	files    map[string]string // site file → sha256
}

func runBuild(t *testing.T, in, out, cache string) outcome {
	t.Helper()
	// Verify: these builds test the read cache, which the no-change fast
	// path would spare them.
	return runConfig(t, Config{Paths: []string{in}, Out: out, CacheDir: cache, Templates: errdocs.Templates, Static: errdocs.Static, Verify: true})
}

// runConfig builds as c says, with a rejects file and the problems kept.
func runConfig(t *testing.T, c Config) outcome {
	t.Helper()
	var o outcome
	rejects := filepath.Join(t.TempDir(), "rejects.jsonl")
	c.RejectsFile = rejects
	c.Problem = func(msg string) { o.problems = append(o.problems, msg) }
	out := c.Out
	rep, err := Build(context.Background(), c)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	o.rep = rep
	data, err := os.ReadFile(rejects)
	if err != nil {
		t.Fatal(err)
	}
	o.rejects = string(data)
	o.files = map[string]string{}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if rel == ".errdocs-site" {
			return nil
		}
		b, err := os.ReadFile(p)
		sum := sha256.Sum256(b)
		o.files[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return err
	})
	return o
}

// pair builds in twice: into a site whose caches are kept between calls,
// and into another after deleting its caches. It fails the test unless
// both builds say and make the same, and returns the first.
type pair struct {
	t                    *testing.T
	in                   string
	out, cache           string
	freshOut, freshCache string
}

func newPair(t *testing.T, in string) *pair {
	dir := t.TempDir()
	return &pair{t: t, in: in,
		out: filepath.Join(dir, "site"), cache: filepath.Join(dir, "cache"),
		freshOut: filepath.Join(dir, "fresh-site"), freshCache: filepath.Join(dir, "fresh-cache")}
}

func (p *pair) build() outcome {
	t := p.t
	t.Helper()
	kept := runBuild(t, p.in, p.out, p.cache)
	os.RemoveAll(p.freshCache)
	fresh := runBuild(t, p.in, p.freshOut, p.freshCache)
	if fresh.rep.Cached != 0 {
		t.Fatalf("a build with no cache took %d files from it", fresh.rep.Cached)
	}
	if !slices.Equal(kept.problems, fresh.problems) {
		t.Errorf("problems differ with the read cache:\n%s\nwithout:\n%s",
			strings.Join(kept.problems, "\n"), strings.Join(fresh.problems, "\n"))
	}
	if kept.rejects != fresh.rejects {
		t.Errorf("rejects file differs with the read cache:\n%s\nwithout:\n%s", kept.rejects, fresh.rejects)
	}
	for rel, sum := range fresh.files {
		if kept.files[rel] != sum {
			t.Errorf("%s differs with the read cache", rel)
		}
	}
	for rel := range kept.files {
		if _, ok := fresh.files[rel]; !ok {
			t.Errorf("%s is in the site only with the read cache", rel)
		}
	}
	k, f := *kept.rep, *fresh.rep
	if k.Read != f.Read || k.Files != f.Files || k.Rejected != f.Rejected || k.FileErrors != f.FileErrors || k.Built != f.Built {
		t.Errorf("reports differ: with the read cache %+v, without %+v", k, f)
	}
	return kept
}

// testInput writes three record files and a JSON Lines file with a bad line
// and a rejected record.
func testInput(t *testing.T) (dir string, files [][]any) {
	dir = t.TempDir()
	n := 0
	for f := 0; f < 3; f++ {
		var recs []any
		for k := 0; k < 4; k++ {
			n++
			recs = append(recs, seedRecord(t, n, nil))
		}
		files = append(files, recs)
	}
	// A record no build accepts (its severity is not one of the known).
	files[1] = append(files[1], seedRecord(t, 100, func(r map[string]any) { r["severity"] = "apocalyptic" }))
	for f, recs := range files {
		writeRecords(t, filepath.Join(dir, fmt.Sprintf("f%d.json", f)), recs...)
	}
	line, _ := json.Marshal(seedRecord(t, 200, nil))
	os.WriteFile(filepath.Join(dir, "z.jsonl"), append(append(line, '\n'), "{not json\n"...), 0o644)
	return dir, files
}

func TestReadCacheKeepsUnchangedFiles(t *testing.T) {
	trustAll(t)
	in, _ := testInput(t)
	p := newPair(t, in)
	first := p.build()
	if first.rep.Cached != 0 || first.rep.Rejected != 1 || first.rep.FileErrors != 1 {
		t.Fatalf("first build: %+v", first.rep)
	}
	// Nothing changed: the files without problems come from the cache, and
	// the rejected record and the bad line are reported again.
	second := p.build()
	if second.rep.Cached != 3 {
		t.Errorf("no-change rebuild took %d files from the read cache, want 3 (the JSON Lines file has a problem: it is read each time)", second.rep.Cached)
	}
	if second.rep.Rejected != 1 || second.rep.FileErrors != 1 || !strings.Contains(second.rejects, "apocalyptic") {
		t.Errorf("no-change rebuild did not report the rejected record again: %+v\n%s", second.rep, second.rejects)
	}
}

func TestReadCacheSeesEditKeepingSizeAndTime(t *testing.T) {
	trustAll(t)
	in, files := testInput(t)
	p := newPair(t, in)
	p.build()
	path := filepath.Join(in, "f0.json")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// Same size, same modification time, other bytes: only the change time
	// (and, through the cache, nothing else) tells.
	time.Sleep(50 * time.Millisecond) // past the file system's time grain
	r := files[0][2].(map[string]any)
	r["documentation"] = strings.Replace(r["documentation"].(string), "Record 3.", "Record X.", 1)
	writeRecords(t, path, files[0]...)
	if fi2, _ := os.Stat(path); fi2.Size() != fi.Size() {
		t.Fatalf("size changed: %d → %d", fi.Size(), fi2.Size())
	}
	os.Chtimes(path, fi.ModTime(), fi.ModTime())
	o := p.build()
	if o.rep.Cached != 2 {
		t.Errorf("took %d files from the read cache, want 2", o.rep.Cached)
	}
	page, _ := os.ReadFile(filepath.Join(p.out, r["repo"].(string), r["slug"].(string), "index.html"))
	if !bytes.Contains(page, []byte("Record X.")) {
		t.Errorf("the edited record's page does not show the edit")
	}
}

func TestReadCacheRecordMovedBetweenFiles(t *testing.T) {
	trustAll(t)
	in, files := testInput(t)
	p := newPair(t, in)
	p.build()
	// A record of the last file is copied into the first: the last file is
	// unchanged (and cached), but its copy is now the duplicate, rejected
	// with its JSON in the rejects file.
	moved := files[2][1]
	writeRecords(t, filepath.Join(in, "f0.json"), append(files[0], moved)...)
	o := p.build()
	if o.rep.Cached != 2 || o.rep.Rejected != 2 {
		t.Errorf("cached %d files, rejected %d records; want 2 and 2", o.rep.Cached, o.rep.Rejected)
	}
	id := moved.(map[string]any)["id"].(string)
	if !strings.Contains(o.rejects, `"id":"`+id+`"`) || !strings.Contains(o.rejects, "f2.json") {
		t.Errorf("the duplicate in the cached file is not in the rejects file:\n%s", o.rejects)
	}
	// Then taken out of the last file: moved.
	writeRecords(t, filepath.Join(in, "f2.json"), append(files[2][:1:1], files[2][2:]...)...)
	o = p.build()
	if o.rep.Rejected != 1 {
		t.Errorf("rejected %d records, want 1", o.rep.Rejected)
	}
	// And a file removed.
	os.Remove(filepath.Join(in, "f1.json"))
	p.build()
}

func TestReadCacheRacyFilesNotKept(t *testing.T) {
	// Files changed within the margin are not trusted; a build waits up to
	// maxSettle for them to settle, which a two-second margin exceeds.
	old := fineMargin
	fineMargin = racyMargin
	t.Cleanup(func() { fineMargin = old })
	in, _ := testInput(t)
	p := newPair(t, in)
	p.build()
	// Every file was written just now: none may be trusted by its times.
	if o := p.build(); o.rep.Cached != 0 {
		t.Errorf("took %d files just written from the read cache", o.rep.Cached)
	}
}

func TestReadCacheBadEntries(t *testing.T) {
	trustAll(t)
	in, _ := testInput(t)
	p := newPair(t, in)
	p.build()
	// Damaged, cut short or emptied entries are not trusted. The entries
	// as files of their own (named by a hash of their file's path), not
	// in the pack, and not the files beside them (the count of records).
	entries := unpack(t, filepath.Join(p.cache, "read"))
	if len(entries) != 3 {
		t.Fatalf("%d read cache entries, want 3", len(entries))
	}
	data, _ := os.ReadFile(entries[0])
	data[len(data)/2] ^= 1
	os.WriteFile(entries[0], data, 0o644)
	os.WriteFile(entries[1], data[:len(data)/2], 0o644)
	os.WriteFile(entries[2], nil, 0o644)
	if o := p.build(); o.rep.Cached != 0 {
		t.Errorf("took %d files from damaged entries", o.rep.Cached)
	}
	if o := p.build(); o.rep.Cached != 3 {
		t.Errorf("entries not made again: %d files from the cache", o.rep.Cached)
	}
}

// unpack writes the entries of the read cache's pack in dir as entry
// files of their own, removes the pack, and returns the files' paths.
func unpack(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, packFile))
	if err != nil {
		t.Fatal(err)
	}
	pk, err := decodePack(data)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range pk.len() {
		name := entryName(pk.record(i))
		entry, _ := pk.find(name)
		path := filepath.Join(dir, name.String())
		if err := os.WriteFile(path, entry, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	if err := os.Remove(filepath.Join(dir, packFile)); err != nil {
		t.Fatal(err)
	}
	return paths
}

// entryFiles are the read cache's entries that are files of their own.
func entryFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := os.ReadDir(dir)
	var names []string
	for _, f := range files {
		if isEntryFile(f.Name()) {
			names = append(names, f.Name())
		}
	}
	return names
}

// TestReadCachePack checks the read cache's pack: written after a build
// that read the files, serving every unchanged file, shadowed by the
// entry file of a file changed since, written again once entry files
// are many, and not trusted where damaged. Each build's site is checked
// against a build without a cache (pair).
func TestReadCachePack(t *testing.T) {
	trustAll(t)
	in, files := testInput(t)
	p := newPair(t, in)
	dir := filepath.Join(p.cache, "read")
	p.build()
	pk := openPack(dir, testBinary(t))
	if pk.len() != 3 || len(entryFiles(t, dir)) != 0 {
		t.Fatalf("after the first build the pack holds %d entries and %d entry files are left, want 3 and 0", pk.len(), len(entryFiles(t, dir)))
	}
	if o := p.build(); o.rep.Cached != 3 {
		t.Errorf("took %d files from the pack, want 3", o.rep.Cached)
	}
	// An edited file's new entry is a file of its own while entry files
	// are few beside the pack; it shadows the pack's, which no longer
	// fits the file.
	old := repackShare
	repackShare = 0
	t.Cleanup(func() { repackShare = old })
	edit := func(k int) {
		time.Sleep(20 * time.Millisecond) // past the file system's time grain
		r := files[k][0].(map[string]any)
		r["documentation"] = r["documentation"].(string) + " Edited."
		writeRecords(t, filepath.Join(in, fmt.Sprintf("f%d.json", k)), files[k]...)
	}
	edit(0)
	if o := p.build(); o.rep.Cached != 2 {
		t.Errorf("took %d files from the cache after an edit, want 2", o.rep.Cached)
	}
	if n := len(entryFiles(t, dir)); n != 1 {
		t.Fatalf("%d entry files beside the pack after an edit, want 1", n)
	}
	if o := p.build(); o.rep.Cached != 3 {
		t.Errorf("took %d files from the pack and the edited file's entry, want 3", o.rep.Cached)
	}
	// Entry files many beside the pack: a new pack holds them.
	repackShare = old
	edit(2)
	if o := p.build(); o.rep.Cached != 2 {
		t.Errorf("took %d files from the cache after a second edit, want 2", o.rep.Cached)
	}
	if pk, n := openPack(dir, testBinary(t)), len(entryFiles(t, dir)); pk.len() != 3 || n != 0 {
		t.Fatalf("after the entry files outnumbered the pack's share, the pack holds %d entries and %d entry files are left", pk.len(), n)
	}
	if o := p.build(); o.rep.Cached != 3 {
		t.Errorf("took %d files from the new pack, want 3", o.rep.Cached)
	}
	// A byte flipped in one entry: that file alone is read again. A byte
	// flipped in the index: none is served, and the pack is made again.
	path := filepath.Join(dir, packFile)
	data, _ := os.ReadFile(path)
	pk = decodedPack(t, data)
	rec := pk.index[packEntrySize+nameSize:]
	off, length := binary.LittleEndian.Uint64(rec), binary.LittleEndian.Uint64(rec[8:])
	at := len(data) - len(pk.entries) + int(off+length/2)
	damage := func(at int) {
		d := bytes.Clone(data)
		d[at] ^= 1
		if err := os.WriteFile(path, d, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	damage(at)
	if o := p.build(); o.rep.Cached != 2 {
		t.Errorf("took %d files with one entry of the pack damaged, want 2", o.rep.Cached)
	}
	data, _ = os.ReadFile(path)
	damage(len(data) - len(decodedPack(t, data).entries) - 20)
	if o := p.build(); o.rep.Cached != 0 {
		t.Errorf("took %d files from a pack whose index is damaged", o.rep.Cached)
	}
	if o := p.build(); o.rep.Cached != 3 || openPack(dir, testBinary(t)).len() != 3 {
		t.Errorf("the pack was not made again: %d files from the cache", o.rep.Cached)
	}
	// A file gone from the dataset: the next new pack leaves its entry out.
	if err := os.Remove(filepath.Join(in, "f2.json")); err != nil {
		t.Fatal(err)
	}
	edit(0)
	if o := p.build(); o.rep.Cached != 1 {
		t.Errorf("took %d files from the cache after a file was removed and another edited, want 1", o.rep.Cached)
	}
	if n := openPack(dir, testBinary(t)).len(); n != 2 {
		t.Errorf("the new pack holds %d entries, want 2: the removed file's entry is kept", n)
	}
}

func decodedPack(t *testing.T, data []byte) *readPack {
	t.Helper()
	pk, err := decodePack(data)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// writeManifest lists the dataset's files with their sizes and sha256, as
// the published dataset's manifest.json does.
func writeManifest(t *testing.T, dir string, names ...string) {
	t.Helper()
	type entry struct {
		Path   string `json:"path"`
		Bytes  int64  `json:"bytes"`
		SHA256 string `json:"sha256"`
	}
	var files []entry
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		files = append(files, entry{n, int64(len(data)), hex.EncodeToString(sum[:])})
	}
	data, _ := json.Marshal(map[string]any{"schemaVersion": 2, "files": files})
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadCacheManifestSums(t *testing.T) {
	trustAll(t)
	in, files := testInput(t)
	names := []string{"f0.json", "f1.json", "f2.json"}
	writeManifest(t, in, names...)
	p := newPair(t, in)
	if o := p.build(); o.rep.Hashed != 3 {
		t.Fatalf("first build hashed %d files for the manifest check, want 3", o.rep.Hashed)
	}
	// Nothing changed: the manifest check knows every file by its identity.
	if o := p.build(); o.rep.Hashed != 0 || o.rep.Cached != 3 {
		t.Errorf("no-change rebuild hashed %d files (want 0), took %d from the cache (want 3)", o.rep.Hashed, o.rep.Cached)
	}
	// One file edited, the manifest with it: that file alone is hashed.
	time.Sleep(50 * time.Millisecond)
	r := files[1][0].(map[string]any)
	r["documentation"] = r["documentation"].(string) + " Edited."
	writeRecords(t, filepath.Join(in, "f1.json"), files[1]...)
	writeManifest(t, in, names...)
	if o := p.build(); o.rep.Hashed != 1 {
		t.Errorf("after one edit, hashed %d files, want 1", o.rep.Hashed)
	}
	// A file edited without its manifest entry is caught, known or not:
	// both builds of the pair must report the same mismatch.
	time.Sleep(50 * time.Millisecond)
	r["documentation"] = r["documentation"].(string) + " Again."
	writeRecords(t, filepath.Join(in, "f1.json"), files[1]...)
	o := p.build()
	found := false
	for _, msg := range o.problems {
		found = found || strings.Contains(msg, "the manifest says")
	}
	if !found {
		t.Errorf("an edit the manifest does not list went unreported: %q", o.problems)
	}
}

// The read cache keeps the count of valid records, for the next build to
// size its tables; a count that is wrong, or a damaged count file, changes
// nothing a build makes.
func TestReadCacheCount(t *testing.T) {
	trustAll(t)
	in, _ := testInput(t)
	p := newPair(t, in)
	first := p.build()
	rc := newReadCache(filepath.Join(p.cache, "read"))
	if rc.prevCount == 0 || rc.prevCount != first.rep.Built {
		t.Fatalf("count kept: %d, want the %d records built", rc.prevCount, first.rep.Built)
	}
	path := rc.countPath()
	for name, data := range map[string][]byte{
		"too small": cachefile.Seal(binary.AppendUvarint(cachefile.Begin(nil, countKind, countVersion), 1)),
		"too large": cachefile.Seal(binary.AppendUvarint(cachefile.Begin(nil, countKind, countVersion), 5000)),
		"damaged":   []byte("errdocs cache\n\x0crecord count\x01\x07"),
	} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := newReadCache(filepath.Join(p.cache, "read")).prevCount; name == "damaged" && got != 0 {
			t.Errorf("a damaged count file read as %d", got)
		}
		if o := p.build(); o.rep.Cached == 0 {
			t.Errorf("%s count: the read cache served nothing", name)
		}
	}
	if got := newReadCache(filepath.Join(p.cache, "read")).prevCount; got != first.rep.Built {
		t.Errorf("count after the builds: %d, want %d", got, first.rep.Built)
	}
}

// The related records' cache gives back the lists put, under their key
// only; a file cut short or damaged is not trusted.
func TestRelatedCacheRoundTrip(t *testing.T) {
	rc := newRelatedCache(t.TempDir())
	if rc == nil {
		t.Skip("no binary hash")
	}
	lists := [][]int32{{1, 2, 3}, nil, {99999, 0}, {1 << 20}}
	key := [16]byte{7}
	rc.Put(key, lists)
	if rc.err != nil {
		t.Fatal(rc.err)
	}
	got, ok := rc.Get(key)
	if !ok || len(got) != len(lists) {
		t.Fatalf("got %v (%v), want %v", got, ok, lists)
	}
	for i := range lists {
		if !slices.Equal(got[i], lists[i]) {
			t.Fatalf("list %d: got %v, want %v", i, got[i], lists[i])
		}
	}
	if _, ok := rc.Get([16]byte{8}); ok {
		t.Error("lists given under another key")
	}
	data, _ := os.ReadFile(rc.path)
	os.WriteFile(rc.path, data[:len(data)-3], 0o644)
	if _, ok := rc.Get(key); ok {
		t.Error("lists given from a file cut short")
	}
	data[len(data)/2] ^= 1
	os.WriteFile(rc.path, data, 0o644)
	if _, ok := rc.Get(key); ok {
		t.Error("lists given from a damaged file")
	}
}

// The groups cache gives back the bytes put under a key, and nothing for
// another key or from a file cut short or damaged.
func TestGroupCacheRoundTrip(t *testing.T) {
	gc := newGroupCache(t.TempDir())
	if gc == nil {
		t.Skip("no binary hash")
	}
	groups := []byte("the groups' binary form\x00\xff")
	key := [16]byte{7}
	gc.Put(key, groups)
	if gc.err != nil {
		t.Fatal(gc.err)
	}
	get := func(key [16]byte) ([]byte, bool) {
		var got []byte
		ok := gc.Get(key, func(b []byte) bool { got = bytes.Clone(b); return true })
		return got, ok
	}
	if got, ok := get(key); !ok || !bytes.Equal(got, groups) {
		t.Fatalf("got %q (%v), want %q", got, ok, groups)
	}
	if _, ok := get([16]byte{8}); ok {
		t.Error("groups given under another key")
	}
	data, _ := os.ReadFile(gc.path)
	os.WriteFile(gc.path, data[:len(data)-3], 0o644)
	if _, ok := get(key); ok {
		t.Error("groups given from a file cut short")
	}
	data[len(data)/2] ^= 1
	os.WriteFile(gc.path, data, 0o644)
	if _, ok := get(key); ok {
		t.Error("groups given from a damaged file")
	}
}

// A file of more records than one run of decoding (decodeRun) is served
// from the read cache as the same records in the same order: the same
// site, problems and rejects as read, also when a record of a later run
// is a duplicate of another file's, or another file's of one of its own.
func TestReadCacheServesLongFiles(t *testing.T) {
	trustAll(t)
	dir := t.TempDir()
	var long []any
	for n := 1; n <= 2*decodeRun+7; n++ {
		long = append(long, seedRecord(t, n, nil))
	}
	// A duplicate id in the second run, of a record in the first file.
	long[decodeRun+3] = seedRecord(t, 9000, func(r map[string]any) { r["id"] = fmt.Sprintf("%016x", 9001) })
	writeRecords(t, filepath.Join(dir, "a.json"), seedRecord(t, 9001, nil))
	writeRecords(t, filepath.Join(dir, "b.json"), long...)
	// A later file with a duplicate of a record in the third run.
	writeRecords(t, filepath.Join(dir, "c.json"), seedRecord(t, 9002, func(r map[string]any) { r["id"] = fmt.Sprintf("%016x", 2*decodeRun+5) }))
	p := newPair(t, dir)
	p.build()
	second := p.build()
	if second.rep.Cached != 3 || second.rep.Rejected != 2 || second.rep.Read != 2*decodeRun+9 {
		t.Fatalf("second build: %+v", second.rep)
	}
}

// The read cache knows a record file by its absolute path: the same
// dataset named relatively, absolutely or with "./" is served from it,
// and the manifest check hashes nothing again; problems still name the
// files as the build was given them.
func TestReadCacheSameFilesNamedOtherwise(t *testing.T) {
	trustAll(t)
	in, _ := testInput(t)
	writeManifest(t, in, "f0.json", "f1.json", "f2.json")
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(cwd, in)
	if err != nil {
		t.Skipf("no relative path to %s: %v", in, err)
	}
	out, cache := filepath.Join(t.TempDir(), "site"), t.TempDir()
	first := runBuild(t, in, out, cache)
	if first.rep.Cached != 0 || first.rep.Hashed != 3 {
		t.Fatalf("first build: %d files from the cache, %d hashed; want 0 and 3", first.rep.Cached, first.rep.Hashed)
	}
	for _, name := range []string{rel, "." + string(filepath.Separator) + rel + string(filepath.Separator), in} {
		o := runBuild(t, name, out, cache)
		if o.rep.Cached != 3 || o.rep.Hashed != 0 {
			t.Errorf("dataset named %q: %d files from the read cache (want 3), %d hashed (want 0)", name, o.rep.Cached, o.rep.Hashed)
		}
		if !slices.ContainsFunc(o.problems, func(p string) bool { return strings.HasPrefix(p, filepath.Join(name, "z.jsonl")) }) {
			t.Errorf("dataset named %q: no problem names z.jsonl as given: %q", name, o.problems)
		}
		if len(o.files) != len(first.files) {
			t.Errorf("dataset named %q: %d files in the site, want %d", name, len(o.files), len(first.files))
		}
	}
}

// A rebuild leaves the uniqueness rules to the end of its reading (the
// records of files the read cache serves are not added to a Set one by
// one). When a changed file brings a record that breaks one (an id or a
// slug another file has, before or after it; a repo that shares a folder
// with another; one whose path the site cannot have), the rebuild must
// still reject the same records, with the same messages in the same
// order, as a build without the cache; and accept them again once the
// offending record is gone. Each offence comes alone, so that each of
// the checks that let the rebuild skip the rules is tried.
func TestReadCacheRebuildKeepsUniquenessRules(t *testing.T) {
	trustAll(t)
	offences := []struct {
		name   string
		change func(r, f0, f2 map[string]any)
	}{
		// f0 is read before f1: the new record is rejected.
		{"id of an earlier file", func(r, f0, _ map[string]any) { r["id"] = f0["id"] }},
		// f2 is read after f1: f2's record is rejected, and its page goes.
		{"id of a later file", func(r, _, f2 map[string]any) { r["id"] = f2["id"] }},
		{"slug of an earlier file", func(r, f0, _ map[string]any) { r["slug"] = f0["slug"] }},
		{"repo in other case", func(r, _, _ map[string]any) { r["repo"] = strings.ToUpper(r["repo"].(string)) }},
		{"repo that is no Windows folder", func(r, _, _ map[string]any) { r["repo"] = "con/tools" }},
	}
	for _, o := range offences {
		t.Run(o.name, func(t *testing.T) {
			in, files := testInput(t)
			p := newPair(t, in)
			base := p.build().rep.Rejected
			f0, f2 := files[0][0].(map[string]any), files[2][0].(map[string]any)
			offender := seedRecord(t, 300, func(r map[string]any) { o.change(r, f0, f2) })
			// Between f1's records, before its own rejected one.
			edited := slices.Concat(files[1][:2], []any{offender}, files[1][2:])
			writeRecords(t, filepath.Join(in, "f1.json"), edited...)
			second := p.build()
			if second.rep.Cached == 0 {
				t.Fatalf("the rebuild took no file from the read cache: it did not try the rules left to the end")
			}
			if second.rep.Rejected != base+1 {
				t.Errorf("rebuild rejected %d records, want %d: %q", second.rep.Rejected, base+1, second.problems)
			}
			// Nothing changed: f1 is served from the cache too.
			if third := p.build(); third.rep.Rejected != base+1 {
				t.Errorf("no-change rebuild rejected %d records, want %d", third.rep.Rejected, base+1)
			}
			writeRecords(t, filepath.Join(in, "f1.json"), files[1]...)
			if fourth := p.build(); fourth.rep.Rejected != base {
				t.Errorf("rebuild without the offending record rejected %d, want %d: %q", fourth.rep.Rejected, base, fourth.problems)
			}
		})
	}
}

// testBinary is the hash the read cache knows this test binary by.
func testBinary(t *testing.T) [32]byte {
	t.Helper()
	bin, err := binaryHash()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}
