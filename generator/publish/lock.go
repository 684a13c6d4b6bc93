package publish

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Lock is a hold on a folder (an output folder or a cache) that keeps a
// second errdocs from writing into it at the same time: two builds into
// one output would otherwise publish a mix of both, and two builds sharing
// a cache would leave its search index describing the other dataset.
//
// The lock is an flock(2) on a file beside the folder (".NAME.lock"), not
// inside it: a site is swapped in whole and a cache may be deleted at any
// time, and the lock must outlive both. The kernel releases an flock when
// its process ends however it ends, so a lock left by a killed build is
// no lock at all: the next errdocs takes it over. The file holds the
// holder's pid and command, to name it to whoever finds it taken.
type Lock struct{ f *os.File }

// ErrLocked is returned (wrapped, with the holder's description) when
// another process holds the lock.
var ErrLocked = errors.New("in use by another errdocs")

// LockPath is the lock file of the folder dir.
func LockPath(dir string) string {
	dir = filepath.Clean(dir)
	return filepath.Join(filepath.Dir(dir), "."+strings.TrimPrefix(filepath.Base(dir), ".")+".lock")
}

// TryLock takes the lock of the folder dir at once, or fails at once
// naming the process that holds it. what describes this process to a
// later one that finds the lock taken ("errdocs build").
func TryLock(dir, what string) (*Lock, error) {
	p := LockPath(dir)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		holder := readHolder(f)
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			h := strings.TrimSpace(strings.ToValidUTF8(string(holder), "?"))
			if h == "" {
				h = "a process that has not yet said which"
			}
			return nil, fmt.Errorf("%s is %w (%s; lock file %s); wait for it to finish, or use another folder", dir, ErrLocked, h, p)
		}
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	// Taken (over, when a killed process left the file): say who holds it.
	if err := f.Truncate(0); err == nil {
		line := fmt.Sprintf("pid %d: %s, since %s\n", os.Getpid(), what, time.Now().UTC().Format(time.RFC3339))
		f.WriteAt([]byte(line), 0)
	}
	return &Lock{f: f}, nil
}

// readHolder reads the holder's line from the lock file. A holder writes
// it just after taking the lock, so an empty file is read again for a
// moment before giving up.
func readHolder(f *os.File) []byte {
	for try := 0; ; try++ {
		holder, _ := io.ReadAll(io.LimitReader(io.NewSectionReader(f, 0, 512), 512))
		if len(holder) > 0 || try == 20 {
			return holder
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// Release lets the lock go. The file stays: removing it would let a third
// process lock a new file while a second still waits on the old one.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Truncate(0)
	unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	l.f.Close()
	l.f = nil
}
