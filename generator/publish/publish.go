// Package publish publishes a built site.
//
// A build hands every file of the new site to a Site. Files whose bytes are
// already in the previous site are left alone (their timestamps too, so a
// sync to a host uploads nothing for them); new and changed files are
// written into a staging folder beside the output. Nothing in the output
// changes until Commit, so a failed or killed build leaves the previous
// site whole.
//
// Commit then publishes in the cheapest way that keeps the site whole:
//   - no previous site: the staging folder is renamed into place;
//   - nothing changed: nothing is touched;
//   - a few files changed: each is renamed into place and removed files are
//     deleted, following a journal written first, so that a build killed in
//     that short step is completed by the next run (roll forward);
//   - many files changed: unchanged files are hard-linked into the staging
//     folder, which is then swapped with the output in one atomic rename.
//
// Touching only what changed matters at scale: creating, linking or
// deleting a file costs tens of times what checking that it is unchanged
// (one lstat) does, so a site of 100,000 pages cannot be re-linked in a
// few seconds, while it can be checked.
package publish

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// ErrGone is the error of a publication that was to keep a file of the
// previous site which is no longer there: the caller said it was (Known)
// without looking. Building again, looking at every file, mends it.
var ErrGone = errors.New("a file of the previous site was deleted by hand")

// Marker names the file that marks a folder as a site errdocs wrote, so it
// may be replaced. errdocs never replaces a folder without it unless the
// folder is empty.
const Marker = ".errdocs-site"

// FileList names the file, beside the marker, that lists the files of the
// site errdocs wrote (gzip, one slash-separated path a line). A later
// build that has no other list of them (its cache was deleted) reads it
// to tell the previous site's files from those a user put there (a CNAME,
// an .htaccess), which every publication keeps.
const FileList = ".errdocs-files.gz"

// Stats counts what a build did to the files of the output.
type Stats struct {
	Written   int64 // new or changed files
	Unchanged int64 // files kept from the previous site
	Removed   int64 // files of the previous site that are gone
	Bytes     int64 // bytes of all files
	Mode      string
}

// Fingerprint identifies one file on disk: a file whose fingerprint is
// unchanged since errdocs wrote it still holds the bytes it wrote (its
// inode, size and modification time would change with any rewrite).
type Fingerprint struct {
	Size    int64
	ModTime int64 // nanoseconds
	Ino     uint64
}

func fingerprintOf(fi fs.FileInfo) Fingerprint {
	fp := Fingerprint{Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		fp.Ino = st.Ino
	}
	return fp
}

// Site is an output folder being built.
type Site struct {
	out, stage string
	hadOld     bool
	prevMarker Fingerprint

	mu     sync.Mutex
	staged map[string]bool // files written into the stage (new or changed)
	// prints has every file of the new site: its fingerprint, or the zero
	// Fingerprint while it is being written (claimed). One table, not two:
	// a rebuild claims and keeps every page of the site.
	prints map[string]Fingerprint
	// block holds the previous site's files kept in one call (KeepSorted)
	// rather than in prints: a rebuild keeps most of the site so, and a
	// table keyed by path of half a million files cost more to fill, and
	// to sort again for the file list, than the rest of the publication.
	block sortedFiles
	// sizedAt is the size prints was last made at (Expect).
	sizedAt int
	known   func(rel string) (Fingerprint, bool) // of the previous site's files (Known)
	dirs    sync.Map                             // folders already made in the stage
	written atomic.Int64
	kept    atomic.Int64
	bytes   atomic.Int64
	removed int64
	mode    string
	done    bool
}

