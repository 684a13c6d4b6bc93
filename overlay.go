package errdocs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Assets returns the templates and static assets, with the templates read
// from dir when dir is not empty. A template missing from dir falls back to
// the built-in one, so a user overrides only the pages they change, as with
// Hugo's layouts.
func Assets(dir string) (templates, static fs.FS, err error) {
	if dir == "" {
		return Templates, Static, nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--templates: %w", err)
	}
	if !fi.IsDir() {
		return nil, nil, fmt.Errorf("--templates: %s is not a folder", dir)
	}
	return overlay{top: os.DirFS(dir), base: Templates}, Static, nil
}

// overlay reads a file from top, or from base when top does not have it.
type overlay struct{ top, base fs.FS }

func (o overlay) Open(name string) (fs.File, error) {
	f, err := o.top.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return o.base.Open(name)
	}
	return f, err
}

// ReadDir lists the union of both folders, so templates are found by
// globbing either.
func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, f := range []fs.FS{o.top, o.base} {
		entries, err := fs.ReadDir(f, name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			if !seen[e.Name()] {
				seen[e.Name()] = true
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if len(out) == 0 {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return out, nil
}
