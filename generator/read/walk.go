package read

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// plan lists the files to read, by role.
type plan struct {
	records     []string
	recordFrom  [][]int  // for each record file, the paths given (by index) it was found under
	repos       []string // repos.json
	tags        []string // tags.json
	manifests   []string // manifest.json
	infos       []string // info/<slug>.json
	infoIndexes []string // info/index.json
}

// candidate is a file found, under the name it was found by and its real
// path, which tells when two names (a symlink, "a/b" and "./a/b") are one file.
type candidate struct {
	name, real string
	from       int // the index of the path given that it was found under
}

type finder struct {
	r                                                  *reader
	from                                               int // the path being expanded
	records, repos, tags, manifests, infos, infoIndexs []candidate
}

// discover expands paths into the files to read. Each list is sorted by
// name and rid of files met twice, so that the order of the paths given does
// not change the output.
func (r *reader) discover(paths []string) plan {
	f := &finder{r: r}
	for k, p := range paths {
		f.from = k
		fi, err := os.Stat(p)
		if err != nil {
			r.problem(wholeFile(p, unwrapPathError(err)))
			continue
		}
		if fi.IsDir() {
			f.walk(p)
			continue
		}
		if !fi.Mode().IsRegular() {
			r.problem(wholeFile(p, notRegular(fi.Mode())))
			continue
		}
		real, err := realPath(p)
		if err != nil {
			r.problem(wholeFile(p, unwrapPathError(err)))
			continue
		}
		c := candidate{p, real, k}
		// A file named explicitly is read whatever its extension; the
		// export's side files keep their role when named alone.
		switch trimGz(filepath.Base(p)) {
		case "repos.json":
			f.repos = append(f.repos, c)
		case "tags.json":
			f.tags = append(f.tags, c)
		case "manifest.json":
			f.manifests = append(f.manifests, c)
		default:
			f.records = append(f.records, c)
		}
	}
	records, from := uniqueFrom(f.records)
	return plan{
		records:     records,
		recordFrom:  from,
		repos:       unique(f.repos),
		tags:        unique(f.tags),
		manifests:   unique(f.manifests),
		infos:       unique(f.infos),
		infoIndexes: unique(f.infoIndexs),
	}
}

func unique(cs []candidate) []string {
	names, _ := uniqueFrom(cs)
	return names
}

// uniqueFrom is unique with, for each file kept, every path given that
// led to it: a path whose files were all met first under another path
// still yielded them.
func uniqueFrom(cs []candidate) ([]string, [][]int) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	seen := make(map[string]int, len(cs))
	out := make([]string, 0, len(cs))
	var from [][]int
	for _, c := range cs {
		if k, ok := seen[c.real]; ok {
			from[k] = append(from[k], c.from)
			continue
		}
		seen[c.real] = len(out)
		out = append(out, c.name)
		from = append(from, []int{c.from})
	}
	return out, from
}

func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// realPaths resolves the links of files' paths, each folder's once: the
// files a manifest lists lie in a few folders, and realPath looks at
// every element of a path (half a dozen lstat calls a file, on every
// build).
type realPaths struct {
	mu   sync.Mutex
	dirs map[string]resolved // by folder
}

type resolved struct {
	real string
	err  error
}

// stat returns what os.Stat returns of p, and p's realPath.
func (rp *realPaths) stat(p string) (os.FileInfo, string, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, "", err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = os.Stat(p); err != nil {
			return nil, "", err
		}
		real, err := realPath(p)
		return fi, real, err
	}
	dir := filepath.Dir(p)
	rp.mu.Lock()
	d, ok := rp.dirs[dir]
	rp.mu.Unlock()
	if !ok {
		d.real, d.err = realPath(dir)
		rp.mu.Lock()
		rp.dirs[dir] = d
		rp.mu.Unlock()
	}
	if d.err != nil {
		return nil, "", d.err
	}
	return fi, filepath.Join(d.real, filepath.Base(p)), nil
}