// Begin starts a build of the output folder out. It first completes a
// publication that a killed build left half done.
func Begin(out string) (*Site, error) {
	out = filepath.Clean(out)
	if err := checkReplaceable(out); err != nil {
		return nil, err
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("output folder: %w", err)
	}
	if err := RollForward(out); err != nil {
		return nil, err
	}
	removeStale(out)
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("output folder: %w", err)
	}
	if err := os.Chmod(stage, 0o755); err != nil {
		os.RemoveAll(stage)
		return nil, err
	}
	mfi, err := os.Lstat(filepath.Join(out, Marker))
	var prevMarker Fingerprint
	if err == nil {
		prevMarker = fingerprintOf(mfi)
	}
	return &Site{
		out: out, stage: stage, hadOld: err == nil, prevMarker: prevMarker,
		staged: map[string]bool{}, prints: map[string]Fingerprint{},
	}, nil
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
	for _, pat := range []string{".tmp-*", ".old-*"} {
		matches, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+pat))
		for _, m := range matches {
			os.RemoveAll(m)
		}
	}
}

// CheckPath reports whether rel is a safe file path inside the site: local,
// slash-separated, clean, and not the marker.
func CheckPath(rel string) error {
	if plainPath(rel) && rel != Marker && rel != FileList {
		return nil
	}
	return checkPath(rel)
}

// checkPath is CheckPath by its general rules.
func checkPath(rel string) error {
	if rel == "" || !filepath.IsLocal(rel) || strings.ContainsAny(rel, "\\\x00\n\r") ||
		filepath.ToSlash(filepath.Clean(rel)) != rel || strings.HasSuffix(rel, "/") {
		return fmt.Errorf("refusing to write %q: not a clean path inside the output folder", rel)
	}
	if rel == Marker || rel == FileList {
		return fmt.Errorf("refusing to write %q: reserved", rel)
	}
	return nil
}

// plainPath reports whether rel is segments of ASCII letters, digits,
// '-', '_' and '.' between single slashes, none of them "." or "..": such
// a path is local and clean as it stands, as CheckPath's general rules
// would find at more cost (a rebuild checks every page's path).
func plainPath(rel string) bool {
	seg := 0 // bytes of the segment so far
	dots := 0
	for k := 0; k < len(rel); k++ {
		switch plainByte[rel[k]] {
		case plainOther:
			seg++
		case plainDot:
			seg++
			dots++
		case plainSlash:
			if seg == 0 || seg == dots && dots <= 2 {
				return false
			}
			seg, dots = 0, 0
		default:
			return false
		}
	}
	return seg > 0 && !(seg == dots && dots <= 2)
}

// What plainPath makes of each byte: a table, not a switch of ranges, as
// it looks at every byte of half a million paths.
const (
	plainNo = iota
	plainOther
	plainDot
	plainSlash
)

var plainByte = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c == '/':
			t[c] = plainSlash
		case c == '.':
			t[c] = plainDot
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
			t[c] = plainOther
		}
	}
	return t
}()

// WriteFile adds the file rel (slash-separated, relative to the site root)
// with the given bytes. It is safe for concurrent use. Writing the same
// path twice is an error: two pages that want one file would otherwise
// overwrite each other.
func (s *Site) WriteFile(rel string, data []byte) error {
	if err := s.claim(rel); err != nil {
		return err
	}
	s.bytes.Add(int64(len(data)))
	// Without a previous site (the output is absent or empty) there is
	// no file to compare with.
	if s.hadOld {
		if fi, ok := same(filepath.Join(s.out, filepath.FromSlash(rel)), data); ok {
			s.keep(rel, fingerprintOf(fi))
			return nil
		}
	}
	dst := filepath.Join(s.stage, filepath.FromSlash(rel))
	if err := s.mkdirs(filepath.Dir(dst)); err != nil {
		return err
	}
	fp, err := create(dst, data)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	s.written.Add(1)
	s.mu.Lock()
	s.staged[rel] = true
	s.prints[rel] = fp
	s.mu.Unlock()
	return nil
}

// create writes data into the new file path (as os.WriteFile does, mode
// 0644 before the umask) and returns its fingerprint, in the four system
// calls a page needs: open, write, fstat, close. os.WriteFile and an
// os.Lstat would add a lookup of the path and, for an *os.File, an
// attempt to register a regular file with the poller (fcntl, epoll_ctl):
// a cold build writes a file per record.
func create(path string, data []byte) (Fingerprint, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644)
		return err
	})
	if err != nil {
		return Fingerprint{}, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	fp, err := writeAll(fd, data)
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return Fingerprint{}, &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return fp, nil
}

