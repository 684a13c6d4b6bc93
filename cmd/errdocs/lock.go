package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/errdocs/errdocs/generator/pipeline"
	"github.com/errdocs/errdocs/generator/publish"
	"github.com/errdocs/errdocs/generator/read"
)

// lockSite takes the locks of the folders a build of c writes: the output
// and the cache. A second errdocs writing either at the same time fails at
// once, naming the one that holds it, rather than publish a mix of two
// builds or leave the cache describing the other's dataset. Both are taken
// without waiting, so two processes locking in different orders cannot
// wait on each other for ever. release lets both go.
//
// The cache is checked first (checkCache): a cache that is the output, an
// input or another folder is refused before anything is written.
func lockSite(c pipeline.Config, what string) (release func(), err error) {
	if err := read.CheckPaths(c.WithDefaults().Paths); err != nil {
		return nil, fmt.Errorf("%w; the previous site is untouched", err)
	}
	if err := checkCache(c); err != nil {
		return nil, err
	}
	c = c.WithDefaults()
	var held []*publish.Lock
	release = func() {
		for _, l := range held {
			l.Release()
		}
	}
	for _, dir := range []string{c.Out, c.CacheDir} {
		if len(held) > 0 && samePath(dir, c.Out) {
			continue
		}
		l, err := publish.TryLock(dir, what)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, l)
	}
	return release, nil
}

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// describe names this process's command for a lock's holder line.
func describe(cmd string, c pipeline.Config) string {
	return fmt.Sprintf("errdocs %s into %s", cmd, c.Out)
}

// cacheNames are the folders errdocs makes in a cache; cacheMarker marks a
// cache errdocs made (written on first use; a cache made before it has
// only the folders).
var cacheNames = map[string]bool{"assets": true, "highlight": true, "index": true, "model": true, "nochange": true, "pages": true, "read": true}

const cacheMarker = ".errdocs-cache"

// checkCache refuses a cache folder that would cost the user files: the
// output (each build would find the site not its own), an input (the next
// build would read the cache's files as records), or a folder holding
// files errdocs did not make (a build may delete them). A cache inside an
// input is fine when hidden (the walker skips hidden folders), as the
// default .errdocs-cache beside a site in the input folder is.
func checkCache(c pipeline.Config) error {
	c = c.WithDefaults()
	cache, err := filepath.Abs(c.CacheDir)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(c.Out)
	if err != nil {
		return err
	}
	if cache == out || inside(out, cache) || inside(cache, out) {
		return errUsage{fmt.Sprintf("--cache %s is the output folder or overlaps it; choose a folder of its own", c.CacheDir)}
	}
	for _, p := range c.Paths {
		in, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if cache == in || inside(cache, in) || (inside(in, cache) && !hiddenBelow(in, cache)) {
			return errUsage{fmt.Sprintf("--cache %s is the input %s or overlaps it (its files would be read as records); choose a folder of its own", c.CacheDir, p)}
		}
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		return nil // made by the build
	}
	ours := true
	for _, e := range entries {
		if e.Name() == cacheMarker {
			ours = true
			break
		}
		if !cacheNames[e.Name()] || !e.IsDir() {
			ours = false
		}
	}
	if !ours {
		return errUsage{fmt.Sprintf("--cache %s holds files errdocs did not make; choose an empty or new folder", c.CacheDir)}
	}
	return os.WriteFile(filepath.Join(cache, cacheMarker), []byte("This folder is an errdocs cache; delete it any time.\n"), 0o644)
}

// inside reports whether p lies strictly under dir (both absolute, clean).
func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// hiddenBelow reports whether a folder on the way from dir down to p (p
// included) is hidden, so that a walk of dir never reaches p.
func hiddenBelow(dir, p string) bool {
	rel, _ := filepath.Rel(dir, p)
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// checkArchive refuses an archive path that is one of the inputs: the
// bundle would overwrite the records it was made from.
func checkArchive(archive string, paths []string) error {
	a, err := filepath.Abs(archive)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		a = r
	}
	for _, p := range paths {
		in, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if r, err := filepath.EvalSymlinks(in); err == nil {
			in = r
		}
		if a == in || inside(a, in) {
			return errUsage{fmt.Sprintf("--out %s is the input %s; the bundle would overwrite it", archive, p)}
		}
	}
	return nil
}
