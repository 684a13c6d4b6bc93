package corpus

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/errdocs/errdocs/generator/record"
)

// Manifest is manifest.json of an export folder.
type Manifest struct {
	SchemaVersion  int            `json:"schemaVersion"`
	DatasetVersion string         `json:"datasetVersion"`
	Counts         ManifestCounts `json:"counts"`
	Files          []ManifestFile `json:"files"`
}

// ManifestCounts counts what the export holds.
type ManifestCounts struct {
	Records  int `json:"records"`
	Repos    int `json:"repos"`
	Families int `json:"families"` // entries of tags.json
	Info     int `json:"info"`     // background articles
	Files    int `json:"files"`    // entries of Files
}

// ManifestFile is one file of the export (every file but manifest.json),
// by slash-separated path relative to the export folder.
type ManifestFile struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// TagEntry is one entry of tags.json: a backgroundTag family.
type TagEntry struct {
	Tag        string  `json:"tag"`
	ErrorCount int     `json:"errorCount"`
	RepoCount  int     `json:"repoCount"`
	InfoSlug   *string `json:"infoSlug"`
}

// InfoIndexEntry is one entry of info/index.json.
type InfoIndexEntry struct {
	Slug        string `json:"slug"`
	Title       string `json:"title"`
	Summary     string `json:"summary"`
	ErrorCount  int    `json:"errorCount"`
	RepoCount   int    `json:"repoCount"`
	GeneratedAt string `json:"generatedAt"`
}

// RepoJSON gives a repo entry in schema form: null for an absent
// description, language or sourceFiles (record.Repo holds them as "" and -1).
func RepoJSON(r record.Repo) any {
	var desc, lang, files any
	if r.Description != "" {
		desc = r.Description
	}
	if r.Language != "" {
		lang = r.Language
	}
	if r.SourceFiles >= 0 {
		files = r.SourceFiles
	}
	return struct {
		Repo          string `json:"repo"`
		Description   any    `json:"description"`
		Language      any    `json:"language"`
		Stars         int    `json:"stars"`
		SourceFiles   any    `json:"sourceFiles"`
		DefaultBranch string `json:"defaultBranch"`
		AnalyzedSha   string `json:"analyzedSha"`
		AnalyzedAt    string `json:"analyzedAt"`
		ErrorCount    int    `json:"errorCount"`
	}{r.Repo, desc, lang, r.Stars, files, r.DefaultBranch, r.AnalyzedSha, r.AnalyzedAt, r.ErrorCount}
}

// repoResult is what writing one repo file learnt, merged in repo order so
// the output does not depend on scheduling.
type repoResult struct {
	file    ManifestFile
	famN    map[string]int
	famIDs  map[string][]string
	written int
}

const maxInfoIDs = 50

// WriteExport writes the dataset to dir in the export layout. With gz, the
// record files and repos.json are gzipped (repos/<owner>/<name>.json.gz,
// repos.json.gz); tags.json, info/ and manifest.json stay plain. Repos are
// made and written in parallel, one repo in memory per worker at most.
// Files already in dir are overwritten; other files are left alone.
func (d *Dataset) WriteExport(dir string, gz bool) error {
	if err := os.MkdirAll(filepath.Join(dir, "repos"), 0o755); err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	results := make([]repoResult, len(d.repos))
	errs := make([]error, len(d.repos))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i], errs[i] = d.writeRepo(dir, i, gz)
			}
		}()
	}
	for i := range d.repos {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}

	var files []ManifestFile
	famN := map[string]int{}
	famRepos := map[string]int{}
	famIDs := map[string][]string{}
	for _, r := range results {
		files = append(files, r.file)
		for t, n := range r.famN {
			famN[t] += n
			famRepos[t]++
		}
		for t, ids := range r.famIDs {
			room := maxInfoIDs - len(famIDs[t])
			famIDs[t] = append(famIDs[t], ids[:min(room, len(ids))]...)
		}
	}

	// repos.json, sorted by repo name.
	entries := d.RepoEntries()
	slices.SortFunc(entries, func(a, b record.Repo) int { return strings.Compare(a.Repo, b.Repo) })
	repoJSON := make([]any, len(entries))
	for i, e := range entries {
		repoJSON[i] = RepoJSON(e)
	}
	name := "repos.json"
	if gz {
		name += ".gz"
	}
	f, err := writeJSONFile(dir, name, repoJSON, gz)
	if err != nil {
		return err
	}
	files = append(files, f)

	// info articles for the larger families, then tags.json pointing at them.
	tags := make([]string, 0, len(famN))
	for t := range famN {
		tags = append(tags, t)
	}
	slices.Sort(tags)
	byCount := slices.Clone(tags)
	slices.SortStableFunc(byCount, func(a, b string) int { return famN[b] - famN[a] })
	withInfo := map[string]bool{}
	for _, t := range byCount[:len(byCount)*3/5] {
		withInfo[t] = true
	}
	var index []InfoIndexEntry
	if len(withInfo) > 0 {
		if err := os.MkdirAll(filepath.Join(dir, "info"), 0o755); err != nil {
			return fmt.Errorf("corpus: %w", err)
		}
	}
	for _, t := range tags {
		if !withInfo[t] {
			continue
		}
		in := infoArticle(famByTag(t), famN[t], famRepos[t], famIDs[t], d.DatasetVersion, withInfo)
		// An article carries its own schemaVersion (1), which record.Info
		// does not hold.
		file := struct {
			record.Info
			SchemaVersion int `json:"schemaVersion"`
		}{in, 1}
		f, err := writeJSONFile(dir, "info/"+in.Slug+".json", file, false)
		if err != nil {
			return err
		}
		files = append(files, f)
		index = append(index, InfoIndexEntry{in.Slug, in.Title, in.Summary, in.ErrorCount, in.RepoCount, in.GeneratedAt})
	}
	if len(index) > 0 {
		f, err := writeJSONFile(dir, "info/index.json", index, false)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	tagEntries := make([]TagEntry, 0, len(tags))
	for _, t := range tags {
		e := TagEntry{Tag: t, ErrorCount: famN[t], RepoCount: famRepos[t]}
		if withInfo[t] {
			s := t
			e.InfoSlug = &s
		}
		tagEntries = append(tagEntries, e)
	}
	if f, err = writeJSONFile(dir, "tags.json", tagEntries, false); err != nil {
		return err
	}
	files = append(files, f)

	slices.SortFunc(files, func(a, b ManifestFile) int { return strings.Compare(a.Path, b.Path) })
	m := Manifest{
		SchemaVersion: record.SchemaVersion, DatasetVersion: d.DatasetVersion, Files: files,
		Counts: ManifestCounts{Records: d.total, Repos: len(d.repos), Families: len(tagEntries), Info: len(index), Files: len(files)},
	}
	_, err = writeJSONFile(dir, "manifest.json", m, false)
	return err
}

