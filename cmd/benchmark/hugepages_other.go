//go:build unix && !linux

package main

// adviseHugePages is false: transparent huge pages are Linux's.
func adviseHugePages(mem []byte) bool { return false }