// writeAll writes data to the open file fd and returns its fingerprint.
func writeAll(fd int, data []byte) (Fingerprint, error) {
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return Fingerprint{}, err
		}
		if n == 0 {
			return Fingerprint{}, io.ErrShortWrite
		}
		data = data[n:]
	}
	var st unix.Stat_t
	if err := retryEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return Fingerprint{}, err
	}
	return Fingerprint{Size: st.Size, ModTime: st.Mtim.Nano(), Ino: st.Ino}, nil
}

// retryEINTR calls f again while it fails with EINTR (a signal), as the os
// package does.
func retryEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// sortedFiles are files with their fingerprints, sorted by path and
// distinct.
type sortedFiles struct {
	rels   []string
	prints []Fingerprint
}

// find returns the fingerprint of rel, if f has it.
func (f *sortedFiles) find(rel string) (Fingerprint, bool) {
	if len(f.rels) == 0 {
		return Fingerprint{}, false
	}
	k, ok := slices.BinarySearch(f.rels, rel)
	if !ok {
		return Fingerprint{}, false
	}
	return f.prints[k], true
}

// lookup returns the fingerprint of the new site's file rel (the zero
// Fingerprint while it is claimed only), and whether the site has it.
// s.mu is held.
func (s *Site) lookup(rel string) (Fingerprint, bool) {
	if fp, ok := s.prints[rel]; ok {
		return fp, true
	}
	return s.block.find(rel)
}

// count is how many files the new site has. s.mu is held.
func (s *Site) count() int { return len(s.prints) + len(s.block.rels) }

// claim checks rel and reserves it.
func (s *Site) claim(rel string) error {
	if err := CheckPath(rel); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return errors.New("write: site already committed or aborted")
	}
	if _, ok := s.lookup(rel); ok {
		return fmt.Errorf("two outputs want the same file %s", rel)
	}
	s.prints[rel] = Fingerprint{}
	return nil
}

func (s *Site) keep(rel string, fp Fingerprint) {
	s.kept.Add(1)
	s.mu.Lock()
	s.prints[rel] = fp
	s.mu.Unlock()
}

// Reuse keeps the previous site's file at rel, without reading it, when its
// fingerprint is still want: the caller knows from its own records that the
// file it would write now is the one written then. It reports whether the
// file was kept; when not, the caller writes the file as usual.
func (s *Site) Reuse(rel string, want Fingerprint) bool {
	// The path is checked by Unchanged.
	return s.Unchanged(rel, want) && s.claimKept(rel, want)
}

// Keep is Reuse for a file the caller knows to be as it was written,
// with fingerprint fp, without asking whether it still is (what the
// site was told by Known or KnownBy is taken from the same source): a
// rebuild trusts its own notes of the previous site, as Reuse does with
// what KnownBy gives, for files it has not handed the site.
func (s *Site) Keep(rel string, fp Fingerprint) bool {
	return CheckPath(rel) == nil && s.claimKept(rel, fp)
}

// claimKept claims the checked path rel for the previous site's file,
// kept with fingerprint fp, unless the site is done or the path taken.
// One lock claims the path and keeps the file: a rebuild calls this for
// every page.
func (s *Site) claimKept(rel string, fp Fingerprint) bool {
	s.mu.Lock()
	if _, ok := s.lookup(rel); s.done || ok {
		s.mu.Unlock()
		return false
	}
	s.prints[rel] = fp
	s.mu.Unlock()
	s.kept.Add(1)
	s.bytes.Add(fp.Size)
	return true
}

