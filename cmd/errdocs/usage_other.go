//go:build !unix

package main

// processUsage is not measured off Unix.
func processUsage() string { return "" }
