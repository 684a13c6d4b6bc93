package read

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/generator/validate"
)

// The side files of an export are decoded leniently: unknown members are
// ignored and a missing optional value takes its zero. What pages rely on is
// checked, and an entry that fails is reported and left out; the others are
// kept.

// readMeta reads manifests, repos.json, tags.json and info articles. They are
// small beside the records and read one after the other.
func (r *reader) readMeta(p plan) {
	for _, path := range p.manifests {
		r.readManifest(path)
	}
	seenRepo := map[string]bool{}
	for _, path := range p.repos {
		r.eachEntry(path, func(i int, o object) {
			repo, errs := parseRepo(o)
			if errs == nil && seenRepo[repo.Repo] {
				errs = append(errs, fmt.Sprintf("repo: %s is listed twice; the first entry is kept", strconv.Quote(repo.Repo)))
			}
			if errs != nil {
				r.problem(entryError(path, i, errors.New(strings.Join(errs, "; "))))
				return
			}
			seenRepo[repo.Repo] = true
			r.extras.Repos = append(r.extras.Repos, repo)
		})
	}
	seenTag := map[string]bool{}
	for _, path := range p.tags {
		r.eachEntry(path, func(i int, o object) {
			tag, errs := parseTag(o)
			if errs == nil && seenTag[tag.Tag] {
				errs = append(errs, fmt.Sprintf("tag: %s is listed twice; the first entry is kept", strconv.Quote(tag.Tag)))
			}
			if errs != nil {
				r.problem(entryError(path, i, errors.New(strings.Join(errs, "; "))))
				return
			}
			seenTag[tag.Tag] = true
			r.extras.Tags = append(r.extras.Tags, tag)
		})
	}
	slugs := map[string]bool{}
	clusters := map[string]bool{}
	for _, path := range p.infos {
		in, err := r.readInfo(path)
		if err == nil && slugs[in.Slug] {
			err = fmt.Errorf("slug: %s is used by another article; the first is kept", strconv.Quote(in.Slug))
		}
		if err == nil && clusters[in.ClusterKey] {
			err = fmt.Errorf("clusterKey: %s is used by another article; the first is kept", strconv.Quote(in.ClusterKey))
		}
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				err = wholeFile(path, err)
			}
			r.problem(err)
			continue
		}
		slugs[in.Slug], clusters[in.ClusterKey] = true, true
		r.extras.Infos = append(r.extras.Infos, in)
	}
	sort.SliceStable(r.extras.Infos, func(i, j int) bool { return r.extras.Infos[i].Slug < r.extras.Infos[j].Slug })
	for _, path := range p.infoIndexes {
		r.eachEntry(path, func(i int, o object) {
			slug, err := o.str("slug")
			if err == nil && !slugs[slug] {
				err = fmt.Errorf("lists article %s, which is missing or was left out", strconv.Quote(slug))
			}
			if err != nil {
				r.problem(entryError(path, i, err))
			}
		})
	}
}

// object is one decoded JSON object, its member values still raw.
type object map[string]jsontext.Value

var lenientDecode = []json.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}

func decodeObject(v jsontext.Value) (object, error) {
	if v.Kind() != '{' {
		return nil, fmt.Errorf("must be a JSON object, not %s", validate.KindName(byte(v.Kind())))
	}
	var o object
	if err := json.Unmarshal(v, &o, lenientDecode...); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return o, nil
}

// eachEntry calls fn for every object of the JSON array in the file at path,
// reporting entries that are not objects.
func (r *reader) eachEntry(path string, fn func(int, object)) {
	data, err := r.load(path)
	if err != nil {
		r.problem(err)
		return
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), lenient...)
	if k := dec.PeekKind(); k != '[' {
		if k == 0 {
			_, err := dec.ReadToken()
			r.problem(syntaxError(path, data, err))
		} else {
			r.problem(wholeFile(path, fmt.Errorf("must be a JSON array, not %s", validate.KindName(byte(k)))))
		}
		return
	}
	// Check the whole file first: entries before a syntax fault would be
	// half a list, which pages would show as if it were whole.
	var vals []jsontext.Value
	dec.ReadToken()
	for dec.PeekKind() != ']' {
		v, err := dec.ReadValue()
		if err != nil {
			r.problem(syntaxError(path, data, err))
			return
		}
		vals = append(vals, v)
	}
	if _, err := dec.ReadToken(); err != nil {
		r.problem(syntaxError(path, data, err))
		return
	}
	if err := expectEOF(dec); err != nil {
		r.problem(syntaxError(path, data, err))
		return
	}
	for i, v := range vals {
		o, err := decodeObject(v)
		if err != nil {
			r.problem(entryError(path, i, err))
			continue
		}
		fn(i, o)
	}
}