// KeepSorted is Keep for many files at once: the previous site's files
// at rels, sorted and distinct, kept with prints (one each). It keeps all
// of them or none, and reports which: none when a path is not a clean
// path inside the site, the paths are not sorted and distinct, one of
// them is the site's already, the site is done, or a block of files was
// kept so before. The site holds rels and prints as they are: the caller
// must not change them. Files kept so cost the publication no table entry
// each, and are listed in FileList without sorting them again.
func (s *Site) KeepSorted(rels []string, prints []Fingerprint) bool {
	if len(rels) != len(prints) || len(rels) == 0 {
		return false
	}
	if !sortedPaths(rels) {
		return false
	}
	var size int64
	for k := range prints {
		size += prints[k].Size
	}
	block := sortedFiles{rels, prints}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done || len(s.block.rels) > 0 {
		return false
	}
	for rel := range s.prints {
		if _, ok := block.find(rel); ok {
			return false
		}
	}
	s.block = block
	s.kept.Add(int64(len(rels)))
	s.bytes.Add(size)
	return true
}

// sortedPaths reports whether rels are paths CheckPath accepts, in
// strictly increasing order. It looks at them on every core: a rebuild
// keeps every record page in one block, and this check is on its path.
func sortedPaths(rels []string) bool {
	parts := max(1, min(runtime.GOMAXPROCS(0), len(rels)/minPathsPart))
	ok := make([]bool, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*len(rels)/parts, (p+1)*len(rels)/parts
		wg.Go(func() {
			for k := lo; k < hi; k++ {
				if CheckPath(rels[k]) != nil || k > 0 && rels[k-1] >= rels[k] {
					return
				}
			}
			ok[p] = true
		})
	}
	wg.Wait()
	return !slices.Contains(ok, false)
}

// minPathsPart is the fewest paths sortedPaths gives a core.
const minPathsPart = 16 << 10

// ReuseAll keeps the previous site's files at rels (with fingerprints
// wants, one each) when every one of them is still as wanted; it keeps
// none otherwise, and reports whether it kept them. Each file is looked at
// once.
func (s *Site) ReuseAll(rels []string, wants []Fingerprint) bool {
	if len(rels) != len(wants) {
		return false
	}
	for k, rel := range rels {
		if !s.Unchanged(rel, wants[k]) {
			return false
		}
	}
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return false
	}
	for _, rel := range rels {
		if _, ok := s.lookup(rel); ok {
			s.mu.Unlock()
			return false
		}
	}
	var size int64
	for k, rel := range rels {
		s.prints[rel] = wants[k]
		size += wants[k].Size
	}
	s.mu.Unlock()
	s.kept.Add(int64(len(rels)))
	s.bytes.Add(size)
	return true
}

// Expect tells the site how many files it will hold, to size its tables
// once instead of growing them file by file.
func (s *Site) Expect(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The assets may be in already: a map grown file by file rehashes
	// its whole table at each doubling. Told the same twice, it is not
	// made again. The files kept as a block are not in the table.
	n -= len(s.block.rels)
	if n > len(s.prints) && n > s.sizedAt {
		s.sizedAt = n
		prints := make(map[string]Fingerprint, n)
		for rel, fp := range s.prints {
			prints[rel] = fp
		}
		s.prints = prints
	}
}

// Unchanged reports whether the previous site's file at rel still has the
// fingerprint want.
func (s *Site) Unchanged(rel string, want Fingerprint) bool {
	if CheckPath(rel) != nil {
		return false
	}
	if s.known != nil {
		if fp, ok := s.known(rel); ok {
			return fp == want
		}
	}
	fp, ok := look(s.out, rel)
	return ok && fp == want
}

// look returns the fingerprint of the regular file at rel in out.
func look(out, rel string) (Fingerprint, bool) {
	fi, err := os.Lstat(filepath.Join(out, filepath.FromSlash(rel)))
	if err != nil || !fi.Mode().IsRegular() {
		return Fingerprint{}, false
	}
	return fingerprintOf(fi), true
}

