//go:build !unix

package pipeline

import "time"

// processCPU is not measured off Unix.
func processCPU() time.Duration { return 0 }
