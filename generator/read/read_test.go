package read_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/read"
	"github.com/errdocs/errdocs/internal/testseed"
)

// rec is a small stand-in record: the reader does not judge records, so
// any object will do, and a tiny one makes positions easy to check.
func rec(id string) string { return `{"id":"` + id + `","repo":"a/b"}` }

func wrapped(id string) string {
	return `{"record":` + rec(id) + `,"datasetVersion":"2026-08-27T13:17:12.746Z"}`
}

func write(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func gz(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// got is what one Read produced, in a comparable form.
type got struct {
	items  []string // "FILE#INDEX@LINE id=ID v=VERSION"
	errs   []string
	extras *read.Extras
}

func readAll(t *testing.T, dir string, paths ...string) got {
	t.Helper()
	var g got
	ex, errs := read.Read(paths, func(it read.Item) error {
		var r struct{ ID string }
		if err := json.Unmarshal(it.Raw, &r); err != nil {
			r.ID = "<" + string(it.Raw) + ">"
		}
		rel, _ := filepath.Rel(dir, it.Source.File)
		g.items = append(g.items, fmt.Sprintf("%s#%d@%d id=%s v=%s", filepath.ToSlash(rel), it.Source.Index, it.Source.Line, r.ID, it.DatasetVersion))
		return nil
	})
	for _, e := range errs {
		g.errs = append(g.errs, strings.ReplaceAll(e.Error(), dir+string(filepath.Separator), ""))
	}
	g.extras = ex
	return g
}

func TestFormats(t *testing.T) {
	const v = "2026-08-27T13:17:12.746Z"
	tests := []struct {
		name, file, content string
		want                []string
	}{
		{"wrapped", "w.json", wrapped("w1"), []string{"w.json#0@0 id=w1 v=" + v}},
		{"wrapped pretty, version first", "w.json", "{\n  \"datasetVersion\": \"" + v + "\",\n  \"record\": " + rec("w1") + "\n}\n", []string{"w.json#0@0 id=w1 v=" + v}},
		{"bare", "b.json", rec("b1"), []string{"b.json#0@0 id=b1 v="}},
		{"array", "a.json", "[\n" + rec("a0") + ",\n" + wrapped("a1") + ",\n" + rec("a2") + "\n]", []string{"a.json#0@0 id=a0 v=", "a.json#1@0 id=a1 v=" + v, "a.json#2@0 id=a2 v="}},
		{"empty array", "a.json", "[]", nil},
		{"jsonl", "l.jsonl", rec("l0") + "\n\n" + wrapped("l1") + "\r\n" + rec("l2"), []string{"l.jsonl#0@1 id=l0 v=", "l.jsonl#1@3 id=l1 v=" + v, "l.jsonl#2@4 id=l2 v="}},
		{"ndjson", "l.ndjson", rec("n0") + "\n" + rec("n1") + "\n", []string{"l.ndjson#0@1 id=n0 v=", "l.ndjson#1@2 id=n1 v="}},
		{"json lines named .json", "l.json", rec("j0") + "\n" + rec("j1") + "\n", []string{"l.json#0@1 id=j0 v=", "l.json#1@2 id=j1 v="}},
		{"BOM", "b.json", "\xef\xbb\xbf" + rec("bom"), []string{"b.json#0@0 id=bom v="}},
		{"record with stray record field stays bare", "s.json", `{"record":{"id":"in"},"id":"out"}`, []string{"s.json#0@0 id=out v="}},
		{"non-object array entries are still items", "x.json", `[1, "s"]`, []string{"x.json#0@0 id=<1> v=", `x.json#1@0 id=<"s"> v=`}},
	}
	for _, tc := range tests {
		for _, mode := range []string{"plain", "gz", "gz magic only"} {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				dir := t.TempDir()
				name, content := tc.file, tc.content
				switch mode {
				case "gz":
					name, content = name+".gz", gz(t, content)
				case "gz magic only":
					content = gz(t, content)
				}
				write(t, dir, name, content)
				want := tc.want
				if mode == "gz" {
					want = nil
					for _, w := range tc.want {
						want = append(want, strings.Replace(w, tc.file+"#", tc.file+".gz#", 1))
					}
				}
				g := readAll(t, dir, dir)
				if len(g.errs) > 0 || !reflect.DeepEqual(g.items, want) {
					t.Errorf("items %q\nwant  %q\nerrs %q", g.items, want, g.errs)
				}
				if len(want) > 0 && strings.Contains(tc.content, v) && g.extras.DatasetVersion != v {
					t.Errorf("datasetVersion %q", g.extras.DatasetVersion)
				}
			})
		}
	}
}

