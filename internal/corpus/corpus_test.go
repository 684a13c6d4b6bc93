package corpus

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
)

// TestValidity checks every schema rule on every record of a generated
// dataset, in its JSON form.
func TestValidity(t *testing.T) {
	d := Generate(20000, 3)
	c := newDatasetChecker()
	n, bad := 0, 0
	err := d.Each(func(r *record.Record) error {
		b, err := r.MarshalJSON()
		if err != nil {
			return err
		}
		probs := append(checkRaw(b), c.add(r.ID, r)...)
		if len(probs) > 0 && bad < 20 {
			t.Errorf("record %d (id %s): %s", n, r.ID, strings.Join(probs, "; "))
		}
		if len(probs) > 0 {
			bad++
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 20000 || bad > 0 {
		t.Fatalf("%d records, %d invalid", n, bad)
	}
}

// TestShape checks the dataset looks like the real one.
func TestShape(t *testing.T) {
	const n = 30000
	d := Generate(n, 7)
	if d.Len() != n {
		t.Fatalf("Len = %d", d.Len())
	}
	entries := d.RepoEntries()
	sum, biggest := 0, 0
	for _, e := range entries {
		sum += e.ErrorCount
		biggest = max(biggest, e.ErrorCount)
	}
	avg := float64(sum) / float64(len(entries))
	if sum != n || avg < 120 || avg > 180 {
		t.Errorf("%d records over %d repos: average %.1f, want ~150", sum, len(entries), avg)
	}
	if float64(biggest) < 5*avg {
		t.Errorf("largest repo has %d records: no heavy tail (average %.1f)", biggest, avg)
	}

	var (
		total                                                              float64
		noCode, noClass, noStatus, noSrc, noGuard, noFam, thin, non2, slow float64
		types, sevs, langsSeen, fams                                       = map[string]int{}, map[string]int{}, map[string]int{}, map[string]bool{}
		codes, pats                                                        = map[string]int{}, map[string]int{}
		docLen                                                             []int
	)
	err := d.Each(func(r *record.Record) error {
		total++
		types[r.ErrorType]++
		sevs[r.Severity]++
		langsSeen[record.Language(r.FilePath)]++
		if r.ErrorCode == "" {
			noCode++
		} else {
			codes[r.ErrorCode]++
		}
		pats[r.MessagePattern]++
		if r.ErrorClass == "" {
			noClass++
		}
		if r.HTTPStatus == 0 {
			noStatus++
		}
		if r.SourceCode == "" {
			noSrc++
		}
		if r.TypeGuard == "" {
			noGuard++
		}
		if r.BackgroundTag == "" {
			noFam++
		} else {
			fams[r.BackgroundTag] = true
		}
		if len(r.Documentation) < 200 && len(r.Solutions) == 0 {
			thin++
		}
		if _, err := regexp.Compile(r.MessagePattern); err != nil {
			non2++
		}
		if strings.Contains(r.MessagePattern, ")+") {
			slow++
		}
		docLen = append(docLen, len(r.Documentation))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	share := func(name string, x, lo, hi float64) {
		if s := x / total; s < lo || s > hi {
			t.Errorf("%s: share %.4f, want %.3f..%.3f", name, s, lo, hi)
		}
	}
	share("null errorCode", noCode, 0.2, 0.4)
	share("null errorClass", noClass, 0.1, 0.3)
	share("null httpStatus", noStatus, 0.8, 0.99)
	share("null sourceCode", noSrc, 0.05, 0.15)
	share("null typeGuard", noGuard, 0.3, 0.5)
	share("null backgroundTag", noFam, 0.1, 0.3)
	share("thin records", thin, 0.01, 0.1)
	share("non-RE2 patterns", non2, 0.001, 0.012)
	share("backtracking-slow patterns", slow, 0.001, 0.01)
	for _, et := range record.ErrorTypes {
		if types[et] == 0 {
			t.Errorf("no record of errorType %s", et)
		}
	}
	for _, s := range record.Severities {
		if sevs[s] == 0 {
			t.Errorf("no record of severity %s", s)
		}
	}
	for _, l := range langs {
		if langsSeen[l.name] == 0 {
			t.Errorf("no record in %s", l.name)
		}
	}
	if len(fams) < 50 {
		t.Errorf("%d families, want ~60", len(fams))
	}
	shared := func(m map[string]int) int {
		k := 0
		for _, c := range m {
			if c > 1 {
				k++
			}
		}
		return k
	}
	if shared(codes) < 10 || shared(pats) < 10 {
		t.Errorf("too few shared codes (%d) or patterns (%d) for duplicate grouping", shared(codes), shared(pats))
	}
	slices.Sort(docLen)
	if docLen[0] > 200 || docLen[len(docLen)-1] < 800 {
		t.Errorf("documentation lengths %d..%d: want one line to a few paragraphs", docLen[0], docLen[len(docLen)-1])
	}
}

// TestDeterminism: the same seed gives the same bytes, with and without
// gzip; another seed gives another dataset.
func TestDeterminism(t *testing.T) {
	for _, gz := range []bool{false, true} {
		a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
		if err := Generate(3000, 42).WriteExport(a, gz); err != nil {
			t.Fatal(err)
		}
		if err := Generate(3000, 42).WriteExport(b, gz); err != nil {
			t.Fatal(err)
		}
		if err := Generate(3000, 43).WriteExport(c, gz); err != nil {
			t.Fatal(err)
		}
		fa, fb := readTree(t, a), readTree(t, b)
		if len(fa) != len(fb) {
			t.Fatalf("gzip=%v: %d files vs %d", gz, len(fa), len(fb))
		}
		for p, x := range fa {
			if !bytes.Equal(x, fb[p]) {
				t.Errorf("gzip=%v: %s differs between two runs", gz, p)
			}
		}
		if bytes.Equal(fa["manifest.json"], readTree(t, c)["manifest.json"]) {
			t.Errorf("gzip=%v: seeds 42 and 43 give the same manifest", gz)
		}
	}
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExport checks the export folder: the files the layout names, every
// record valid, counts consistent, and WriteManifest giving the same
// manifest WriteExport wrote.
func TestExport(t *testing.T) {
	for _, gz := range []bool{false, true} {
		dir := t.TempDir()
		d := Generate(2500, 9)
		if err := d.WriteExport(dir, gz); err != nil {
			t.Fatal(err)
		}
		recs := checkExport(t, dir)
		if recs != 2500 {
			t.Errorf("gzip=%v: %d records in the export", gz, recs)
		}
		want, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err := WriteManifest(dir, ""); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if !bytes.Equal(want, got) {
			t.Errorf("gzip=%v: WriteManifest differs from WriteExport's manifest:\n%s\n---\n%s", gz, want, got)
		}
	}
}

func TestGenerateEdges(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 7, 151} {
		d := Generate(n, 1)
		if got := len(d.Records()); got != max(n, 0) {
			t.Errorf("Generate(%d): %d records", n, got)
		}
		if err := d.WriteExport(t.TempDir(), false); err != nil {
			t.Errorf("Generate(%d).WriteExport: %v", n, err)
		}
	}
	if _, err := Generate(10, 1).Repo(99); err == nil {
		t.Error("Repo(99) of a 1-repo dataset: no error")
	}
}

// checkExport validates an export folder as a reader would and returns the
// number of records: every record against the rules, ids and slugs unique,
// repos.json counts and manifest sizes and sums matching the files.
func checkExport(t *testing.T, dir string) int {
	t.Helper()
	c := newDatasetChecker()
	counts := map[string]int{}
	ids := map[string]bool{}
	files := readTree(t, dir)
	for rel, b := range files {
		if !strings.HasPrefix(rel, "repos/") {
			continue
		}
		if strings.HasSuffix(rel, ".gz") {
			b = gunzip(t, rel, b)
		}
		var raws []json.RawMessage
		if err := json.Unmarshal(b, &raws); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		for i, raw := range raws {
			var r record.Record
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Errorf("%s: record %d: %v", rel, i, err)
				continue
			}
			probs := append(checkRaw(raw), c.add(rel, &r)...)
			if want := "repos/" + r.Repo + ".json"; strings.TrimSuffix(rel, ".gz") != want {
				probs = append(probs, "repo: record of "+r.Repo+" in "+rel)
			}
			for _, p := range probs {
				t.Errorf("%s: record %d (id %s): %s", rel, i, r.ID, p)
			}
			counts[r.Repo]++
			ids[r.ID] = true
		}
	}
	reposJSON := files["repos.json"]
	if reposJSON == nil {
		reposJSON = gunzip(t, "repos.json.gz", files["repos.json.gz"])
	}
	var entries []map[string]any
	if err := json.Unmarshal(reposJSON, &entries); err != nil {
		t.Fatalf("repos.json: %v", err)
	}
	total := 0
	for _, e := range entries {
		repo, _ := e["repo"].(string)
		n, _ := e["errorCount"].(float64)
		if int(n) != counts[repo] {
			t.Errorf("repos.json: %s errorCount %v, file holds %d", repo, n, counts[repo])
		}
		for _, k := range []string{"repo", "description", "language", "stars", "sourceFiles", "defaultBranch", "analyzedSha", "analyzedAt", "errorCount"} {
			if _, ok := e[k]; !ok {
				t.Errorf("repos.json: %s lacks %s", repo, k)
			}
		}
		total += int(n)
	}
	if len(entries) != len(counts) {
		t.Errorf("repos.json has %d repos, repos/ has %d", len(entries), len(counts))
	}
	var tags []TagEntry
	if err := json.Unmarshal(files["tags.json"], &tags); err != nil {
		t.Fatalf("tags.json: %v", err)
	}
	infoSlugs := map[string]bool{}
	for _, tg := range tags {
		if tg.InfoSlug != nil {
			infoSlugs[*tg.InfoSlug] = true
		}
	}
	if idx, ok := files["info/index.json"]; ok {
		var index []InfoIndexEntry
		if err := json.Unmarshal(idx, &index); err != nil {
			t.Fatalf("info/index.json: %v", err)
		}
		for _, e := range index {
			var in record.Info
			if err := json.Unmarshal(files["info/"+e.Slug+".json"], &in); err != nil {
				t.Errorf("info/%s.json: %v", e.Slug, err)
				continue
			}
			if !strings.HasPrefix(in.ClusterKey, "tag:") && !strings.HasPrefix(in.ClusterKey, "code:") && !strings.HasPrefix(in.ClusterKey, "class:") {
				t.Errorf("info/%s.json: clusterKey %q", e.Slug, in.ClusterKey)
			}
			if in.Slug != e.Slug || len(in.CommonCauses) == 0 || len(in.ErrorIDs) == 0 || len(in.ErrorIDs) > 50 || in.ErrorCount < 1 || in.RepoCount < 1 {
				t.Errorf("info/%s.json: breaks an article rule: %+v", e.Slug, in)
			}
			for _, id := range in.ErrorIDs {
				if !ids[id] {
					t.Errorf("info/%s.json: errorIds names unknown record %s", e.Slug, id)
				}
			}
			if fam := in.Family(); fam != "" && !infoSlugs[in.Slug] {
				t.Errorf("info/%s.json: tags.json does not point at it", e.Slug)
			}
		}
	}
	var m Manifest
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if m.SchemaVersion != 2 || m.DatasetVersion == "" || m.Counts.Records != total || m.Counts.Repos != len(entries) || m.Counts.Files != len(files)-1 {
		t.Errorf("manifest.json: counts %+v, version %q; want %d records, %d repos, %d files", m.Counts, m.DatasetVersion, total, len(entries), len(files)-1)
	}
	for _, f := range m.Files {
		b, ok := files[f.Path]
		if !ok {
			t.Errorf("manifest.json lists missing %s", f.Path)
			continue
		}
		if int64(len(b)) != f.Bytes || sha(b) != f.SHA256 {
			t.Errorf("manifest.json: %s size or sha256 is stale", f.Path)
		}
	}
	return total
}

func gunzip(t *testing.T, name string, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
