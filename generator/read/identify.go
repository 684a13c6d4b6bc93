package read

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// Inputs is the identity of every file a Read of the same paths would
// read: record files and the export's side files (manifests, repos.json,
// tags.json, info articles), in the order Read finds them.
type Inputs struct {
	Files   []FileID
	Records int   // of Files, the first Records are record files
	Stats   int64 // stat calls made on the files
}

// Identify finds the files under paths as Read would, without reading
// them, and returns their identities. A caller that kept the identities of
// an earlier read can tell whether anything it read changed: a file
// rewritten gets another change time or inode, a file added or removed
// changes the list. Any problem finding the files (a path missing, a
// broken link, a folder that cannot be listed) is an error: what Read
// would then make is not told by identities alone.
func Identify(paths []string) (Inputs, error) {
	r := &reader{extras: &Extras{}, verified: map[string]FileID{}}
	p := r.discover(paths)
	if len(r.problems) > 0 {
		return Inputs{}, fmt.Errorf("finding the input files: %w", r.problems[0])
	}
	var in Inputs
	in.Records = len(p.records)
	for _, list := range [][]string{p.records, p.repos, p.tags, p.manifests, p.infos, p.infoIndexes} {
		for _, path := range list {
			stated := time.Now()
			in.Stats++
			fi, err := os.Stat(path)
			if err != nil {
				return Inputs{}, err
			}
			id, ok := fileID(path, fi, stated)
			if !ok {
				return Inputs{}, fmt.Errorf("%s: %w", path, errNoIdentity)
			}
			in.Files = append(in.Files, id)
		}
	}
	return in, nil
}

var errNoIdentity = errors.New("no file identity")
