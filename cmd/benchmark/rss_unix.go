//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is the child's peak resident set size in bytes (ru_maxrss is
// kilobytes on Linux and the BSDs, bytes on macOS).
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}

// pageFaults is the child's count of page faults served without I/O
// (ru_minflt): each is a first touch of memory, which on a virtual machine
// can cost far more than the work done in it.
func pageFaults(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	return int64(ru.Minflt)
}
