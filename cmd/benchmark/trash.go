package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// trash holds the folders the benchmark is done with (an earlier run's
// site and cache, Hugo's output) until every build has been timed: they
// are moved aside, which is one rename, and deleted at the end.
//
// Deleting them before the next build would time the filesystem instead
// of the build. On ext4 without a journal, which is what the benchmark
// machines have, the inode allocator passes over every inode freed in the
// last minutes while it looks for a free one: creating many files right
// after deleting many costs several times the system time (BENCHMARKS.md),
// and a cold build creates one folder and one file per record.
type trash struct {
	dir  string
	logf func(string, ...any)
}

func newTrash(work string, logf func(string, ...any)) *trash {
	return &trash{dir: filepath.Join(work, "trash"), logf: logf}
}

// discard moves path into the trash; a path that does not exist is
// already gone.
func (t *trash) discard(path string) error {
	if _, err := os.Lstat(path); os.IsNotExist(err) {
		return nil
	}
	dest, err := t.reserve()
	if err != nil {
		return err
	}
	return os.Rename(path, dest)
}

// reserve returns a path in the trash that nothing holds yet: for a
// folder that is to be deleted with the rest.
func (t *trash) reserve() (string, error) {
	if err := os.MkdirAll(t.dir, 0o755); err != nil {
		return "", err
	}
	for n := 1; ; n++ {
		dest := filepath.Join(t.dir, strconv.Itoa(n))
		if _, err := os.Lstat(dest); os.IsNotExist(err) {
			return dest, nil
		}
	}
}

// empty deletes what the trash holds, also what an interrupted benchmark
// left in it: once no build is timed any more.
func (t *trash) empty() error {
	if _, err := os.Stat(t.dir); os.IsNotExist(err) {
		return nil
	}
	t.logf("deleting the finished runs' folders (%s)", t.dir)
	if err := os.RemoveAll(t.dir); err != nil {
		return fmt.Errorf("emptying the trash: %w", err)
	}
	return nil
}
