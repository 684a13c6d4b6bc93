package pipeline

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// prefetch asks the kernel to read the files of dir into memory, in the
// background: the read cache's entries, which the reader then takes one
// after another. Where a file's pages were dropped since the last build
// (a machine that reclaims memory left untouched for a while, as a
// virtual machine's may), each entry was a wait for the disk in
// turn; asked for together, they are read side by side. A file already
// in memory costs an open and a close.
func prefetch(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_WILLNEED)
		f.Close()
	}
}