// TestRawIsTheRecord checks that Raw holds exactly the record's bytes, so
// that a reject can show the record as it was written.
func TestRawIsTheRecord(t *testing.T) {
	dir := t.TempDir()
	inner := "{\n    \"id\": \"x\",\n    \"tags\": [\"a\"]\n  }"
	write(t, dir, "w.json", "{\n  \"record\": "+inner+",\n  \"datasetVersion\": null\n}")
	write(t, dir, "a.json", "[ "+inner+" ]")
	var raws []string
	_, errs := read.Read([]string{dir}, func(it read.Item) error {
		raws = append(raws, string(it.Raw))
		return nil
	})
	if len(errs) > 0 || len(raws) != 2 || raws[0] != inner || raws[1] != inner {
		t.Fatalf("raws %q errs %v", raws, errs)
	}
}

func TestInvalidJSON(t *testing.T) {
	dir := t.TempDir()
	// The fault is the '{' on line 3, column 5: a comma is missing before it.
	write(t, dir, "repos/a/b.json", "[\n"+rec("x0")+"\n    "+rec("x1")+"\n]")
	write(t, dir, "repos/a/c.json", "["+rec("c0")+"]")
	write(t, dir, "trunc.json", "[\n"+rec("t0")+",\n{\"id\":")
	write(t, dir, "l.jsonl", rec("l0")+"\n{\"id\": nope}\n"+rec("l2")+"\n[1,]\n")
	write(t, dir, "disguised.json", rec("d0")+"\n{oops\n"+rec("d2")+"\n")
	write(t, dir, "pretty-then-junk.json", "{\n\"id\": \"p\"\n}\n}")
	write(t, dir, "empty.json", " \n")
	write(t, dir, "scalar.json", "\n 42")
	write(t, dir, "after.json", "[] x")
	g := readAll(t, dir, dir)
	wantItems := []string{
		"disguised.json#0@1 id=d0 v=", "disguised.json#2@3 id=d2 v=",
		"l.jsonl#0@1 id=l0 v=", "l.jsonl#2@3 id=l2 v=",
		"repos/a/c.json#0@0 id=c0 v=",
	}
	wantErrs := []string{
		"after.json:1:4: invalid JSON: invalid character 'x' at start of value",
		"disguised.json:2:2: invalid JSON: invalid character 'o' at start of string (expecting '\"')",
		"empty.json: empty file: no JSON value",
		"l.jsonl:2:9: invalid JSON: invalid character 'o' in literal null (expecting 'u')",
		"l.jsonl:4:4: invalid JSON: invalid character ']' at start of value",
		"pretty-then-junk.json:4:1: invalid JSON: invalid character '}' at start of value",
		"repos/a/b.json:3:5: invalid JSON: invalid character '{' after array element (expecting ',' or ']')",
		"scalar.json:2:2: not a record, an array of records or JSON Lines (starts with '4')",
		"trunc.json:3:7: invalid JSON: unexpected end of input",
	}
	if !reflect.DeepEqual(g.items, wantItems) {
		t.Errorf("items %q\nwant  %q", g.items, wantItems)
	}
	if !reflect.DeepEqual(g.errs, wantErrs) {
		t.Errorf("errs\n%s\nwant\n%s", strings.Join(g.errs, "\n"), strings.Join(wantErrs, "\n"))
	}
}

