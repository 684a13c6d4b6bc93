//go:build !unix

package main

import "time"

// selfTimes is not measured off Unix.
func selfTimes() (cpu, sys time.Duration, ok bool) { return 0, 0, false }
