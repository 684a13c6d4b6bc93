package export

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"
)

func TestPatternWords(t *testing.T) {
	m, err := index.NewMapping()
	if err != nil {
		t.Fatal(err)
	}
	a := m.AnalyzerNamed(index.AnalyzerIdent)
	for _, c := range []struct {
		expr string
		want []string
	}{
		// words touching a literal's ends may continue around it
		{`^Cluster_LeastRequestLbConfig\.ChoiceCount must be >= 2, got: \S+$`, []string{"must", "be", "2", "got"}},
		{`connection to \S+ refused after \d+ retries`, []string{"to", "refused", "after"}},
		{`(?i)Permission denied: '[^']+'`, []string{"denied"}},
		{`no such table: \w+ in schema main db`, []string{"such", "table", "in", "schema", "main"}},
		{`a|b c d`, nil},
		// no word between white space: the words at the literals' ends
		{`quuxing (\w+) (\w+) = (\d+)`, []string{"quuxing"}},
		{`^timeout: \d+ms$`, []string{"timeout"}},
	} {
		lits, err := pattern.RequiredLiterals(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := patternWords(a, lits); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: words %q (literals %q), want %q", c.expr, got, lits, c.want)
		}
	}
}

// A paste whose values appear in many other messages still finds the
// record whose pattern matches it, first, whatever the text ranking: the
// paste from the issue, against records that merely hold its path.
func TestPastePatternFirst(t *testing.T) {
	recs := genRecords(1500, 5)
	target := &recs[0]
	target.ErrorMessage = "Cluster_LeastRequestLbConfig.ChoiceCount must be >= 2, got: 1"
	target.MessagePattern = `Cluster_LeastRequestLbConfig\.ChoiceCount must be >= 2, got: \S+`
	for i := 1; i <= 40; i++ {
		r := &recs[i]
		r.ErrorMessage = fmt.Sprintf("cannot open /var/lib/app/data.db: database is locked (%d); got: /var/lib/app/data.db, must be 2 or fewer", i)
		r.MessagePattern = `cannot open \S+: database is locked \(\d+\)`
		r.Documentation += "\n\nThe file /var/lib/app/data.db is locked: got /var/lib/app/data.db must be closed."
	}
	site := exportedSite(t, recs)
	paste := "Cluster_LeastRequestLbConfig.ChoiceCount must be >= 2, got: /var/lib/app/data.db"
	queries := []map[string]interface{}{
		{"q": paste, "opts": map[string]interface{}{"limit": 10, "patterns": true, "paste": paste}},
		{"q": paste, "opts": map[string]interface{}{"limit": 10, "patterns": true, "paste": "Error: " + paste + "\n    at main (/srv/app.js:3:9)"}},
		// without the paste option the text ranking alone decides
		{"q": paste, "opts": map[string]interface{}{"limit": 10, "mode": "most"}},
	}
	var resp struct {
		Queries []struct {
			Error   string
			Results []struct{ ID, Group string }
		}
	}
	runNode(t, map[string]interface{}{"site": site, "queries": queries}, &resp)
	for i, q := range resp.Queries[:2] {
		if q.Error != "" {
			t.Fatalf("query %d: %s", i, q.Error)
		}
		if len(q.Results) == 0 || q.Results[0].ID != target.ID || q.Results[0].Group != "pattern" {
			t.Errorf("query %d: results %+v, want %s first as a pattern match", i, q.Results, target.ID)
		}
		for _, r := range q.Results[1:] {
			if r.Group == "pattern" {
				t.Errorf("query %d: %s marked a pattern match", i, r.ID)
			}
		}
	}
	// the text ranking alone puts the path's records first: the test
	// would not show anything if it did not
	if rs := resp.Queries[2].Results; len(rs) > 0 && rs[0].ID == target.ID {
		t.Errorf("the text ranking alone puts the target first: the fixture does not test pattern keys")
	}
}