func sha(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// export writes a small upstream-style export folder.
func export(t *testing.T, dir string) {
	reposJSON := `[
 {"repo":"a/b","description":"B lib","language":"Go","stars":5,"sourceFiles":null,"defaultBranch":"main","analyzedSha":"x","analyzedAt":"2026-01-01T00:00:00Z","errorCount":2,"extra":1},
 {"repo":"../evil","stars":1},
 {"repo":"c/d","stars":-1},
 {"repo":"e/f","stars":"many","description":3},
 "nope",
 {"repo":"a/b","stars":9},
 {"repo":"g/h","language":null,"sourceFiles":12}
]`
	write(t, dir, "repos.json", reposJSON)
	write(t, dir, "repos/a/b.json", "["+rec("ab0")+","+rec("ab1")+"]")
	write(t, dir, "repos/g/h.json.gz", gz(t, "["+rec("gh0")+"]"))
	write(t, dir, "index.json.gz", gz(t, `{"errors":[{"id":"zz"}]}`))
	write(t, dir, "search/summary.json", `{"terms":1}`)
	write(t, dir, "info/resource-limit.json", `{"slug":"resource-limit","clusterKey":"tag:resource-limit-exceeded","title":"Resource limits","summary":"s","background":"b",
		"commonCauses":[{"cause":"c","detail":"d"}],"fixes":["f"],"guideSlugs":["limits"],"errorIds":["e171781a76b49a91"],"errorCount":3,"repoCount":2,"generatedAt":"2026-01-01T00:00:00Z","schemaVersion":1}`)
	write(t, dir, "info/by-code.json", `{"slug":"by-code","clusterKey":"code:ECONNREFUSED","title":"Refused","errorIds":["e171781a76b49a91"]}`)
	write(t, dir, "info/bad-key.json", `{"slug":"bad-key","clusterKey":"family:x","title":"T","errorIds":[]}`)
	write(t, dir, "info/too-many.json", `{"slug":"too-many","clusterKey":"class:TypeError","title":"T","errorIds":[`+strings.Repeat(`"e171781a76b49a91",`, 50)+`"e171781a76b49a91"]}`)
	write(t, dir, "info/index.json", `[{"slug":"resource-limit"},{"slug":"by-code"},{"slug":"gone"}]`)
	write(t, dir, "tags.json", `[{"tag":"resource-limit-exceeded","errorCount":3,"repoCount":2,"infoSlug":"resource-limit"},{"tag":"Bad Tag","errorCount":1,"repoCount":1,"infoSlug":null}]`)
	summary := `{"terms":1}`
	write(t, dir, "manifest.json", `{"schemaVersion":2,"datasetVersion":"2026-09-01T00:00:00.000Z","counts":{"repos":2},"files":{
		"repos":{"path":"/data/repos.json","bytes":`+fmt.Sprint(len(reposJSON))+`,"sha256":"`+sha(reposJSON)+`"},
		"searchSummary":{"path":"/data/search/summary.json","bytes":`+fmt.Sprint(len(summary))+`,"sha256":"`+sha("different")+`"},
		"index":{"path":"/data/index.json.gz","bytes":1,"sha256":"00"},
		"missing":{"path":"/data/nowhere.json","bytes":1,"sha256":"00"}}}`)
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	export(t, dir)
	g := readAll(t, dir, dir)
	wantItems := []string{"repos/a/b.json#0@0 id=ab0 v=", "repos/a/b.json#1@0 id=ab1 v=", "repos/g/h.json.gz#0@0 id=gh0 v="}
	if !reflect.DeepEqual(g.items, wantItems) {
		t.Errorf("items %q\nwant  %q", g.items, wantItems)
	}
	wantErrs := []string{
		`manifest.json: index.json.gz is ` + fmt.Sprint(len(gz(t, `{"errors":[{"id":"zz"}]}`))) + ` bytes; the manifest says 1`,
		`manifest.json: lists "/data/nowhere.json", which is not in the export`,
		`manifest.json: search/summary.json has sha256 ` + sha(`{"terms":1}`) + `; the manifest says ` + sha("different"),
		`repos.json: entry 1: repo: a part may not be "." or ".." (our rule: it names a folder)`,
		`repos.json: entry 2: stars: must be an integer ≥ 0`,
		`repos.json: entry 3: description: must be a string, not a number; stars: must be an integer ≥ 0`,
		`repos.json: entry 4: must be a JSON object, not a string`,
		`repos.json: entry 5: repo: "a/b" is listed twice; the first entry is kept`,
		`tags.json: entry 1: tag: must be a lowercase kebab tag`,
		`info/bad-key.json: clusterKey: must be tag:<kebab tag>, code:<errorCode> or class:<errorClass>; errorIds: must list 1 to 50 record ids, not 0`,
		`info/too-many.json: errorIds: must list 1 to 50 record ids, not 51`,
		`info/index.json: entry 2: lists article "gone", which is missing or was left out`,
	}
	if !reflect.DeepEqual(g.errs, wantErrs) {
		t.Errorf("errs\n%s\nwant\n%s", strings.Join(g.errs, "\n"), strings.Join(wantErrs, "\n"))
	}
	ex := g.extras
	var repos []string
	for _, r := range ex.Repos {
		repos = append(repos, fmt.Sprintf("%s %q %q %d %d %d", r.Repo, r.Description, r.Language, r.Stars, r.SourceFiles, r.ErrorCount))
	}
	wantRepos := []string{`a/b "B lib" "Go" 5 -1 2`, `g/h "" "" 0 12 0`}
	if !reflect.DeepEqual(repos, wantRepos) {
		t.Errorf("repos %q\nwant  %q", repos, wantRepos)
	}
	if len(ex.Infos) != 2 || ex.Infos[0].Slug != "by-code" || ex.Infos[1].Slug != "resource-limit" || ex.Infos[1].Family() != "resource-limit-exceeded" ||
		len(ex.Infos[1].CommonCauses) != 1 || ex.Infos[1].CommonCauses[0].Detail != "d" {
		t.Errorf("infos %+v", ex.Infos)
	}
	if len(ex.Tags) != 1 || ex.Tags[0] != (read.Tag{Tag: "resource-limit-exceeded", ErrorCount: 3, RepoCount: 2, InfoSlug: "resource-limit"}) {
		t.Errorf("tags %+v", ex.Tags)
	}
	if ex.DatasetVersion != "2026-09-01T00:00:00.000Z" || ex.Files != 2 || ex.Records != 3 {
		t.Errorf("extras %+v", ex)
	}
}

// TestExportGzipped reads an export whose side files are all gzipped.
func TestExportGzipped(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "repos.json.gz", gz(t, `[{"repo":"a/b","stars":1}]`))
	write(t, dir, "tags.json.gz", gz(t, `[{"tag":"x","errorCount":1,"repoCount":1,"infoSlug":null}]`))
	write(t, dir, "info/x.json.gz", gz(t, `{"slug":"x","clusterKey":"tag:x","title":"X","errorIds":["e171781a76b49a91"]}`))
	write(t, dir, "repos/a/b.json.gz", gz(t, "["+rec("1")+"]"))
	g := readAll(t, dir, dir)
	if len(g.errs) > 0 || len(g.items) != 1 || len(g.extras.Repos) != 1 || len(g.extras.Tags) != 1 || len(g.extras.Infos) != 1 {
		t.Errorf("%+v %+v", g, g.extras)
	}
}

