package index

import (
	"slices"
	"testing"
)

func TestMessageShape(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"listen tcp :8080: bind: address already in use", "listen tcp :443: bind: address already in use"},
		{"key 'user.name' not found", `key 'x' not found`},
		{"can't open file 'a.txt'", "can't open file 'b/c.txt'"},
		{"Timed out after 1.5s", "timed out after 30s"},
	} {
		if sa, sb := messageShape(c.a), messageShape(c.b); sa != sb {
			t.Errorf("%q → %q and %q → %q: want one shape", c.a, sa, c.b, sb)
		}
	}
	for _, c := range []struct{ a, b string }{
		{"can't open file", "cannot open file"},
		{"port in use", "port is free"},
		{"value 'a' too long", "value too long"},
	} {
		if sa := messageShape(c.a); sa == messageShape(c.b) {
			t.Errorf("%q and %q share the shape %q", c.a, c.b, sa)
		}
	}
	long := messageShape(string(make([]byte, 1000)))
	if len(long) > shapeBytes {
		t.Errorf("shape of %d bytes, want at most %d", len(long), shapeBytes)
	}
}

// Doc numbers follow SortKey: family first (none last), then class, then
// message shape, then newest first.
func TestSortKeyOrder(t *testing.T) {
	keys := []string{
		SortKey("net", "IOError", "port 1 in use", "2026-01-02T00:00:00Z"),
		SortKey("net", "IOError", "port 2 in use", "2026-01-01T00:00:00Z"),
		SortKey("net", "IOError", "timed out", "2026-03-01T00:00:00Z"),
		SortKey("net", "OSError", "port 3 in use", "2026-05-01T00:00:00Z"),
		SortKey("parse", "IOError", "port 4 in use", "2026-06-01T00:00:00Z"),
		SortKey("", "IOError", "port 5 in use", "2026-07-01T00:00:00Z"),
	}
	if !slices.IsSorted(keys) {
		t.Errorf("keys out of order:\n%q", keys)
	}
	if a, b := SortKey("net", "E", "x", "not a time"), SortKey("net", "E", "x", "2026-01-01T00:00:00Z"); a < b {
		t.Errorf("an unparsable time sorts before a valid one: %q < %q", a, b)
	}
}
