//go:build !unix

// Package cputime reads the CPU time the process has used, for the
// build's report of each stage and for the benchmarks.
package cputime

import "time"

// Process is not measured off Unix.
func Process() time.Duration { return 0 }

// Times is not measured off Unix.
func Times() (cpu, sys time.Duration, ok bool) { return 0, 0, false }
