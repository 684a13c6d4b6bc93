//go:build !linux

package pipeline

// prefetch is done only on Linux (posix_fadvise).
func prefetch(dir string) {}
