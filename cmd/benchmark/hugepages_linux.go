package main

import "golang.org/x/sys/unix"

// adviseHugePages marks mem for transparent huge pages.
func adviseHugePages(mem []byte) bool { return unix.Madvise(mem, unix.MADV_HUGEPAGE) == nil }