// Look returns the fingerprints of the files at rels in the output folder
// out as they are now, looked at on workers goroutines; a file missing, or
// not a regular file, gets the zero Fingerprint, which no file written has.
// A rebuild looks at the previous site's files beside other work (reading
// the records) and hands the result to Site.Known: on a rebuild that
// changes little, looking at every file is a good part of the time.
func Look(out string, rels []string, workers int) map[string]Fingerprint {
	out = filepath.Clean(out)
	prints := make([]Fingerprint, len(rels))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int(next.Add(1)) - 1; k < len(rels); k = int(next.Add(1)) - 1 {
				if CheckPath(rels[k]) == nil {
					prints[k], _ = look(out, rels[k])
				}
			}
		}()
	}
	wg.Wait()
	m := make(map[string]Fingerprint, len(rels))
	for k, rel := range rels {
		m[rel] = prints[k]
	}
	return m
}

// Known gives the site the fingerprints Look found in its output folder
// before Begin, so that Unchanged and Reuse need not look at those files
// again. Files not in prints are looked at as usual. It must be called
// before any of them.
func (s *Site) Known(prints map[string]Fingerprint) {
	s.KnownBy(func(rel string) (Fingerprint, bool) {
		fp, ok := prints[rel]
		return fp, ok
	})
}

// KnownBy is Known with a function that gives the fingerprints: a caller
// whose table of the previous files holds them (the page cache) need not
// copy them into a map of their own. known may be called from several
// goroutines at once.
func (s *Site) KnownBy(known func(rel string) (Fingerprint, bool)) { s.known = known }

// FingerprintsOf sets prints[k] to the fingerprint of the new site's file
// rels[k] as it stands now (and after Commit), and ok[k] to whether the
// site has that file; prints and ok are as long as rels. It may be called
// while other files are written.
func (s *Site) FingerprintsOf(rels []string, prints []Fingerprint, ok []bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, rel := range rels {
		prints[k], ok[k] = s.lookup(rel)
		ok[k] = ok[k] && prints[k] != Fingerprint{} // not claimed only
	}
}

// same reports whether the file at path holds exactly data, and returns its
// info. A symlink never counts, so a link planted in the old site is not
// followed.
func same(path string, data []byte) (fs.FileInfo, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(data)) {
		return nil, false
	}
	old, err := os.ReadFile(path)
	return fi, err == nil && bytes.Equal(old, data)
}

// mkdirs makes the folder dir of a file to write. It remembers the folders
// it made only once they hold more than one entry: most folders of a site
// are a record's, holding its one page, and remembering half a million of
// them took a hundred megabytes. A folder whose parent is known is made
// with one mkdir.
func (s *Site) mkdirs(dir string) error {
	if _, ok := s.dirs.Load(dir); ok {
		return nil
	}
	parent := filepath.Dir(dir)
	existed := false
	if _, ok := s.dirs.Load(parent); ok {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return nil
		}
		existed = errors.Is(err, fs.ErrExist)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	// The names are cut from a file's path: cloned, so that the path
	// itself is not kept.
	s.dirs.Store(strings.Clone(parent), true)
	if existed {
		s.dirs.Store(strings.Clone(dir), true)
	}
	return nil
}

// Has reports whether rel is a file of the new site.
func (s *Site) Has(rel string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.lookup(rel)
	return ok
}

// Stats returns the counts so far.
func (s *Site) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Written: s.written.Load(), Unchanged: s.kept.Load(), Removed: s.removed,
		Bytes: s.bytes.Load(), Mode: s.mode}
}

// Previous returns the fingerprint of the previous site's marker file. The
// marker is rewritten by every publication that changes the site, so a
// caller that saved the marker's fingerprint with its notes about the site
// can tell whether the site is still the one its notes describe.
func (s *Site) Previous() (Fingerprint, bool) { return s.prevMarker, s.hadOld }

// Current returns the fingerprint of the marker of the site in out as it
// is now, without starting a build: a caller that saved it after a build
// can tell, with one lstat, that no build changed the site since. It
// reports false when out has no marker, or when a publication left half
// done by a killed build waits to be completed (its journal exists).
func Current(out string) (Fingerprint, bool) {
	out = filepath.Clean(out)
	if _, err := os.Lstat(journalPath(out)); !errors.Is(err, fs.ErrNotExist) {
		return Fingerprint{}, false
	}
	fi, err := os.Lstat(filepath.Join(out, Marker))
	if err != nil || !fi.Mode().IsRegular() {
		return Fingerprint{}, false
	}
	return fingerprintOf(fi), true
}

