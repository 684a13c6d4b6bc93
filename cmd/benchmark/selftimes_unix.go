//go:build unix

package main

import (
	"syscall"
	"time"
)

// selfTimes returns the CPU time (user+sys) and the system time the
// process has used so far.
func selfTimes() (cpu, sys time.Duration, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), time.Duration(ru.Stime.Nano()), true
}