// walk finds the files under root. Hidden files and folders are skipped (a
// .git folder is not data). A symbolic link is followed only to a file that
// lies inside root: a link out of the tree is reported and skipped, and a
// link to a folder is skipped, since what it points to inside the tree is
// walked where it lives (and following folder links can loop).
func (f *finder) walk(root string) {
	rootReal, err := realPath(root)
	if err != nil {
		f.r.problem(wholeFile(root, unwrapPathError(err)))
		return
	}
	var visit func(dir, dirReal string)
	visit = func(dir, dirReal string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			f.r.problem(wholeFile(dir, unwrapPathError(err)))
			return
		}
		export := isExport(entries)
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			path := filepath.Join(dir, name)
			real := filepath.Join(dirReal, name)
			switch t := e.Type(); {
			case t&fs.ModeSymlink != 0:
				// Resolved to an absolute path, as rootReal is, whether
				// root was given relative or absolute.
				target, err := realPath(path)
				if err != nil {
					f.r.problem(wholeFile(path, fmt.Errorf("broken symbolic link: %w", unwrapPathError(err))))
					continue
				}
				if !within(rootReal, target) {
					f.r.problem(wholeFile(path, errors.New("symbolic link leads out of the folder being read; skipped")))
					continue
				}
				ti, err := os.Stat(target)
				if err != nil || !ti.Mode().IsRegular() {
					continue
				}
				real = target
			case t.IsDir():
				if export {
					switch name {
					case "info":
						f.infoDir(path)
						continue
					case "search":
						continue // the upstream search shards: not records
					}
				}
				visit(path, real)
				continue
			case !t.IsRegular():
				continue
			}
			c := candidate{path, real, f.from}
			base := trimGz(name)
			if export {
				switch base {
				case "repos.json":
					f.repos = append(f.repos, c)
					continue
				case "tags.json":
					f.tags = append(f.tags, c)
					continue
				case "manifest.json":
					f.manifests = append(f.manifests, c)
					continue
				case "index.json":
					continue // the upstream compact search index: not records
				}
			}
			if isRecordName(base) {
				f.records = append(f.records, c)
			}
		}
	}
	visit(root, rootReal)
}

// infoDir lists an export's info articles.
func (f *finder) infoDir(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		f.r.problem(wholeFile(dir, unwrapPathError(err)))
		return
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !e.Type().IsRegular() || !strings.HasSuffix(trimGz(name), ".json") {
			continue
		}
		path := filepath.Join(dir, name)
		real, err := realPath(path)
		if err != nil {
			f.r.problem(wholeFile(path, unwrapPathError(err)))
			continue
		}
		if trimGz(name) == "index.json" {
			f.infoIndexs = append(f.infoIndexs, candidate{path, real, f.from})
		} else {
			f.infos = append(f.infos, candidate{path, real, f.from})
		}
	}
}

// isExport tells an export folder by its side files. Its info/ folder then
// holds articles, and its index.json and search/ (upstream's search data)
// are left alone; every other file is read for records as usual, so a
// sample folder with a repos.json beside loose record files works too.
func isExport(entries []fs.DirEntry) bool {
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		switch trimGz(e.Name()) {
		case "manifest.json", "repos.json", "tags.json":
			return true
		}
	}
	return false
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && filepath.IsLocal(rel)
}

func trimGz(name string) string { return strings.TrimSuffix(name, ".gz") }

func isRecordName(base string) bool {
	switch filepath.Ext(base) {
	case ".json", ".jsonl", ".ndjson":
		return true
	}
	return false
}

// isLines tells JSON Lines by the file name.
func isLines(path string) bool {
	switch filepath.Ext(trimGz(path)) {
	case ".jsonl", ".ndjson":
		return true
	}
	return false
}

// CheckPaths fails at once, before anything is read, for a path given that
// cannot be read at all: missing, or neither a folder nor a regular file
// (a FIFO would block, a device never ends). Read reports the same paths
// as problems; a caller that asks first need not wait for the rest.
func CheckPaths(paths []string) error {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return wholeFile(p, unwrapPathError(err))
		}
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			return wholeFile(p, notRegular(fi.Mode()))
		}
	}
	return nil
}
