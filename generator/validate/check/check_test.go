package check_test

import (
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/validate/check"
)

func TestPatterns(t *testing.T) {
	tests := []struct {
		name string
		fn   func(string) bool
		in   string
		want bool
	}{
		{"id", check.ID, "e171781a76b49a91", true},
		{"id upper", check.ID, "E171781A76B49A91", false},
		{"id long", check.ID, "e171781a76b49a911", false},
		{"sha", check.SHA, "1e1c6a8fc06dfcd1247076ec5cae4640cea5d7bb", true},
		{"sha upper", check.SHA, "1E1C6A8FC06DFCD1247076EC5CAE4640CEA5D7BB", true},
		{"sha short", check.SHA, "1e1c6a8", false},
		{"slug", check.Slug, "a", true},
		{"slug digits", check.Slug, "404-not-found", true},
		{"slug double hyphen", check.Slug, "a--b", true}, // the schema's pattern allows it
		{"slug lead hyphen", check.Slug, "-a", false},
		{"slug empty", check.Slug, "", false},
		{"slug dot", check.Slug, "a.b", false},
		{"tag", check.Tag, "resource-limit-exceeded", true},
		{"tag digit", check.Tag, "http2", true},
		{"tag digit first", check.Tag, "2fa", false},
		{"tag double hyphen", check.Tag, "a--b", false},
		{"tag trailing", check.Tag, "a-", false},
		{"time millis", check.UTCTime, "2026-08-27T09:53:25.647Z", true},
		{"time plain", check.UTCTime, "2026-08-27T09:53:25Z", true},
		{"time lower z", check.UTCTime, "2026-08-27T09:53:25z", false},
		{"time offset", check.UTCTime, "2026-08-27T09:53:25+00:00", false},
		{"time hour 24", check.UTCTime, "2026-08-27T24:00:00Z", false},
		{"time no seconds", check.UTCTime, "2026-08-27T09:53Z", false},
	}
	for _, tc := range tests {
		if got := tc.fn(tc.in); got != tc.want {
			t.Errorf("%s(%q) = %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestRepo(t *testing.T) {
	for in, n := range map[string]int{
		"jax-ml/jax": 0, "a/b.c": 0, "ünï/cödé": 0,
		"a": 1, "a/b/c": 1, "/b": 1, "a/": 1, "a b/c": 1, "../x": 1, "x/..": 1, "./x": 1, "a\\b/c": 1, "a\x00/b": 1,
		".. /x":  1, // white space, and not exactly ".."
		"a b/..": 2,
	} {
		if got := check.Repo(in); len(got) != n {
			t.Errorf("Repo(%q) = %q, want %d problems", in, got, n)
		}
	}
}

func TestLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\nb\n": 2, "\n": 1, "a\r\nb\r\n": 2} {
		if got := check.Lines(in); got != want {
			t.Errorf("Lines(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestRepoReservedOwner(t *testing.T) {
	if got := check.Repo("tags/jax"); len(got) != 1 || !strings.Contains(got[0], "reserved") {
		t.Errorf(`Repo("tags/jax") = %q, want one "reserved" problem`, got)
	}
	if got := check.Repo("jax-ml/tags"); len(got) != 0 {
		t.Errorf(`Repo("jax-ml/tags") = %q, want none`, got)
	}
}
