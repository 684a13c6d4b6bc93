// Package testseed holds the seed record, a real record of the dataset
// (shared/seeds), for the tests of every package: one copy, found without
// paths relative to the test's folder.
package testseed

import _ "embed"

//go:embed seed.json
var seed []byte

// JSON returns the seed record file's bytes: a wrapped record,
// {"record": {...}, "datasetVersion": "..."}. Each call gets its own copy.
func JSON() []byte { return append([]byte(nil), seed...) }
