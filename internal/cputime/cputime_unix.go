//go:build unix

// Package cputime reads the CPU time the process has used, for the
// build's report of each stage and for the benchmarks.
package cputime

import (
	"syscall"
	"time"
)

// Process is the CPU time (user and system) the process has used so far,
// on every core.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
