package resident

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// EvictUnder lets the pages of every file under dir that the process maps
// leave its resident memory, and returns how many bytes of mappings it
// advised. The kernel keeps the pages in its page cache, and a later read
// through the mapping maps them again (for a file mapped read-only, which
// is all a build maps: MADV_DONTNEED never loses data there). It is for
// mappings the process does not hold itself (a library's), found in
// /proc/self/maps; it is advice, and an error changes nothing.
func EvictUnder(dir string) int64 {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return 0
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0
	}
	defer f.Close()
	var advised int64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		start, end, ok := fileMappingUnder(sc.Bytes(), dir)
		if !ok {
			continue
		}
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, end-start, unix.MADV_DONTNEED); errno == 0 {
			advised += int64(end - start)
		}
	}
	return advised
}

// fileMappingUnder parses a line of /proc/self/maps ("start-end perms
// offset dev inode path") and says whether it maps a file under dir
// read-only, and where.
func fileMappingUnder(line []byte, dir string) (start, end uintptr, ok bool) {
	fields := bytes.Fields(line)
	if len(fields) < 6 || len(fields[1]) < 2 || fields[1][1] == 'w' {
		return 0, 0, false
	}
	// The path is the rest of the line: it may hold spaces.
	at := bytes.Index(line, fields[5])
	path := string(line[at:])
	if !strings.HasPrefix(path, dir+string(filepath.Separator)) {
		return 0, 0, false
	}
	lo, hi, found := bytes.Cut(fields[0], []byte("-"))
	if !found {
		return 0, 0, false
	}
	s, err1 := strconv.ParseUint(string(lo), 16, 64)
	e, err2 := strconv.ParseUint(string(hi), 16, 64)
	if err1 != nil || err2 != nil || e <= s {
		return 0, 0, false
	}
	return uintptr(s), uintptr(e), true
}