// TestPlainFolder: a folder that is not an export is walked for record
// files; hidden entries and other extensions are skipped; a sample folder
// with a repos.json beside loose record files reads both.
func TestPlainFolder(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "z.json", rec("z"))
	write(t, dir, "sub/deeper/a.jsonl", rec("a"))
	write(t, dir, "sub/b.ndjson.gz", gz(t, rec("b")))
	write(t, dir, ".hidden.json", rec("hidden"))
	write(t, dir, ".git/x.json", rec("git"))
	write(t, dir, "notes.md", "# notes")
	write(t, dir, "data.txt", rec("txt"))
	g := readAll(t, dir, dir)
	want := []string{"sub/b.ndjson.gz#0@1 id=b v=", "sub/deeper/a.jsonl#0@1 id=a v=", "z.json#0@0 id=z v="}
	if len(g.errs) > 0 || !reflect.DeepEqual(g.items, want) {
		t.Errorf("items %q\nwant  %q\nerrs %q", g.items, want, g.errs)
	}

	sample := t.TempDir()
	write(t, sample, "repos.json", `[{"repo":"a/b","stars":3}]`)
	write(t, sample, "records/one.json", wrapped("one"))
	g = readAll(t, sample, sample)
	if len(g.errs) > 0 || len(g.items) != 1 || len(g.extras.Repos) != 1 {
		t.Errorf("sample folder: %+v %+v", g, g.extras)
	}
}

