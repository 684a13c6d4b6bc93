package export

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"

	"github.com/errdocs/errdocs/generator/index"
)

// An incremental export must write exactly what a whole export of the
// same index writes: the same files, byte for byte. Each round edits a few
// records in the ways a daily update does (text added, a word replaced, a
// tag or a message changed, source identifiers changed), reopens the index
// as a new build would, exports incrementally against the previous
// export's files, and compares with a whole export.
func TestIncrementalExportEqualsWhole(t *testing.T) {
	word := regexp.MustCompile(`\b[a-z]{5,}\b`)
	number := regexp.MustCompile(`[0-9]+`)
	edits := []func(r *record.Record){
		func(r *record.Record) { r.Documentation += " Rotating the zymurgical certificate fixed it." },
		func(r *record.Record) {
			l := word.FindAllStringIndex(r.Documentation, -1)
			if len(l) > 0 {
				r.Documentation = r.Documentation[:l[0][0]] + "quixotically" + r.Documentation[l[0][1]:]
			}
		},
		func(r *record.Record) { r.Tags = append(append([]string(nil), r.Tags...), "brand-new-tag") },
		// a message changed in its values (numbers, quoted values) keeps
		// its shape and so its doc number (SortKey); a changed shape
		// renumbers the records, and the export is whole
		func(r *record.Record) { r.ErrorMessage = number.ReplaceAllString(r.ErrorMessage, "31337") },
		func(r *record.Record) {
			r.SourceCode = "def handler(req):\n    raise QuuxFrobnicatorError(req.payload_size)\n"
		},
		func(r *record.Record) {
			r.Solutions = append(append([]string(nil), r.Solutions...), "Retry with exponential backoff.")
		},
		// a new messagePattern: a new program, new words (pattern keys)
		func(r *record.Record) { r.MessagePattern = `zymurgy overflow in (\w+) after \d+ retries` },
	}
	const messageEdit = 3
	var rounds []func(recs []record.Record)
	for round := 0; round < 4; round++ {
		rounds = append(rounds, func(recs []record.Record) {
			// edit 1 + round records (round 3 with the pattern edit)
			for k := 0; k <= round; k++ {
				i, e := (round*977+k*313)%len(recs), (round+k)%len(edits)
				for e == messageEdit && !number.MatchString(recs[i].ErrorMessage) {
					i = (i + 1) % len(recs) // a message with a value to change
				}
				edits[e](&recs[i])
			}
		})
	}
	t.Run("default", func(t *testing.T) {
		stats := checkIncremental(t, genRecords(3000, 11), Options{Pattern: pattern.Compile}, rounds, nil)
		requireCached(t, stats)
		for round, st := range stats {
			if !st.NumberingKept {
				t.Errorf("round %d: the records were sorted again: the numbering file was not used", round)
			}
		}
		// Prefix lists none of whose terms changed are taken prepared
		// from the term cache in some round (each re-encodes shards that
		// hold lists), and the comparison checks them.
		lists := 0
		for _, st := range stats {
			lists += st.CachedLists
		}
		if lists == 0 {
			t.Error("no prefix list was taken prepared from the term cache: the comparison does not check it")
		}
		// Round 0 appends a sentence to a documentation: its length, so
		// the norm of each of its terms, changed, and those terms'
		// postings are patched (the cached ones with the record's own),
		// not read whole; the comparison checks the patching.
		// Those of them with a head (common words) keep it, and their
		// entries are made from the previous export's, with the blocks
		// holding the record's postings encoded again.
		if st := stats[0]; st.PatchedTerms == 0 || st.PatchedTerms > st.ChangedTerms || st.PatchedEntries == 0 {
			t.Errorf("round 0: %d of %d changed terms patched, %d entries patched; want some, no more than changed", st.PatchedTerms, st.ChangedTerms, st.PatchedEntries)
		}
		// Round 0's record holds many terms of prefixes whose lists are
		// otherwise as they were (the same terms, the same document
		// frequencies): those lists are made from the previous export's,
		// and the comparison checks them.
		if st := stats[0]; st.PatchedLists == 0 {
			t.Errorf("round 0: no prefix list was patched (%d taken from the term cache)", st.CachedLists)
		}
		// Round 0 edits a documentation (filters kept), round 2 adds a
		// tag (a filter value: the filter files are made again).
		if !stats[0].FiltersKept || stats[2].FiltersKept {
			t.Errorf("filter files kept, round by round: %v %v; want kept in round 0, not in round 2", stats[0].FiltersKept, stats[2].FiltersKept)
		}
		// Rounds 0-2 change no messagePattern (round 2 changes a
		// message's values): the pattern files and keys are kept; round
		// 3 changes one: its pattern file and the keys are written.
		for round, st := range stats {
			m, k := st.FilesByKind["m"], st.FilesByKind["k"]
			if changes := round == 3; changes != (m > 0 && k > 0) || !changes && m+k > 0 {
				t.Errorf("round %d: %d pattern files and %d pattern keys files written; want them written only in round 3 (a messagePattern changed)", round, m, k)
			}
		}
	})
	// With pattern files of 512 records, the round that changes a pattern
	// keeps most of them, and takes their words (for the pattern keys)
	// from the previous export's; without those (none saved) it finds
	// them again.
	small := Options{Pattern: pattern.Compile, PatternsPerFile: 512}
	t.Run("small pattern files", func(t *testing.T) {
		stats := checkIncremental(t, genRecords(3000, 11), small, rounds, nil)
		if kept, n := stats[3].Kept, stats[3].FilesByKind["m"]; n == 0 || n >= 4 || kept == 0 {
			t.Errorf("round 3 wrote %d of 6 pattern files: want the changed ones alone", n)
		}
	})
	// Without the numbering file, the records are sorted again.
	t.Run("no numbering file", func(t *testing.T) {
		noNumbering := func(ex *Exporter) {
			ex.pending.numbering = nil
			if err := os.Remove(filepath.Join(ex.ix.Dir(), numberingFile)); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		for round, st := range checkIncremental(t, genRecords(3000, 11), small, rounds, noNumbering) {
			if st.NumberingKept || !st.Incremental {
				t.Errorf("round %d: numbered as before: %t, incremental: %t; want sorted again, incremental", round, st.NumberingKept, st.Incremental)
			}
		}
	})
	t.Run("no pattern words", func(t *testing.T) {
		noWords := func(ex *Exporter) {
			ex.pending.patWords = nil
			if _, err := os.Stat(filepath.Join(ex.ix.Dir(), patWordsFile)); !os.IsNotExist(err) {
				t.Fatalf("a pattern words file is there (%v): the export does not do without it", err)
			}
		}
		checkIncremental(t, genRecords(3000, 11), small, rounds, noWords)
	})
	// Small shards: many runs begin inside a prefix range, and lists
	// often sit shards away from where their range begins.
	t.Run("small shards", func(t *testing.T) {
		requireCached(t, checkIncremental(t, genRecords(3000, 11), Options{DictShardBytes: 200, PostingFileBytes: 1024}, rounds, nil))
	})
	// Without the term cache an incremental export cannot tell which of
	// a changed record's terms kept their postings: it re-encodes every
	// shard that may have changed, and still writes what a whole export
	// writes.
	t.Run("no term cache", func(t *testing.T) {
		noCache := func(ex *Exporter) {
			// The export writes its term cache files after it returns
			// (SaveState waits for them): the folder is removed once they
			// are written, not while.
			ex.pending.termWrites.wait()
			if err := os.RemoveAll(filepath.Join(ex.ix.Dir(), termCacheDir)); err != nil {
				t.Fatal(err)
			}
		}
		for round, st := range checkIncremental(t, genRecords(3000, 11), Options{DictShardBytes: 200, PostingFileBytes: 1024}, rounds, noCache) {
			if st.CheckedTerms != 0 || st.CachedTerms != 0 {
				t.Errorf("round %d: %d terms checked, %d from the term cache, with no term cache", round, st.CheckedTerms, st.CachedTerms)
			}
		}
	})
}

// A record whose message changes shape moves in the doc numbering
// (SortKey), and so do the records between its old and new place: the
// export after it must notice and be whole, not keep doc data, filter or
// id files numbered the old way. A change of the message's values alone
// keeps its place (TestIncrementalExportEqualsWhole).
func TestExportAfterRenumbering(t *testing.T) {
	recs := genRecords(600, 5)
	moved := func(recs []record.Record) {
		r := &recs[17]
		before := index.SortKey(r.BackgroundTag, r.ErrorClass, r.ErrorMessage, r.AnalyzedAt)
		r.ErrorMessage = "aaa a message of another shape " + r.ErrorMessage
		if index.SortKey(r.BackgroundTag, r.ErrorClass, r.ErrorMessage, r.AnalyzedAt) == before {
			t.Fatal("the edit left the sort key as it was")
		}
	}
	docs := func(recs []record.Record) { recs[40].Documentation += " Restarting fixed it." }
	// a record removed and another added: the ids change
	renamed := func(recs []record.Record) { recs[300].ID = "0000000000000000" }
	stats := checkIncremental(t, recs, Options{}, []func([]record.Record){docs, moved, docs, renamed, docs}, nil, 1, 3)
	for _, round := range []int{0, 2, 4} {
		if !stats[round].NumberingKept {
			t.Errorf("round %d: the records were sorted again after an edit in place", round)
		}
	}
}

// requireCached checks that each round of an incremental export took
// terms from the term cache and compared the changed records' terms with
// it (else the comparisons with a whole export do not check those ways),
// and that the edits, each of one field, left some of those terms as
// they were.
func requireCached(t *testing.T, stats []Stats) {
	t.Helper()
	for round, st := range stats {
		if st.CachedTerms == 0 || st.CachedEntries == 0 {
			t.Errorf("round %d: %d terms came from the term cache, %d entries prepared: the comparison does not check it", round, st.CachedTerms, st.CachedEntries)
		}
		if st.CheckedTerms == 0 || st.ChangedTerms == 0 || st.ChangedTerms >= st.CheckedTerms {
			t.Errorf("round %d: %d of the changed records' %d terms changed; want some, not all (each edit changes one field)", round, st.ChangedTerms, st.CheckedTerms)
		}
		if st.ProbedTerms == 0 {
			t.Errorf("round %d: no term was found unchanged by probing: the comparison does not check it", round)
		}
	}
}

// A prefix list is written in the entry of its expansion's first live
// term, so an edit can move it: a record gains a term that sorts before
// every other of the prefix (the list moves back), loses it again (it
// moves forward, past a term left in the dictionary with no live
// posting), or terms of the prefix come and go so that the list vanishes
// and returns. With shards of a few terms, each move crosses shards; the
// incremental export must still equal the whole one.
func TestIncrementalExportMovesPrefixLists(t *testing.T) {
	recs := genRecords(400, 5)
	words := func(tail string, n int) string {
		var b strings.Builder
		cons := "bcdfghjklmnp"
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, " qqx%s%c%c", tail, cons[i/len(cons)], cons[i%len(cons)])
		}
		return b.String()
	}
	recs[0].Documentation += words("b", 30)
	// Terms between qqx and qqxb..., in another field: shards between.
	recs[3].Solutions = append(slices.Clone(recs[3].Solutions), words("a", 40))
	rounds := []func(recs []record.Record){
		func(recs []record.Record) { recs[1].Documentation += " qqx." },
		func(recs []record.Record) { recs[1].Documentation = strings.TrimSuffix(recs[1].Documentation, " qqx.") },
		func(recs []record.Record) {
			recs[0].Documentation = strings.Replace(recs[0].Documentation, words("b", 30), words("b", 20), 1)
		},
		func(recs []record.Record) { recs[2].Documentation += words("c", 10) },
	}
	doc := slices.IndexFunc(index.Fields, func(f index.Field) bool { return f.Name == "documentation" })
	var holders []string
	holder := func(ex *Exporter) {
		h := "(none)"
		for _, sh := range ex.pending.Shards {
			if slices.Contains(sh.Lists, listKey("qqx", doc)) {
				h = sh.First
			}
		}
		holders = append(holders, h)
	}
	requireCached(t, checkIncremental(t, recs, Options{DictShardBytes: 48, PostingFileBytes: 256}, rounds, holder))
	// The documentation field's list was at qqxbbb, then at qqx, back at
	// qqxbbb, gone (20 terms), and back with 30: the edits moved it as
	// meant, across the shards of the solutions field's qqxa... terms.
	t.Logf("the list's shard, round by round: %v", holders)
	if len(holders) != 5 || holders[0] == holders[1] || holders[1] == holders[2] || holders[3] != "(none)" || holders[4] == "(none)" {
		t.Errorf("the prefix list's shard went %v: the edits did not move it as the test means", holders)
	}
}