// Marker returns the fingerprint of the marker of the published site.
func (s *Site) Marker() (Fingerprint, error) {
	fi, err := os.Lstat(filepath.Join(s.out, Marker))
	if err != nil {
		return Fingerprint{}, err
	}
	return fingerprintOf(fi), nil
}

// inPlaceShare is the largest share of changed files that is published file
// by file; above it, relinking the unchanged files and swapping the whole
// folder costs little more and is atomic.
const inPlaceShare = 0.25

// Commit publishes the new site. previous lists the files of the previous
// site when the caller knows them (nil: the output folder is walked).
func (s *Site) Commit(previous []string) error { return s.CommitKnown(previous, 0) }

// CommitKnown is Commit for a caller that leaves out of previous some
// files of the previous site that it knows the new site has (staying is
// how many): they are neither looked up nor removed. A rebuild knows
// that of its record pages, half a million of them at most.
func (s *Site) CommitKnown(previous []string, staying int) error {
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return errors.New("write: site already committed or aborted")
	}
	s.done = true
	s.mu.Unlock()
	if !s.hadOld {
		s.mode = "new"
		return s.publishNew()
	}
	if previous == nil {
		previous, staying = readFileList(s.out), 0
	}
	if previous == nil {
		previous = walk(s.out)
	}
	var removed []string
	kept := staying // files of the previous site that the new one has
	for _, rel := range previous {
		_, ok := s.lookup(rel)
		if ok {
			kept++
		} else if rel != Marker && rel != FileList {
			if _, err := os.Lstat(filepath.Join(s.out, filepath.FromSlash(rel))); err == nil {
				removed = append(removed, rel)
			}
		}
	}
	// The same files as before: the file list on disk holds them.
	sameFiles := len(removed) == 0 && kept == s.count()
	slices.Sort(removed)
	s.removed = int64(len(removed))
	changes := len(s.staged) + len(removed)
	switch {
	case changes == 0:
		s.mode = "unchanged"
		return os.RemoveAll(s.stage)
	case float64(changes) <= inPlaceShare*float64(max(1, s.count())):
		s.mode = "in place"
		return s.publishInPlace(removed, sameFiles)
	default:
		s.mode = "swap"
		if err := s.keepForeign(removed); err != nil {
			os.RemoveAll(s.stage)
			return err
		}
		return s.publishSwap()
	}
}

