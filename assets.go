// Package errdocs holds the site's templates and static files, embedded in
// the binary so that a built errdocs needs nothing beside it; the command
// can override the templates from disk (--templates DIR).
package errdocs

import (
	"embed"
	"io/fs"
)

//go:embed templates static
var assets embed.FS

// Templates is the templates folder; Static is the static folder, whose
// files are published under static/ in the site.
var (
	Templates = sub("templates")
	Static    = sub("static")
)

func sub(dir string) fs.FS {
	f, err := fs.Sub(assets, dir)
	if err != nil {
		// fs.Sub fails only for an invalid path, and these are constants.
		panic(err)
	}
	return f
}
