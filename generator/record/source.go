package record

import "strconv"

// Source is where a record came from.
type Source struct {
	File  string `json:"file"`           // the path as found from the paths given to read.Read
	Index int    `json:"index"`          // 0-based position of the record in its file
	Line  int    `json:"line,omitempty"` // 1-based line for JSON Lines, else 0
}

// String is "FILE: record INDEX", with ":LINE" after FILE for JSON Lines.
func (s Source) String() string {
	f := s.File
	if s.Line > 0 {
		f += ":" + strconv.Itoa(s.Line)
	}
	return f + ": record " + strconv.Itoa(s.Index)
}

// ReservedOwners are first path segments the site uses for itself; a record
// whose repo owner is one of them would collide with the site's own pages.
var ReservedOwners = []string{"repos", "tags", "families", "search", "static",
	"index.html", "404.html", "sitemap.xml", "robots.txt", "feed.xml", "opensearch.xml"}
