//go:build !linux

package resident

// EvictUnder does nothing where the system does not list the process's
// mappings.
func EvictUnder(dir string) int64 { return 0 }