// A paste's text query takes its words from the error's lines, not from
// the stack dump its runtime printed around it: records that hold the
// dump's words ("goroutine", "main", "running", file names) do not come
// before the record of the error.
func TestPasteFramesIgnored(t *testing.T) {
	recs := genRecords(1500, 6)
	target := &recs[0]
	target.ErrorMessage = "frobnicator lattice overflowed at depth 3 of 7 while folding"
	target.MessagePattern = ""
	for i := 1; i <= 30; i++ {
		r := &recs[i]
		r.ErrorMessage = fmt.Sprintf("goroutine %d running main loop stopped: worker main.run exited in /srv/app/main.go", i)
		r.MessagePattern = ""
		r.Documentation += "\n\nThe goroutine running main.main in /srv/app/main.go and main.run in /srv/app/run.go exited; the index is rebuilt."
	}
	site := exportedSite(t, recs)
	raw := "panic: " + target.ErrorMessage + "\n\ngoroutine 1 [running]:\nmain.run(0x3)\n\t/srv/app/run.go:40 +0x1d\n" +
		"main.main()\n\t/srv/app/main.go:12 +0x25\nexit status 2"
	flat := strings.Join(strings.Fields(raw), " ")
	queries := []map[string]interface{}{
		{"q": flat, "opts": map[string]interface{}{"limit": 10, "patterns": true, "paste": raw}},
		// the whole paste's words, as a text query alone
		{"q": flat, "opts": map[string]interface{}{"limit": 10, "mode": "most"}},
	}
	var resp struct {
		Queries []struct {
			Error   string
			Results []struct{ ID string }
		}
	}
	runNode(t, map[string]interface{}{"site": site, "queries": queries}, &resp)
	if q := resp.Queries[0]; q.Error != "" || len(q.Results) == 0 || q.Results[0].ID != target.ID {
		t.Errorf("paste: %+v, want %s first", q, target.ID)
	}
	if rs := resp.Queries[1].Results; len(rs) > 0 && rs[0].ID == target.ID {
		t.Errorf("the dump's words do not outrank the target: the fixture does not test what a paste leaves out")
	}
}

// Of two records whose patterns both match a paste, the one whose own
// message the paste repeats (its values too) comes first, even when the
// other's pattern pins more of the paste.
func TestPastePatternFitFirst(t *testing.T) {
	recs := genRecords(800, 8)
	own, other := &recs[0], &recs[1]
	own.ErrorMessage = "quuxing default frobdepth = 2 in lattice"
	own.MessagePattern = `quuxing (\w+) (\w+) = (\d+) in lattice`
	other.ErrorMessage = "quuxing default zorblen = 9 in lattice"
	other.MessagePattern = `quuxing default (\w+) = (\d+) in lattice`
	site := exportedSite(t, recs)
	for _, paste := range []string{"RuntimeError: quuxing default frobdepth = 2 in lattice", "quuxing default zorblen = 9 in lattice"} {
		want := own.ID
		if strings.Contains(paste, "zorblen") {
			want = other.ID
		}
		rs := pasteResults(t, site, paste)
		if len(rs) < 2 || rs[0].ID != want || rs[0].Group != "pattern" || rs[1].Group != "pattern" {
			t.Errorf("%q: %+v, want %s first of two pattern matches", paste, rs, want)
		}
	}
}

// A pattern with no word between white space in its literals is still
// tried on a paste, by its edge words.
func TestPastePatternEdgeWords(t *testing.T) {
	recs := genRecords(600, 9)
	target := &recs[0]
	target.ErrorMessage = "quuxing default frobdepth = 2"
	target.MessagePattern = `quuxing (\w+) (\w+) = (\d+)`
	site := exportedSite(t, recs)
	paste := "RuntimeError: quuxing zorblen lattice = 17"
	if rs := pasteResults(t, site, paste); len(rs) == 0 || rs[0].ID != target.ID || rs[0].Group != "pattern" {
		t.Errorf("%q: %+v, want %s first as a pattern match", paste, rs, target.ID)
	}
}

// exportedSite indexes recs and exports them with message patterns into
// a temporary site folder, which it returns.
func exportedSite(t testing.TB, recs []record.Record) string {
	t.Helper()
	_, site := exportedIndex(t, recs)
	return site
}

