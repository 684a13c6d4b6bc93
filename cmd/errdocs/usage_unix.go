//go:build unix

package main

import (
	"fmt"
	"runtime"
	"syscall"
	"time"
)

// processUsage describes what the build cost the machine so far: CPU time
// in user and kernel mode, peak resident memory and page faults. The
// kernel's share is where a machine's own costs show (clearing the fresh
// memory a new process takes, creating files), which can make the same
// build several times slower on one machine than on another
// (BENCHMARKS.md).
func processUsage() string {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return ""
	}
	user, sys := time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
	return fmt.Sprintf("%s user, %s system; peak resident %s; %d page faults",
		user.Round(10*time.Millisecond), sys.Round(10*time.Millisecond), byteSize(maxRSSBytes(int64(ru.Maxrss))), int64(ru.Minflt+ru.Majflt))
}

// maxRSSBytes is ru_maxrss in bytes: kilobytes on Linux and the BSDs,
// bytes on macOS.
func maxRSSBytes(maxrss int64) int64 {
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return maxrss
	}
	return maxrss * 1024
}