// str returns member name as a string; "" when absent or null.
func (o object) str(name string) (string, error) {
	v, ok := o[name]
	if !ok || v.Kind() == 'n' {
		return "", nil
	}
	if v.Kind() != '"' {
		return "", fmt.Errorf("%s: must be a string, not %s", name, validate.KindName(byte(v.Kind())))
	}
	b, _ := jsontext.AppendUnquote(nil, v) // invalid UTF-8 comes back replaced; fine for side files
	return string(b), nil
}

// count returns member name as an integer ≥ min; def when absent or null.
func (o object) count(name string, min, def int) (int, error) {
	v, ok := o[name]
	if !ok || v.Kind() == 'n' {
		return def, nil
	}
	n, err := strconv.Atoi(string(v))
	if v.Kind() != '0' || err != nil || n < min {
		return def, fmt.Errorf("%s: must be an integer ≥ %d", name, min)
	}
	return n, nil
}

// strs returns member name as a list of strings; nil when absent or null.
func (o object) strs(name string) ([]string, error) {
	v, ok := o[name]
	if !ok || v.Kind() == 'n' {
		return nil, nil
	}
	var out []string
	if v.Kind() != '[' || json.Unmarshal(v, &out, lenientDecode...) != nil {
		return nil, fmt.Errorf("%s: must be an array of strings", name)
	}
	return out, nil
}

// collect gathers the errors of several member reads.
type collect []string

func (c *collect) add(err error) {
	if err != nil {
		*c = append(*c, err.Error())
	}
}

func parseRepo(o object) (record.Repo, []string) {
	var (
		rp   record.Repo
		errs collect
		err  error
	)
	rp.Repo, err = o.str("repo")
	errs.add(err)
	if err == nil && rp.Repo == "" {
		errs.add(errors.New("repo: required"))
	} else if err == nil {
		for _, rule := range validate.Repo(rp.Repo) {
			errs.add(errors.New("repo: " + rule))
		}
	}
	rp.Description, err = o.str("description")
	errs.add(err)
	rp.Language, err = o.str("language")
	errs.add(err)
	rp.Stars, err = o.count("stars", 0, 0)
	errs.add(err)
	rp.SourceFiles, err = o.count("sourceFiles", 0, -1)
	errs.add(err)
	rp.DefaultBranch, err = o.str("defaultBranch")
	errs.add(err)
	rp.AnalyzedSha, err = o.str("analyzedSha")
	errs.add(err)
	rp.AnalyzedAt, err = o.str("analyzedAt")
	errs.add(err)
	rp.ErrorCount, err = o.count("errorCount", 0, 0)
	errs.add(err)
	return rp, errs
}

func parseTag(o object) (Tag, []string) {
	var (
		t    Tag
		errs collect
		err  error
	)
	t.Tag, err = o.str("tag")
	errs.add(err)
	if err == nil && !validate.Tag(t.Tag) {
		errs.add(errors.New("tag: must be a lowercase kebab tag"))
	}
	t.ErrorCount, err = o.count("errorCount", 0, 0)
	errs.add(err)
	t.RepoCount, err = o.count("repoCount", 0, 0)
	errs.add(err)
	t.InfoSlug, err = o.str("infoSlug")
	errs.add(err)
	if err == nil && t.InfoSlug != "" && !validate.Slug(t.InfoSlug) {
		errs.add(errors.New("infoSlug: must be a lowercase kebab slug or null"))
	}
	return t, errs
}