// exportedIndex is exportedSite and the index it was exported from, open
// until the test ends.
func exportedIndex(t testing.TB, recs []record.Record) (*index.Index, string) {
	t.Helper()
	dir := t.TempDir()
	ix, err := index.Open(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(index.Records(recs)); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	if _, err := New(ix).Export(dirWriter{site}, Options{Pattern: pattern.Compile}); err != nil {
		t.Fatal(err)
	}
	return ix, site
}

// pasteResults is the first ten results of paste searched as the page
// searches a paste (typed text and raw paste the same).
func pasteResults(t *testing.T, site, paste string) []struct{ ID, Group string } {
	t.Helper()
	queries := []map[string]interface{}{{"q": paste, "opts": map[string]interface{}{"limit": 10, "patterns": true, "paste": paste}}}
	var resp struct {
		Queries []struct {
			Error   string
			Results []struct{ ID, Group string }
		}
	}
	runNode(t, map[string]interface{}{"site": site, "queries": queries}, &resp)
	if q := resp.Queries[0]; q.Error != "" {
		t.Fatalf("%q: %s", paste, q.Error)
	}
	return resp.Queries[0].Results
}

// How the records a paste names exactly are ordered (engine.js
// patternMatches), each case against its own rival: a record whose whole
// message the paste holds counts even when its pattern cannot run; a
// pattern anchored at the message's start matches behind a class prefix;
// the pattern that pins more of the paste comes before one whose message
// the paste holds more of; of patterns alike, the record raised in the
// language whose runtime printed the paste comes first.
func TestPasteExactOrder(t *testing.T) {
	recs := genRecords(900, 12)
	set := func(i int, msg, expr, file string) string {
		recs[i].ErrorMessage, recs[i].MessagePattern, recs[i].FilePath = msg, expr, file
		return recs[i].ID
	}
	held := set(0, "frobnicator quux lattice overflowed at depth 3", `(?=.*lattice)frobnicator quux lattice overflowed at depth \d+`, "src/a.py")
	set(1, "frobnicator zorb lattice overflowed at depth 9", `frobnicator \w+ lattice overflowed at depth \d+`, "src/b.py")
	anchored := set(2, "quuxing trellis failed at step 4", `^quuxing \w+ failed at step \d+$`, "src/c.ts")
	// the programs' first literals (lits, cut) are alike; all of them
	// (pin) are not
	pinned := set(3, "alpha beta gamma x1 delta epsilon zeta y1 eta theta iota z1 kappa",
		`alpha beta gamma \S+ delta epsilon zeta \S+ eta theta iota \S+ kappa`, "src/d.go")
	set(4, "alpha beta gamma quux eta theta iota zorb", `alpha beta gamma .+ eta theta iota .+`, "src/e.go")
	goRec := set(5, "grommet zorb overflowed at depth 7", `grommet \w+ overflowed at depth \d+`, "src/f.go")
	jsRec := set(6, "grommet quux overflowed at depth 2", `grommet \w+ overflowed at depth \d+`, "src/g.js")
	site := exportedSite(t, recs)
	goPanic := func(msg string) string {
		return "panic: " + msg + "\n\ngoroutine 1 [running]:\nmain.main()\n\t/srv/app/main.go:12 +0x1d"
	}
	for _, c := range []struct {
		paste, want, why string
		exact            int // exact matches expected
	}{
		{"RuntimeError: frobnicator quux lattice overflowed at depth 3", held, "its message held, its pattern unusable", 2},
		{"Uncaught QuuxError: quuxing lattice failed at step 17", anchored, "its ^...$ pattern behind a class prefix", 1},
		{goPanic("alpha beta gamma quux delta epsilon zeta 7 eta theta iota zorb kappa"), pinned, "its pattern pins more", 2},
		{goPanic("grommet trellis overflowed at depth 5"), goRec, "a Go panic", 2},
		{"Uncaught RangeError: grommet trellis overflowed at depth 5", jsRec, "a browser's uncaught error", 2},
	} {
		rs := pasteResults(t, site, c.paste)
		exact := 0
		for _, r := range rs {
			if r.Group == "pattern" {
				exact++
			}
		}
		if len(rs) == 0 || rs[0].ID != c.want || rs[0].Group != "pattern" || exact != c.exact {
			t.Errorf("%s: %q gave %+v, want %s first of %d exact matches", c.why, c.paste, rs[:min(3, len(rs))], c.want, c.exact)
		}
	}
}
