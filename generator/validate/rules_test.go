package validate_test

import (
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/validate"
)

func TestPatterns(t *testing.T) {
	tests := []struct {
		name string
		fn   func(string) bool
		in   string
		want bool
	}{
		{"id", validate.ID, "e171781a76b49a91", true},
		{"id upper", validate.ID, "E171781A76B49A91", false},
		{"id long", validate.ID, "e171781a76b49a911", false},
		{"sha", validate.SHA, "1e1c6a8fc06dfcd1247076ec5cae4640cea5d7bb", true},
		{"sha upper", validate.SHA, "1E1C6A8FC06DFCD1247076EC5CAE4640CEA5D7BB", true},
		{"sha short", validate.SHA, "1e1c6a8", false},
		{"slug", validate.Slug, "a", true},
		{"slug digits", validate.Slug, "404-not-found", true},
		{"slug double hyphen", validate.Slug, "a--b", true}, // the schema's pattern allows it
		{"slug lead hyphen", validate.Slug, "-a", false},
		{"slug empty", validate.Slug, "", false},
		{"slug dot", validate.Slug, "a.b", false},
		{"tag", validate.Tag, "resource-limit-exceeded", true},
		{"tag digit", validate.Tag, "http2", true},
		{"tag digit first", validate.Tag, "2fa", false},
		{"tag double hyphen", validate.Tag, "a--b", false},
		{"tag trailing", validate.Tag, "a-", false},
		{"time millis", validate.UTCTime, "2026-08-27T09:53:25.647Z", true},
		{"time plain", validate.UTCTime, "2026-08-27T09:53:25Z", true},
		{"time lower z", validate.UTCTime, "2026-08-27T09:53:25z", false},
		{"time offset", validate.UTCTime, "2026-08-27T09:53:25+00:00", false},
		{"time hour 24", validate.UTCTime, "2026-08-27T24:00:00Z", false},
		{"time no seconds", validate.UTCTime, "2026-08-27T09:53Z", false},
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
		if got := validate.Repo(in); len(got) != n {
			t.Errorf("Repo(%q) = %q, want %d problems", in, got, n)
		}
	}
}

func TestLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\nb\n": 2, "\n": 1, "a\r\nb\r\n": 2} {
		if got := validate.Lines(in); got != want {
			t.Errorf("Lines(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestRepoReservedOwner(t *testing.T) {
	if got := validate.Repo("tags/jax"); len(got) != 1 || !strings.Contains(got[0], "reserved") {
		t.Errorf(`Repo("tags/jax") = %q, want one "reserved" problem`, got)
	}
	if got := validate.Repo("jax-ml/tags"); len(got) != 0 {
		t.Errorf(`Repo("jax-ml/tags") = %q, want none`, got)
	}
}
