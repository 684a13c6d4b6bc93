// Package write publishes a built site. A build writes every file into a
// fresh folder beside the output and swaps it into place at the end, so a
// failed or killed build leaves the previous site whole. A file whose bytes
// are already in the previous site is hard-linked from there instead of
// written, which keeps its timestamp: a sync to a host uploads nothing for
// it.
package write

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Marker names the file that marks a folder as a site errdocs wrote, so it
// may be replaced. errdocs never replaces a folder without it unless the
// folder is empty.
const Marker = ".errdocs-site"

// Stats counts what a build did to the files of the output.
type Stats struct {
	Written   int64 // new or changed files
	Unchanged int64 // files kept from the previous site
	Bytes     int64 // bytes of all files
}

// Site is an output folder being built.
type Site struct {
	out, tmp string
	mu       sync.Mutex
	files    map[string]bool
	dirs     sync.Map // folders already made in tmp
	written  atomic.Int64
	kept     atomic.Int64
	bytes    atomic.Int64
	done     bool
}

// Begin starts a build of the output folder out.
func Begin(out string) (*Site, error) {
	out = filepath.Clean(out)
	if err := checkReplaceable(out); err != nil {
		return nil, err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("output folder: %w", err)
	}
	removeStale(out)
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("output folder: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &Site{out: out, tmp: tmp, files: map[string]bool{}}, nil
}

// checkReplaceable refuses to replace a folder errdocs did not make.
func checkReplaceable(out string) error {
	fi, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("output %s exists and is not a folder", out)
	}
	if _, err := os.Stat(filepath.Join(out, Marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("output folder %s is not empty and was not made by errdocs (no %s file); remove it or choose another --out", out, Marker)
	}
	return nil
}

// removeStale deletes folders that killed builds left beside out.
func removeStale(out string) {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".tmp-*"))
	old, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".old-*"))
	for _, m := range append(matches, old...) {
		os.RemoveAll(m)
	}
}

// CheckPath reports whether rel is a safe file path inside the site: local,
// slash-separated, clean, and not the marker.
func CheckPath(rel string) error {
	if rel == "" || !filepath.IsLocal(rel) || strings.ContainsAny(rel, "\\\x00") ||
		filepath.ToSlash(filepath.Clean(rel)) != rel || strings.HasSuffix(rel, "/") {
		return fmt.Errorf("refusing to write %q: not a clean path inside the output folder", rel)
	}
	if rel == Marker {
		return fmt.Errorf("refusing to write %q: reserved", rel)
	}
	return nil
}

// WriteFile writes data at rel (slash-separated, relative to the site root).
// It is safe for concurrent use. Writing the same path twice is an error:
// two pages that want one file would otherwise overwrite each other.
func (s *Site) WriteFile(rel string, data []byte) error {
	if err := CheckPath(rel); err != nil {
		return err
	}
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return errors.New("write: site already committed or aborted")
	}
	if s.files[rel] {
		s.mu.Unlock()
		return fmt.Errorf("two outputs want the same file %s", rel)
	}
	s.files[rel] = true
	s.mu.Unlock()

	dst := filepath.Join(s.tmp, filepath.FromSlash(rel))
	if err := s.mkdirs(filepath.Dir(dst)); err != nil {
		return err
	}
	s.bytes.Add(int64(len(data)))
	old := filepath.Join(s.out, filepath.FromSlash(rel))
	if same(old, data) {
		if err := os.Link(old, dst); err == nil {
			s.kept.Add(1)
			return nil
		}
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	s.written.Add(1)
	return nil
}

// same reports whether the file at path holds exactly data. A symlink never
// counts, so a link planted in the old site is not followed.
func same(path string, data []byte) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(data)) {
		return false
	}
	old, err := os.ReadFile(path)
	return err == nil && bytes.Equal(old, data)
}

func (s *Site) mkdirs(dir string) error {
	if _, ok := s.dirs.Load(dir); ok {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	s.dirs.Store(dir, true)
	return nil
}

// Has reports whether rel was written in this build.
func (s *Site) Has(rel string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.files[rel]
}

// Stats returns the counts so far.
func (s *Site) Stats() Stats {
	return Stats{Written: s.written.Load(), Unchanged: s.kept.Load(), Bytes: s.bytes.Load()}
}

// Commit swaps the new site into place. On Linux the swap is one atomic
// rename (RENAME_EXCHANGE); elsewhere the old folder is moved aside first.
func (s *Site) Commit() error {
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return errors.New("write: site already committed or aborted")
	}
	s.done = true
	s.mu.Unlock()
	if err := os.WriteFile(filepath.Join(s.tmp, Marker), []byte("This folder was written by errdocs; a build replaces it whole.\n"), 0o644); err != nil {
		os.RemoveAll(s.tmp)
		return err
	}
	if _, err := os.Lstat(s.out); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(s.tmp, s.out); err != nil {
			os.RemoveAll(s.tmp)
			return fmt.Errorf("publish: %w", err)
		}
		return nil
	}
	if err := unix.Renameat2(unix.AT_FDCWD, s.tmp, unix.AT_FDCWD, s.out, unix.RENAME_EXCHANGE); err == nil {
		// s.tmp now holds the previous site.
		return os.RemoveAll(s.tmp)
	}
	old := s.tmp[:strings.LastIndex(s.tmp, ".tmp-")] + ".old-" + filepath.Base(s.tmp)[strings.LastIndex(filepath.Base(s.tmp), "-")+1:]
	if err := os.Rename(s.out, old); err != nil {
		os.RemoveAll(s.tmp)
		return fmt.Errorf("publish: %w", err)
	}
	if err := os.Rename(s.tmp, s.out); err != nil {
		os.Rename(old, s.out)
		os.RemoveAll(s.tmp)
		return fmt.Errorf("publish: %w", err)
	}
	return os.RemoveAll(old)
}

// Abort throws the new site away and leaves the previous one as it was.
func (s *Site) Abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	os.RemoveAll(s.tmp)
}
