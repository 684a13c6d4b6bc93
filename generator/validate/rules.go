// The string rules of the record schema, which the reader (repo entries,
// info articles, tags) uses too.
//
// The patterns are checked by hand rather than with regexp: they run several
// times per record over a dataset of half a million records, and a byte loop
// is an order of magnitude cheaper than the regexp engine.

package validate

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/errdocs/errdocs/generator/record"
)

// ID reports whether s is a record id: exactly 16 lowercase hex characters.
func ID(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLowerHex(s[i]) {
			return false
		}
	}
	return true
}

// SHA reports whether s is a full 40-character hex commit id. Upper case is
// accepted: the schema says "40-hex" without a case, and the value is only
// shown and compared, never used as a path.
func SHA(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLowerHex(c) && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

func isLowerHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// Slug reports whether s matches ^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$.
func Slug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLowerAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// Tag reports whether s matches ^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$: lowercase
// kebab starting with a letter, no doubled, leading or trailing hyphen.
func Tag(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' || s[len(s)-1] == '-' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '-' {
			if s[i-1] == '-' {
				return false
			}
			continue
		}
		if !isLowerAlnum(c) {
			return false
		}
	}
	return true
}

// UTCTime reports whether s is an ISO 8601 UTC time in RFC 3339 form ending
// in Z, with or without fractional seconds ("2026-08-27T09:53:25.647Z").
func UTCTime(s string) bool {
	if len(s) < len("2006-01-02T15:04:05Z") || s[len(s)-1] != 'Z' {
		return false
	}
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// Repo returns what is wrong with s as a repo coordinate "owner/name", one
// short rule text per fault, or nil when it is fine. Besides the schema's
// rule (two parts, no "/" or white space inside a part) it applies rules of
// ours, because each part names a folder of the output: a part may not be
// "." or "..", nor hold control characters or a backslash.
func Repo(s string) []string {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return []string{"must be owner/name: two non-empty parts split by one /"}
	}
	var out []string
	if hasSpace(owner) || hasSpace(name) {
		out = append(out, "a part may not contain white space")
	}
	if owner == "." || owner == ".." || name == "." || name == ".." {
		out = append(out, `a part may not be "." or ".." (our rule: it names a folder)`)
	}
	if hasControlOrBackslash(owner) || hasControlOrBackslash(name) {
		out = append(out, `a part may not contain control characters, NUL or \ (our rule: it names a folder)`)
	}
	if slices.Contains(record.ReservedOwners, owner) {
		out = append(out, fmt.Sprintf("owner %q is reserved for the site's own pages (our rule: its folder would collide with them)", owner))
	}
	return out
}

func hasSpace(s string) bool {
	for _, r := range s {
		if unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

func hasControlOrBackslash(s string) bool {
	for _, r := range s {
		// White space controls (tab, newline) are the white-space rule's.
		if r == '\\' || unicode.IsControl(r) && !unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// Lines counts the lines of a text excerpt. A final newline ends the last
// line rather than starting an empty one, so "a\nb\n" has 2 lines.
func Lines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// KindName names the kind of a JSON value for messages ("a string").
func KindName(k byte) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "nothing"
}