// readInfo reads and checks one info article.
func (r *reader) readInfo(path string) (record.Info, error) {
	var in record.Info
	data, err := r.load(path)
	if err != nil {
		return in, err
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), lenient...)
	v, err := dec.ReadValue()
	if err == nil {
		err = expectEOF(dec)
	}
	if err != nil {
		return in, syntaxError(path, data, err)
	}
	o, err := decodeObject(v)
	if err != nil {
		return in, err
	}
	var errs collect
	if sv, err := o.count("schemaVersion", 0, 1); err != nil || sv != 1 {
		errs.add(errors.New("schemaVersion: must be 1"))
	}
	in.Slug, err = o.str("slug")
	errs.add(err)
	if err == nil && !validate.Slug(in.Slug) {
		errs.add(errors.New("slug: must be a lowercase kebab slug"))
	}
	in.ClusterKey, err = o.str("clusterKey")
	errs.add(err)
	if err == nil && !clusterKey(in.ClusterKey) {
		errs.add(errors.New("clusterKey: must be tag:<kebab tag>, code:<errorCode> or class:<errorClass>"))
	}
	in.Title, err = o.str("title")
	errs.add(err)
	if err == nil && in.Title == "" {
		errs.add(errors.New("title: must be non-empty"))
	}
	in.Summary, err = o.str("summary")
	errs.add(err)
	in.Background, err = o.str("background")
	errs.add(err)
	if v, ok := o["commonCauses"]; ok && v.Kind() != 'n' {
		if v.Kind() != '[' || json.Unmarshal(v, &in.CommonCauses, lenientDecode...) != nil {
			errs.add(errors.New("commonCauses: must be an array of {cause, detail} objects"))
		}
	}
	in.Fixes, err = o.strs("fixes")
	errs.add(err)
	in.GuideSlugs, err = o.strs("guideSlugs")
	errs.add(err)
	for i, s := range in.GuideSlugs {
		if !validate.Slug(s) {
			errs.add(fmt.Errorf("guideSlugs[%d]: must be a lowercase kebab slug", i))
		}
	}
	in.ErrorIDs, err = o.strs("errorIds")
	errs.add(err)
	if err == nil && (len(in.ErrorIDs) < 1 || len(in.ErrorIDs) > 50) {
		errs.add(fmt.Errorf("errorIds: must list 1 to 50 record ids, not %d", len(in.ErrorIDs)))
	}
	for i, id := range in.ErrorIDs {
		if !validate.ID(id) {
			errs.add(fmt.Errorf("errorIds[%d]: must be 16 lowercase hex characters", i))
		}
	}
	in.ErrorCount, err = o.count("errorCount", 0, 0)
	errs.add(err)
	in.RepoCount, err = o.count("repoCount", 0, 0)
	errs.add(err)
	in.GeneratedAt, err = o.str("generatedAt")
	errs.add(err)
	if len(errs) > 0 {
		return in, errors.New(strings.Join(errs, "; "))
	}
	return in, nil
}

// clusterKey checks the form tag:<backgroundTag>, code:<errorCode> or
// class:<errorClass>.
func clusterKey(k string) bool {
	kind, val, ok := strings.Cut(k, ":")
	if !ok {
		return false
	}
	switch kind {
	case "tag":
		return validate.Tag(val)
	case "code", "class":
		return val != ""
	}
	return false
}

// manifest is the part of an upstream manifest.json that is checked.
type manifest struct {
	SchemaVersion  int            `json:"schemaVersion"`
	DatasetVersion string         `json:"datasetVersion"`
	Files          jsontext.Value `json:"files"`
}

type manifestFile struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// readManifest takes the dataset version from a manifest and checks the
// files it lists against their recorded size and sha256.
func (r *reader) readManifest(path string) {
	data, err := r.load(path)
	if err != nil {
		r.problem(err)
		return
	}
	var m manifest
	if err := json.Unmarshal(data, &m, lenientDecode...); err != nil {
		var se *jsontext.SyntacticError
		if errors.As(err, &se) {
			r.problem(syntaxError(path, data, err))
		} else {
			r.problem(wholeFile(path, fmt.Errorf("not a manifest: %w", err)))
		}
		return
	}
	if m.SchemaVersion != 0 && m.SchemaVersion != record.SchemaVersion {
		r.problem(wholeFile(path, fmt.Errorf("schemaVersion is %d; this generator reads %d", m.SchemaVersion, record.SchemaVersion)))
	}
	if m.DatasetVersion != "" {
		r.version(m.DatasetVersion)
	}
	// Upstream writes files as a map of name to entry; a list is accepted too.
	var files []manifestFile
	switch m.Files.Kind() {
	case '{':
		var byName map[string]manifestFile
		err = json.Unmarshal(m.Files, &byName, lenientDecode...)
		names := make([]string, 0, len(byName))
		for n := range byName {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			files = append(files, byName[n])
		}
	case '[':
		err = json.Unmarshal(m.Files, &files, lenientDecode...)
	}
	if err != nil {
		r.problem(wholeFile(path, fmt.Errorf("files: %w", err)))
		return
	}
	// The files are hashed on every worker; problems are reported in the
	// manifest's order.
	root := filepath.Dir(path)
	rootReal, rerr := realPath(root)
	if rerr != nil {
		r.problem(wholeFile(path, unwrapPathError(rerr)))
		return
	}
	ids := make([]FileID, len(files))
	errs := make([]error, len(files))
	hashed := make([]bool, len(files))
	sums, _ := r.opts.Cache.(SumCache)
	reals := &realPaths{dirs: map[string]resolved{}}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < r.opts.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1)) - 1; k < len(files); k = int(next.Add(1)) - 1 {
				ids[k], hashed[k], errs[k] = r.verify(root, rootReal, reals, files[k], sums)
			}
		}()
	}
	wg.Wait()
	for k := range files {
		if hashed[k] {
			r.extras.Hashed++
		}
		if errs[k] != nil {
			r.problem(wholeFile(path, errs[k]))
		} else if ids[k].Verified {
			r.verified[ids[k].Path] = ids[k]
		}
	}
}