func (s *Site) publishNew() error {
	if err := s.finishStage(); err != nil {
		return err
	}
	if _, err := os.Lstat(s.out); err == nil {
		// An empty folder (checked by Begin) is in the way.
		os.Remove(s.out)
	}
	if err := os.Rename(s.stage, s.out); err != nil {
		os.RemoveAll(s.stage)
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}

// finishStage writes the last files of a site made whole in the stage:
// the list of its files, then its marker. The stage is removed when
// either cannot be written.
func (s *Site) finishStage() error {
	err := s.writeFileList()
	if err == nil {
		err = writeMarker(s.stage)
	}
	if err != nil {
		os.RemoveAll(s.stage)
	}
	return err
}

func writeMarker(dir string) error {
	return os.WriteFile(filepath.Join(dir, Marker), []byte("This folder was written by errdocs; a build replaces it whole.\n"), 0o644)
}

// keepForeign hard-links into the stage the files of the output that
// errdocs did not make (a CNAME, an .htaccess a user put there): neither
// files of the new site nor files of the previous one that go (removed).
// A publication in place keeps them by touching only its own files; a
// swap replaces the folder, so it carries them over. Without the list of
// the previous site's files (no page cache) every file of the output is
// taken for the previous site's, and those not in the new one go.
func (s *Site) keepForeign(removed []string) error {
	gone := make(map[string]bool, len(removed))
	for _, rel := range removed {
		gone[rel] = true
	}
	for _, rel := range walk(s.out) {
		if _, ours := s.lookup(rel); ours || gone[rel] || rel == Marker || rel == FileList {
			continue
		}
		dst := filepath.Join(s.stage, filepath.FromSlash(rel))
		if err := s.mkdirs(filepath.Dir(dst)); err != nil {
			return err
		}
		if err := os.Link(filepath.Join(s.out, filepath.FromSlash(rel)), dst); err != nil {
			return fmt.Errorf("publish: keeping %s: %w", rel, err)
		}
	}
	return nil
}

// publishSwap hard-links every unchanged file into the stage and swaps the
// stage with the output in one rename.
func (s *Site) publishSwap() error {
	for rel := range s.prints {
		if s.staged[rel] {
			continue
		}
		if err := s.linkKept(rel); err != nil {
			return err
		}
	}
	for _, rel := range s.block.rels {
		if err := s.linkKept(rel); err != nil {
			return err
		}
	}
	if err := s.finishStage(); err != nil {
		return err
	}
	if err := unix.Renameat2(unix.AT_FDCWD, s.stage, unix.AT_FDCWD, s.out, unix.RENAME_EXCHANGE); err == nil {
		// The stage now holds the previous site.
		return os.RemoveAll(s.stage)
	}
	old := filepath.Join(filepath.Dir(s.out), "."+filepath.Base(s.out)+".old-"+filepath.Base(s.stage))
	if err := os.Rename(s.out, old); err != nil {
		os.RemoveAll(s.stage)
		return fmt.Errorf("publish: %w", err)
	}
	if err := os.Rename(s.stage, s.out); err != nil {
		os.Rename(old, s.out)
		os.RemoveAll(s.stage)
		return fmt.Errorf("publish: %w", err)
	}
	return os.RemoveAll(old)
}

// linkKept hard-links the previous site's file rel into the stage; on
// failure the stage is removed.
func (s *Site) linkKept(rel string) error {
	dst := filepath.Join(s.stage, filepath.FromSlash(rel))
	if err := s.mkdirs(filepath.Dir(dst)); err != nil {
		os.RemoveAll(s.stage)
		return err
	}
	if err := os.Link(filepath.Join(s.out, filepath.FromSlash(rel)), dst); err != nil {
		os.RemoveAll(s.stage)
		if errors.Is(err, fs.ErrNotExist) {
			// Kept on the caller's word (Known) but gone from disk.
			return fmt.Errorf("publish: keeping %s: %w", rel, ErrGone)
		}
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}

// journalStep is one line of the publication journal.
type journalStep struct {
	Op  string `json:"op"` // "put": move stage/rel to out/rel; "del": remove out/rel
	Rel string `json:"rel"`
}

type journalHead struct {
	Journal string `json:"errdocs-journal"`
	Stage   string `json:"stage"`
}

func journalPath(out string) string {
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".journal")
}

// publishInPlace moves the changed files into place one by one and deletes
// the removed ones, after writing down what it will do: a build killed
// midway is completed by the next Begin (or RollForward).
func (s *Site) publishInPlace(removed []string, sameFiles bool) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.Encode(journalHead{Journal: "v1", Stage: filepath.Base(s.stage)})
	staged := make([]string, 0, len(s.staged))
	for rel := range s.staged {
		staged = append(staged, rel)
	}
	slices.SortFunc(staged, func(a, b string) int {
		if c := publishRank(a) - publishRank(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	for _, rel := range staged {
		enc.Encode(journalStep{"put", rel})
	}
	for _, rel := range removed {
		enc.Encode(journalStep{"del", rel})
	}
	// The list of the site's files (unless it holds them already), then a
	// new marker that says the site changed (see Previous).
	if _, err := os.Lstat(filepath.Join(s.out, FileList)); !sameFiles || err != nil {
		if err := s.writeFileList(); err != nil {
			os.RemoveAll(s.stage)
			return err
		}
		enc.Encode(journalStep{"put", FileList})
	}
	if err := writeMarker(s.stage); err != nil {
		os.RemoveAll(s.stage)
		return err
	}
	enc.Encode(journalStep{"put", Marker})
	jp := journalPath(s.out)
	tmp := jp + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		os.RemoveAll(s.stage)
		return err
	}
	if _, err := f.Write(b.Bytes()); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, jp)
	}
	if err != nil {
		os.Remove(tmp)
		os.RemoveAll(s.stage)
		return fmt.Errorf("publish: journal: %w", err)
	}
	return RollForward(s.out)
}