// TestPathsAndOrder: several paths, files and folders, in any order, give
// one sorted order; a file met twice is read once.
func TestPathsAndOrder(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a/1.json", rec("a1"))
	write(t, dir, "a/2.json", rec("a2"))
	b := write(t, dir, "b.json", rec("b"))
	g1 := readAll(t, dir, b, filepath.Join(dir, "a"), a)
	g2 := readAll(t, dir, filepath.Join(dir, "a"), b, "./"+filepath.Join(dir, "a")+"/")
	want := []string{"a/1.json#0@0 id=a1 v=", "a/2.json#0@0 id=a2 v=", "b.json#0@0 id=b v="}
	if !reflect.DeepEqual(g1.items, want) || !reflect.DeepEqual(g2.items, want) {
		t.Errorf("got %q and %q\nwant %q", g1.items, g2.items, want)
	}
	g := readAll(t, dir, filepath.Join(dir, "missing"))
	if len(g.errs) != 1 || !strings.Contains(g.errs[0], "missing: stat: no such file or directory") {
		t.Errorf("missing path: %q", g.errs)
	}
}

func TestSymlinks(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "secret.json", rec("secret"))
	dir := t.TempDir()
	target := write(t, dir, "real.json", rec("real"))
	if err := os.Symlink(target, filepath.Join(dir, "alias.json")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, "leak.json"))
	os.Symlink(outside, filepath.Join(dir, "leakdir"))
	os.Symlink(dir, filepath.Join(dir, "loop"))
	g := readAll(t, dir, dir)
	// alias.json sorts first, so the file is read once under that name.
	want := []string{"alias.json#0@0 id=real v="}
	if !reflect.DeepEqual(g.items, want) {
		t.Errorf("items %q want %q", g.items, want)
	}
	wantErrs := []string{
		"leak.json: symbolic link leads out of the folder being read; skipped",
		"leakdir: symbolic link leads out of the folder being read; skipped",
	}
	if !reflect.DeepEqual(g.errs, wantErrs) {
		t.Errorf("errs %q", g.errs)
	}
}

func TestEachErrorStops(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		write(t, dir, fmt.Sprintf("f%02d.json", i), "["+rec("a")+","+rec("b")+"]")
	}
	stop := errors.New("stop")
	n := 0
	_, errs := read.Options{Workers: 3}.Read([]string{dir}, func(read.Item) error {
		n++
		if n == 5 {
			return stop
		}
		return nil
	})
	if n != 5 || len(errs) != 1 || errs[0] != stop {
		t.Errorf("n=%d errs=%v", n, errs)
	}
}