// checkIncremental indexes recs and exports them, then for each round
// edits the records in the ways a daily update does, reopens the index as
// a new build would, exports incrementally against the previous export's
// files, and compares with a whole export: the same files, byte for byte.
// after, when set, sees the index after each whole export. The rounds in
// renumbered move records in the doc numbering: their export must be
// whole (and still the same files).
func checkIncremental(t *testing.T, recs []record.Record, opts Options, rounds []func([]record.Record), after func(*Exporter), renumbered ...int) (stats []Stats) {
	t.Helper()
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	ix, err := index.Open(cache)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ix.Close() }()
	if _, err := ix.Sync(index.Records(recs)); err != nil {
		t.Fatal(err)
	}
	site := memWriter{}
	ex := New(ix)
	if _, err := ex.Export(site, opts); err != nil {
		t.Fatal(err)
	}
	if after != nil {
		after(ex)
	}
	marker := "build-0"
	if err := ex.SaveState(marker); err != nil {
		t.Fatal(err)
	}
	for round, edit := range rounds {
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		if ix, err = index.Open(cache); err != nil {
			t.Fatal(err)
		}
		ex = New(ix)
		edit(recs)
		if _, err := ix.Sync(index.Records(recs)); err != nil {
			t.Fatal(err)
		}
		inc := memWriter{}
		o := opts
		o.PrevMarker = marker
		o.Has = func(rel string) bool { _, ok := site[rel]; return ok }
		o.Keep = func(rel string) bool {
			b, ok := site[rel]
			if ok {
				inc[rel] = b
			}
			return ok
		}
		st, err := ex.Export(inc, o)
		if err != nil {
			t.Fatal(err)
		}
		if want := !slices.Contains(renumbered, round); st.Incremental != want {
			t.Fatalf("round %d: the export was incremental: %t, want %t", round, st.Incremental, want)
		}
		whole := memWriter{}
		if _, err := ex.Export(whole, opts); err != nil {
			t.Fatal(err)
		}
		if after != nil {
			after(ex)
		}
		var diff []string
		for rel, b := range whole {
			if !bytes.Equal(inc[rel], b) {
				diff = append(diff, rel)
			}
		}
		for rel := range inc {
			if _, ok := whole[rel]; !ok {
				diff = append(diff, rel+" (extra)")
			}
		}
		sort.Strings(diff)
		if len(diff) > 0 {
			t.Fatalf("round %d: incremental export differs from a whole one in %d files: %v", round, len(diff), diff)
		}
		t.Logf("round %d: %d files, %d kept, %d written; %d of %d shards re-encoded, %d of %d terms of the changed records changed, %d terms from the term cache (%d entries, %d prefix lists prepared), filters kept: %t",
			round, len(whole), st.Kept, st.Files, st.Shards, st.ShardsTotal, st.ChangedTerms, st.CheckedTerms, st.CachedTerms, st.CachedEntries, st.CachedLists, st.FiltersKept)
		stats = append(stats, st)
		// Same numbering: the id index is kept, not written again, and
		// the records are numbered as before, not sorted again.
		if n := st.FilesByKind["i"]; st.Incremental && n != 0 {
			t.Errorf("round %d: %d id index files written, want them kept", round, n)
		}
		// A run of re-encoded shards reads no term past the one it
		// ended at (readGate).
		if st.GroupsUnused != 0 {
			t.Errorf("round %d: %d terms' postings read past the end of a run of re-encoded shards", round, st.GroupsUnused)
		}
		if st.NumberingKept && !st.Incremental {
			t.Errorf("round %d: numbered as before, but not incremental", round)
		}
		if st.Incremental && (st.Kept == 0 || st.Files >= len(whole)) {
			t.Errorf("round %d: kept %d, wrote %d of %d files: not incremental", round, st.Kept, st.Files, len(whole))
		}
		// the whole export's state is the one to keep (same as the
		// incremental one's); publish it as the new site
		site = whole
		marker = fmt.Sprintf("build-%d", round+1)
		if err := ex.SaveState(marker); err != nil {
			t.Fatal(err)
		}
	}
	return stats
}

// TestNormCode32 checks the table behind normCode32 against normCode: the
// norms of every field length it holds and beyond, and float32s that are
// no length's norm.
func TestNormCode32(t *testing.T) {
	check := func(norm float32) {
		t.Helper()
		wl, wok := normCode(float64(norm))
		gl, gok := normCode32(norm)
		if wl != gl || wok != gok {
			t.Fatalf("norm %v (bits %#x): normCode32 = %d %v, normCode = %d %v", norm, math.Float32bits(norm), gl, gok, wl, wok)
		}
	}
	for l := 1; l <= 3*normTableLengths; l++ {
		norm := float32(1 / math.Sqrt(float64(l)))
		check(norm)
		check(math.Nextafter32(norm, 0))
		check(math.Nextafter32(norm, 2))
	}
	rng := rand.New(rand.NewSource(1))
	for range 100000 {
		check(math.Float32frombits(rng.Uint32()))
	}
	check(0)
	check(float32(math.Inf(1)))
	check(float32(math.NaN()))
}
