package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
)

// TestRealCode checks that UseRealCode puts real excerpts in the records
// (every schema rule still holds, each excerpt is one of the extracted
// ones and its raising line is a raise site) and leaves every other field
// as the generated dataset has it.
func TestRealCode(t *testing.T) {
	const n = 3000
	gen := Generate(n, 7).Records()
	d := Generate(n, 7)
	if err := d.UseRealCode(); err != nil {
		t.Fatal(err)
	}
	// The extracted contexts by their raising line.
	byRaise := map[string][]string{}
	for _, pool := range d.real {
		for _, e := range pool {
			l := strings.Split(e.Code, "\n")[e.Raise]
			byRaise[l] = append(byRaise[l], e.Code)
		}
	}
	distinct := map[string]bool{}
	c := newDatasetChecker()
	i, withCode, long := 0, 0, 0
	langs := map[string]bool{}
	err := d.Each(func(r *record.Record) error {
		b, err := r.MarshalJSON()
		if err != nil {
			return err
		}
		if probs := append(checkRaw(b), c.add(r.ID, r)...); len(probs) > 0 {
			t.Errorf("record %d (id %s): %s", i, r.ID, strings.Join(probs, "; "))
		}
		g := gen[i]
		if r.SourceCode != "" {
			withCode++
			distinct[r.SourceCode] = true
			lines := strings.Split(r.SourceCode, "\n")
			if len(lines) >= 30 {
				long++
			}
			if len(lines) > 40 {
				t.Errorf("record %d: excerpt of %d lines", i, len(lines))
			}
			raise := lines[r.LineNumber-r.SourceCodeStart]
			if !slices.ContainsFunc(byRaise[raise], func(c string) bool { return strings.Contains(c, r.SourceCode) }) {
				t.Errorf("record %d: excerpt is not a window of a real one:\n%s", i, r.SourceCode)
			}
			if !strings.Contains(raise, "raise") && !strings.Contains(raise, "throw") && !strings.Contains(raise, "panic") &&
				!strings.Contains(raise, "rror") && !strings.Contains(raise, "bail!") && !strings.Contains(raise, "anyhow!") && !strings.Contains(raise, "Err(") {
				t.Errorf("record %d: raising line %q is no raise site", i, raise)
			}
			langs[r.FilePath[strings.LastIndexByte(r.FilePath, '.'):]] = true
		}
		if (r.SourceCode == "") != (g.SourceCode == "") {
			t.Errorf("record %d: has an excerpt %v, generated %v", i, r.SourceCode != "", g.SourceCode != "")
		}
		r.SourceCode, r.SourceCodeStart, r.SourceCodeEnd, r.LineNumber, r.GithubURL = g.SourceCode, g.SourceCodeStart, g.SourceCodeEnd, g.LineNumber, g.GithubURL
		a, _ := r.MarshalJSON()
		b2, _ := g.MarshalJSON()
		if string(a) != string(b2) {
			t.Errorf("record %d: fields besides the excerpt differ from the generated record", i)
		}
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if withCode < n*8/10 || long < withCode*8/10 {
		t.Errorf("%d of %d records have an excerpt, %d of them 30 lines or more: want most, and mostly long", withCode, n, long)
	}
	if len(distinct) < withCode*9/10 {
		t.Errorf("%d distinct excerpts among %d records: want nearly one each, as real records have", len(distinct), withCode)
	}
	if len(langs) < 7 {
		t.Errorf("excerpts in %d file extensions, want the seven languages' at least: %v", len(langs), langs)
	}
}