func TestSizeLimit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "big.json", "["+strings.Repeat(rec("x")+",", 100)+rec("x")+"]")
	write(t, dir, "bomb.json.gz", gz(t, "["+strings.Repeat(" ", 10000)+"]"))
	_, errs := read.Options{MaxFileSize: 1000}.Read([]string{dir}, func(read.Item) error { return nil })
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "over the 1000-byte limit") || !strings.Contains(errs[1].Error(), "over the 1000-byte limit") {
		t.Errorf("errs %v", errs)
	}
}

// BenchmarkReadArray reads one big array file of realistic records (the
// size of the largest upstream repo file), plain and gzipped.
func BenchmarkReadArray(b *testing.B) {
	seed := testseed.JSON()
	var w struct{ Record map[string]any }
	if err := json.Unmarshal(seed, &w); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i := range 3500 {
		if i > 0 {
			buf.WriteString(",\n")
		}
		w.Record["id"] = fmt.Sprintf("%016x", i)
		w.Record["slug"] = fmt.Sprintf("error-%d", i)
		r, _ := json.MarshalIndent(w.Record, "  ", "  ")
		buf.Write(r)
	}
	buf.WriteString("\n]\n")
	for _, mode := range []string{"plain", "gzip"} {
		b.Run(mode, func(b *testing.B) {
			dir := b.TempDir()
			content := buf.String()
			name := "big.json"
			if mode == "gzip" {
				content, name = gz(b, content), "big.json.gz"
			}
			write(b, dir, name, content)
			b.SetBytes(int64(buf.Len())) // MB/s of JSON, decompressed
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				_, errs := read.Read([]string{dir}, func(read.Item) error { n++; return nil })
				if n != 3500 || len(errs) > 0 {
					b.Fatal(n, errs)
				}
			}
		})
	}
}

// TestManifestSymlinks: a file the manifest lists that is, or lies under,
// a symbolic link leading out of the export is not read nor described;
// one under a link that stays inside the export is checked as any other.
func TestManifestSymlinks(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, "secret.json", `{"secret":1}`)
	dir := t.TempDir()
	write(t, dir, "repos/a/b.json", "["+rec("ab0")+"]")
	inner := `{"terms":1}`
	write(t, dir, "search/summary.json", inner)
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, "leak.json")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	for _, err := range []error{
		os.Symlink(outside, filepath.Join(dir, "leakdir")),
		os.Symlink(filepath.Join(dir, "search"), filepath.Join(dir, "alias")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	secret := `{"secret":1}`
	listed := func(path, body string) string {
		return `{"path":"` + path + `","bytes":` + fmt.Sprint(len(body)) + `,"sha256":"` + sha(body) + `"}`
	}
	write(t, dir, "manifest.json", `{"schemaVersion":2,"datasetVersion":"2026-09-01T00:00:00.000Z","files":{
		"a":`+listed("/data/leak.json", secret)+`,
		"b":`+listed("/data/leakdir/secret.json", secret)+`,
		"c":`+listed("/data/alias/summary.json", inner)+`,
		"d":`+listed("/data/alias/summary.json", "other")+`,
		"e":`+listed("/data/search/summary.json", inner)+`}}`)
	g := readAll(t, dir, dir)
	wantErrs := []string{
		"leak.json: symbolic link leads out of the folder being read; skipped",
		"leakdir: symbolic link leads out of the folder being read; skipped",
		`manifest.json: lists "/data/leak.json", a symbolic link that leads out of the export; not read`,
		`manifest.json: lists "/data/leakdir/secret.json", a symbolic link that leads out of the export; not read`,
		`manifest.json: alias/summary.json is 11 bytes; the manifest says 5`,
	}
	if !reflect.DeepEqual(g.errs, wantErrs) {
		t.Errorf("errs\n%s\nwant\n%s", strings.Join(g.errs, "\n"), strings.Join(wantErrs, "\n"))
	}
	if want := []string{"repos/a/b.json#0@0 id=ab0 v="}; !reflect.DeepEqual(g.items, want) {
		t.Errorf("items %q want %q", g.items, want)
	}
}
