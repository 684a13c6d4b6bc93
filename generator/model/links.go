package model

import (
	"net/url"
	"strings"
)

// Links makes the URLs of one page's links. Pages link to each other by
// relative URLs, so the same output works at any path prefix of a host and
// opened from disk; in an offline bundle, links to folders name index.html
// explicitly, since a browser shows a folder opened from disk as a listing.
type Links struct {
	// From is the page's folder relative to the site root ("" for the home
	// page, "owner/name/slug/" for a record), or a file path for pages that
	// are files ("404.html": its links are resolved from the root).
	From string
	// IndexFile appends "index.html" to links that name a folder.
	IndexFile bool
	// Assets maps a static asset's name ("style.css") to its published path
	// relative to the site root ("static/style.1a2b3c4d.css").
	Assets map[string]string
}

// Root is the relative URL of the site root from the page ("../../").
func (l Links) Root() string {
	depth := strings.Count(l.From, "/")
	if depth == 0 {
		return "./"
	}
	return strings.Repeat("../", depth)
}

// Link returns the relative URL of a site path: a folder ending in "/" (the
// root is ""), or a file. Each segment is escaped, so an unusual repo name
// cannot change the URL's meaning.
func (l Links) Link(path string) string {
	u := l.Root() + EscapePath(path)
	if l.IndexFile && (path == "" || strings.HasSuffix(path, "/")) {
		u += "index.html"
	}
	if u == "./" {
		return "./"
	}
	return strings.TrimPrefix(u, "./")
}

// Asset returns the relative URL of a static asset by its name.
func (l Links) Asset(name string) string {
	if p, ok := l.Assets[name]; ok {
		return l.Root() + EscapePath(p)
	}
	return l.Root() + StaticPath + EscapePath(name)
}

// EscapePath escapes each segment of a slash-separated path for use in a URL.
func EscapePath(p string) string {
	if plainPath(p) {
		return p // the common case: a slug path that needs no escape
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		// ":" is legal in a path segment but would make a relative URL
		// whose first segment holds it read as a scheme ("javascript:").
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// plainPath reports p made only of bytes url.PathEscape keeps in a
// segment (letters, digits, "-", "_", ".", "~") and slashes.
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
			return false
		}
	}
	return true
}

// Absolute returns the absolute URL of a site path under base (which ends in
// "/"), or "" when there is no base.
func Absolute(base, path string) string {
	if base == "" {
		return ""
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	return base + EscapePath(path)
}