func famByTag(t string) *family {
	for i := range families {
		if families[i].tag == t {
			return &families[i]
		}
	}
	return nil
}

func infoArticle(f *family, n, repos int, ids []string, at string, withInfo map[string]bool) record.Info {
	in := record.Info{
		Slug: f.tag, ClusterKey: "tag:" + f.tag, Title: f.title, Summary: f.meaning,
		ErrorIDs: ids, ErrorCount: n, RepoCount: repos, GeneratedAt: at, GuideSlugs: []string{},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nAcross libraries this family looks alike: the message names the failing operation, and the fix is almost never inside the library itself. The usual suspects are:\n\n", f.meaning)
	for _, c := range f.causes {
		b.WriteString("- " + upperFirst(c) + "\n")
	}
	b.WriteString("\nStart by reading the full message and its cause chain; most libraries wrap the underlying error rather than replace it.")
	in.Background = b.String()
	for _, c := range f.causes {
		in.CommonCauses = append(in.CommonCauses, record.Cause{Cause: upperFirst(c), Detail: "Seen when " + c + "; check this first when the error appears after a change to the environment."})
	}
	in.Fixes = slices.Clone(f.fixes)
	// Guides: other articles of the same class of error.
	for i := range families {
		g := &families[i]
		if g.tag != f.tag && g.cat == f.cat && withInfo[g.tag] && len(in.GuideSlugs) < 3 {
			in.GuideSlugs = append(in.GuideSlugs, g.tag)
		}
	}
	return in
}

// writeRepo makes repo i's records and streams them to its file as a JSON
// array, one record per line.
func (d *Dataset) writeRepo(dir string, i int, gz bool) (repoResult, error) {
	p := d.repos[i]
	owner, name, _ := strings.Cut(p.entry.Repo, "/")
	rel := path.Join("repos", owner, name+".json")
	if gz {
		rel += ".gz"
	}
	res := repoResult{famN: map[string]int{}, famIDs: map[string][]string{}}
	err := writeFile(dir, rel, gz, func(w io.Writer) error {
		bw := w.(*bufio.Writer)
		bw.WriteString("[\n")
		n := 0
		err := d.eachInRepo(i, func(r *record.Record) error {
			b, err := r.MarshalJSON()
			if err != nil {
				return fmt.Errorf("record %d (id %s): %w", n, r.ID, err)
			}
			if n > 0 {
				bw.WriteString(",\n")
			}
			bw.Write(b)
			n++
			if t := r.BackgroundTag; t != "" {
				res.famN[t]++
				if len(res.famIDs[t]) < maxInfoIDs {
					res.famIDs[t] = append(res.famIDs[t], r.ID)
				}
			}
			return nil
		})
		bw.WriteString("\n]\n")
		res.written = n
		return err
	}, &res.file)
	return res, err
}

// writeFile creates dir/rel (slash path), lets fill write the content through
// a buffered writer, gzips it when asked, and records size and sha256 of
// the bytes on disk in mf.
func writeFile(dir, rel string, gz bool, fill func(io.Writer) error, mf *ManifestFile) (err error) {
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	f, err := os.Create(full)
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("corpus: %w", cerr)
		}
	}()
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(f, h)}
	var out io.Writer = cw
	var zw *gzip.Writer
	if gz {
		// BestSpeed: the point of -gzip is realistic file shapes for
		// readers, and the default level triples the write time.
		zw, _ = gzip.NewWriterLevel(cw, gzip.BestSpeed)
		out = zw
	}
	bw := bufio.NewWriterSize(out, 256<<10)
	if err := fill(bw); err != nil {
		return fmt.Errorf("corpus: %s: %w", rel, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("corpus: %s: %w", rel, err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return fmt.Errorf("corpus: %s: %w", rel, err)
		}
	}
	*mf = ManifestFile{Path: rel, Bytes: cw.n, SHA256: hex.EncodeToString(h.Sum(nil))}
	return nil
}