// publishRank orders the files of an in-place publication so that a
// reader's view stays whole at every step: files named by their content
// first (hashed assets, the search index's chunks), which nothing of the
// old site names; then pages, which may name the new assets; last the
// fixed entry points that name the rest (search/manifest.js, the sitemaps,
// the feed), so none ever names a file not yet in place.
func publishRank(rel string) int {
	switch {
	case entryPoint(rel):
		return 2
	case strings.HasPrefix(rel, "static/"),
		strings.HasPrefix(rel, "search/") && !strings.HasSuffix(rel, ".html"):
		return 0
	default:
		return 1
	}
}

// entryPoint reports whether rel is a file at a fixed name that names
// other files of the site.
func entryPoint(rel string) bool {
	switch rel {
	case "search/manifest.js", "sitemap.xml", "feed.xml", "robots.txt", "opensearch.xml":
		return true
	}
	return strings.HasPrefix(rel, "sitemaps/")
}

// killAtStep, from ERRDOCS_TEST_KILL_AT_STEP, kills the process (SIGKILL,
// as kill -9 would) before the given step of a roll forward: the test of a
// publication killed at every step uses it. Unset, it is -1 and never
// fires.
var killAtStep = func() int {
	n, err := strconv.Atoi(os.Getenv("ERRDOCS_TEST_KILL_AT_STEP"))
	if err != nil {
		return -1
	}
	return n
}()

// RollForward completes a publication whose journal is beside out, if any.
// Each step can be done again safely, so a roll forward that is itself
// killed is completed by the next one.
func RollForward(out string) error {
	jp := journalPath(out)
	f, err := os.Open(jp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var head journalHead
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &head) != nil || head.Journal != "v1" ||
		strings.ContainsAny(head.Stage, `/\`) || !strings.HasPrefix(head.Stage, "."+filepath.Base(out)+".tmp-") {
		return fmt.Errorf("publish: unreadable journal %s; remove it and rebuild", jp)
	}
	stage := filepath.Join(filepath.Dir(out), head.Stage)
	dirs := map[string]bool{}
	for step := 0; sc.Scan(); step++ {
		if step == killAtStep {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		var st journalStep
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil || (CheckPath(st.Rel) != nil && st.Rel != Marker && st.Rel != FileList) {
			return fmt.Errorf("publish: bad journal line in %s", jp)
		}
		dst := filepath.Join(out, filepath.FromSlash(st.Rel))
		switch st.Op {
		case "put":
			src := filepath.Join(stage, filepath.FromSlash(st.Rel))
			if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
				continue // moved already by an earlier, killed roll forward
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return fmt.Errorf("publish: %w", err)
			}
			if err := os.Rename(src, dst); err != nil {
				return fmt.Errorf("publish: %w", err)
			}
		case "del":
			if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("publish: %w", err)
			}
			dirs[filepath.Dir(dst)] = true
		default:
			return fmt.Errorf("publish: bad journal step %q in %s", st.Op, jp)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("publish: journal: %w", err)
	}
	// Folders left empty by removed files go too, deepest first.
	var ds []string
	for d := range dirs {
		ds = append(ds, d)
	}
	slices.SortFunc(ds, func(a, b string) int { return len(b) - len(a) })
	for _, d := range ds {
		for d != out && strings.HasPrefix(d, out+string(filepath.Separator)) && os.Remove(d) == nil {
			d = filepath.Dir(d)
		}
	}
	f.Close()
	if err := os.Remove(jp); err != nil {
		return err
	}
	return os.RemoveAll(stage)
}

// walk lists the files under dir, slash-separated and relative.
func walk(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// Abort throws the new site away and leaves the previous one as it was.
func (s *Site) Abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	os.RemoveAll(s.stage)
}
