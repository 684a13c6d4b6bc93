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
	cpu, _, _ := Times()
	return cpu
}

// Times is the CPU time (user and system) the process has used so far and
// the system part of it (page faults, file system work); ok is false when
// they cannot be read.
func Times() (cpu, sys time.Duration, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), time.Duration(ru.Stime.Nano()), true
}