// verify checks one listed file. Upstream lists paths as served from the
// site ("/data/repos.json"), so leading segments are dropped until the rest
// names a file in the export folder.
//
// It returns the file's identity, with its sha256 (Verified) when the
// manifest gives one and the file matched it.
//
// With a SumCache, a file whose identity the cache knows with the sha256
// the manifest gives is not read again.
//
// A listed file that is, or lies under, a symbolic link leading out of the
// export (rootReal: root with every link resolved) is not read, hashed
// nor described: its size and sha256 would tell what lies outside. reals
// resolves the links of the listed files' paths.
func (r *reader) verify(root, rootReal string, reals *realPaths, mf manifestFile, sums SumCache) (id FileID, hashed bool, err error) {
	rel := strings.TrimLeft(filepath.ToSlash(mf.Path), "/")
	var file string
	for rel != "" {
		if filepath.IsLocal(rel) {
			p := filepath.Join(root, filepath.FromSlash(rel))
			stated := time.Now()
			r.stats.Add(1)
			if fi, real, err := reals.stat(p); err == nil && fi.Mode().IsRegular() {
				if !within(rootReal, real) {
					return FileID{}, false, fmt.Errorf("lists %s, a symbolic link that leads out of the export; not read", strconv.Quote(mf.Path))
				}
				file = p
				if id, ok := fileID(p, fi, stated); ok && sums != nil && id.Size == mf.Bytes && mf.SHA256 != "" {
					if sum, ok := sums.Sum(id); ok && strings.EqualFold(hex.EncodeToString(sum[:]), mf.SHA256) {
						id.SHA256, id.Verified = sum, true
						return id, false, nil
					}
				}
				break
			}
		}
		_, rest, ok := strings.Cut(rel, "/")
		if !ok {
			break
		}
		rel = rest
	}
	if file == "" {
		return FileID{}, hashed, fmt.Errorf("lists %s, which is not in the export", strconv.Quote(mf.Path))
	}
	stated := time.Now()
	f, err := os.Open(file)
	if err != nil {
		return FileID{}, hashed, fmt.Errorf("%s: %w", file, unwrapPathError(err))
	}
	defer f.Close()
	// The identity is taken before the bytes are hashed: a file changed
	// while it is hashed has another identity by the time it is read.
	r.stats.Add(1)
	fi, err := f.Stat()
	if err != nil {
		return FileID{}, hashed, fmt.Errorf("%s: %w", file, unwrapPathError(err))
	}
	id, idOK := fileID(file, fi, stated)
	h := sha256.New()
	hashed = true
	n, err := io.Copy(h, f)
	r.bytesRead.Add(n)
	if err != nil {
		return FileID{}, hashed, fmt.Errorf("%s: %w", file, unwrapPathError(err))
	}
	if n != mf.Bytes {
		return FileID{}, hashed, fmt.Errorf("%s is %d bytes; the manifest says %d", file, n, mf.Bytes)
	}
	sum := h.Sum(nil)
	if hx := hex.EncodeToString(sum); mf.SHA256 != "" && !strings.EqualFold(hx, mf.SHA256) {
		return FileID{}, hashed, fmt.Errorf("%s has sha256 %s; the manifest says %s", file, hx, mf.SHA256)
	}
	if idOK && mf.SHA256 != "" && n == id.Size {
		copy(id.SHA256[:], sum)
		id.Verified = true
		if sums != nil {
			sums.Hashed(id)
		}
	}
	return id, hashed, nil
}