func writeJSONFile(dir, rel string, v any, gz bool) (ManifestFile, error) {
	var mf ManifestFile
	err := writeFile(dir, rel, gz, func(w io.Writer) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		w.Write(b)
		_, err = w.Write([]byte("\n"))
		return err
	}, &mf)
	return mf, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// WriteJSONL writes every record as JSON Lines, the other input format the
// build reads.
func (d *Dataset) WriteJSONL(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	err := d.Each(func(r *record.Record) error {
		b, err := r.MarshalJSON()
		if err != nil {
			return err
		}
		bw.Write(b)
		return bw.WriteByte('\n')
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// WriteManifest (re)computes dir/manifest.json for an export folder written
// by anything, e.g. the hand-made sample in content/: sizes and sha256 of
// every other file, and counts read from the files themselves (records by
// counting the elements of each repos/**.json[.gz] array). datasetVersion
// is kept from an existing manifest when version is "", else taken from the
// latest analyzedAt in repos.json.
func WriteManifest(dir string, version string) error {
	var m Manifest
	m.SchemaVersion = record.SchemaVersion
	old := filepath.Join(dir, "manifest.json")
	if version == "" {
		if b, err := os.ReadFile(old); err == nil {
			var prev Manifest
			if json.Unmarshal(b, &prev) == nil {
				version = prev.DatasetVersion
			}
		}
	}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.Type().IsRegular() || p == old {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		mf, n, err := hashFile(p, strings.HasPrefix(rel, "repos/"))
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		mf.Path = rel
		m.Files = append(m.Files, mf)
		if strings.HasPrefix(rel, "repos/") {
			m.Counts.Repos++
			m.Counts.Records += n
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("corpus: manifest of %s: %w", dir, err)
	}
	slices.SortFunc(m.Files, func(a, b ManifestFile) int { return strings.Compare(a.Path, b.Path) })
	m.Counts.Files = len(m.Files)
	m.Counts.Families = countArray(filepath.Join(dir, "tags.json"))
	m.Counts.Info = countArray(filepath.Join(dir, "info", "index.json"))
	if version == "" {
		version = latestAnalyzed(dir)
	}
	m.DatasetVersion = version
	_, err = writeJSONFile(dir, "manifest.json", m, false)
	return err
}

// hashFile gives size and sha256 of a file and, when it holds records, how
// many elements its top-level JSON array has.
func hashFile(p string, records bool) (ManifestFile, int, error) {
	f, err := os.Open(p)
	if err != nil {
		return ManifestFile{}, 0, err
	}
	defer f.Close()
	h := sha256.New()
	cw := &countWriter{w: h}
	var r io.Reader = io.TeeReader(f, cw)
	n := 0
	if records {
		if strings.HasSuffix(p, ".gz") {
			zr, err := gzip.NewReader(r)
			if err != nil {
				return ManifestFile{}, 0, err
			}
			r = zr
		}
		if n, err = arrayLen(r); err != nil {
			return ManifestFile{}, 0, err
		}
	}
	if _, err := io.Copy(io.Discard, r); err != nil { // the rest, for the hash
		return ManifestFile{}, 0, err
	}
	if records && strings.HasSuffix(p, ".gz") {
		io.Copy(io.Discard, io.TeeReader(f, cw))
	}
	return ManifestFile{Bytes: cw.n, SHA256: hex.EncodeToString(sumOf(h))}, n, nil
}

func sumOf(h hash.Hash) []byte { return h.Sum(nil) }

// arrayLen counts the elements of the JSON array r holds.
func arrayLen(r io.Reader) (int, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return 0, err
	}
	if tok != json.Delim('[') {
		return 0, errors.New("not a JSON array")
	}
	n := 0
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return n, fmt.Errorf("element %d: %w", n, err)
		}
		n++
	}
	_, err = dec.Token()
	return n, err
}

func countArray(p string) int {
	f, err := os.Open(p)
	if err != nil {
		return 0
	}
	defer f.Close()
	n, _ := arrayLen(f)
	return n
}

func latestAnalyzed(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "repos.json"))
	if err != nil {
		return ""
	}
	var entries []struct {
		AnalyzedAt string `json:"analyzedAt"`
	}
	if json.Unmarshal(b, &entries) != nil {
		return ""
	}
	latest := ""
	for _, e := range entries {
		latest = max(latest, e.AnalyzedAt)
	}
	return latest
}
