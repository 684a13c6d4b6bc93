package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/errdocs/errdocs/generator/publish"
	"github.com/errdocs/errdocs/generator/read"
	"github.com/errdocs/errdocs/internal/cachefile"
	"github.com/errdocs/errdocs/internal/cputime"
)

// The no-change fast path. A successful build leaves a stamp in the cache
// folder: the identity of every input file it read (device, inode, size,
// modification and change time, as the read cache keys them), the key of
// everything else the site is made from (the errdocs binary, the settings,
// the templates and static files), the fingerprint of the marker of the
// site it published, and what it reported. A build whose inputs, key and
// output marker are all as stamped would make the very site that is there:
// it serves the stamped report and touches nothing. It reads no record
// file, decodes no cache table, opens no index and looks at no output file
// but the marker.
//
// So it does not notice an output file edited or deleted by hand (neither
// do make nor Hugo): Config.Verify (errdocs build --verify) skips the fast
// path, and the full build then looks at every output file and rewrites
// those not as written. Deleting the cache folder does the same.
//
// The stamp is removed before any other build begins and saved only after
// it succeeded, so a failed or killed build leaves none. It is not saved
// when a file was changed too recently to trust its times (see racy), nor
// when a cache could not be written (the next build would then differ
// from this one in what it reports).

const (
	noChangeKind    = "no change"
	noChangeVersion = 1
	// maxSettle is how long a build waits, before it looks at its inputs,
	// for files changed a moment ago to be older than fineMargin: a file
	// looked at later keeps its times until it changes again, so the build
	// can cache it and stamp it. On a coarse file system the wait would be
	// seconds; the build then does not wait (and reads such files again
	// next time).
	maxSettle = 250 * time.Millisecond
	// maxRejects bounds the rejects file a stamp keeps a copy of.
	maxRejects = 16 << 20
)

// noChange is the fast path's state in one build.
type noChange struct {
	path   string
	key    fileKey
	inputs read.Inputs
	usable bool // inputs identified and key made: a stamp can be saved

	mu       sync.Mutex
	reading  bool     // in read+validate: problems are the input's
	problems []string // the input's problems, replayed by a no-change build
	spoiled  bool     // a problem of a cache: save no stamp
	rejects  *bytes.Buffer
}

// stamp is what the stamp file holds beside the key and the inputs.
type stamp struct {
	marker   publish.Fingerprint
	report   Report
	problems []string
	rejects  []byte // nil: not kept
}

// prepareNoChange identifies the inputs of c (after letting files changed
// a moment ago settle) and makes the key of everything else.
func prepareNoChange(c *Config) *noChange {
	nc := &noChange{path: noChangePath(c.CacheDir, c.Out)}
	key, err := settingsKey(c)
	if err != nil {
		return nc
	}
	in, err := read.Identify(c.Paths)
	if err != nil {
		return nc
	}
	if wait := settleWait(in.Files, time.Now()); wait > 0 {
		time.Sleep(wait)
		if in, err = read.Identify(c.Paths); err != nil {
			return nc
		}
	}
	for _, id := range in.Files {
		if racy(id) {
			nc.spoiled = true
		}
	}
	nc.key, nc.inputs, nc.usable = key, in, true
	return nc
}

// settleWait is how long to wait for every file to be older than
// fineMargin, when that is at most maxSettle and their times are fine.
func settleWait(files []read.FileID, now time.Time) time.Duration {
	var newest int64
	for _, id := range files {
		if id.ChangeTime%int64(time.Second) == 0 {
			return 0
		}
		newest = max(newest, id.ChangeTime, id.ModTime)
	}
	wait := time.Unix(0, newest).Add(fineMargin + time.Millisecond).Sub(now)
	if wait <= 0 || wait > maxSettle {
		return 0
	}
	return wait
}

// noChangePath is the no-change record of the site at out.
func noChangePath(cacheDir, out string) string { return siteCachePath(cacheDir, "nochange", out) }

// settingsKey hashes everything but the input files that a site is made
// from: the binary, the settings, the templates and the static files.
func settingsKey(c *Config) (fileKey, error) {
	bin, err := binaryHash()
	if err != nil {
		return fileKey{}, err
	}
	h := newHasher(fileKey{}).bytes(bin[:])
	h.str(c.Title).str(c.Description).str(c.BaseURL).num(c.PerPage).str(c.ReportURL)
	h.num(boolNum(c.IndexFile)).num(boolNum(c.Strict)).num(len(c.Paths))
	for _, p := range c.Paths {
		h.str(p)
	}
	for _, fsys := range []fs.FS{c.Templates, c.Static} {
		h.num(boolNum(fsys != nil))
		if fsys == nil {
			continue
		}
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			h.str(p).bytes(data)
			return err
		})
		if err != nil {
			return fileKey{}, err
		}
	}
	return h.key(), nil
}

func boolNum(b bool) int {
	if b {
		return 1
	}
	return 0
}

// serve returns the report of a no-change build when the stamp says the
// site in c.Out is what a build would make now; otherwise why not, for the
// report of the build that runs instead (Report.NoChangeMissed).
func (nc *noChange) serve(c *Config, start time.Time, startCPU time.Duration) (*Report, string) {
	switch {
	case c.Verify:
		return nil, "--verify looks at every output file"
	case !nc.usable:
		return nil, "the input files or the settings could not be identified"
	case nc.spoiled:
		return nil, "an input file changed a moment before this build looked at it"
	}
	marker, ok := publish.Current(c.Out)
	if !ok {
		return nil, "no site of an earlier build in the output folder"
	}
	st, why := nc.load()
	if why != "" {
		return nil, why
	}
	if marker != st.marker {
		return nil, "the site in the output folder is not the one the last build published"
	}
	if c.RejectsFile != "" {
		if st.rejects == nil {
			return nil, "the last build kept no copy of its rejects file"
		}
		if os.WriteFile(c.RejectsFile, st.rejects, 0o644) != nil {
			return nil, "the rejects file could not be written"
		}
	}
	for _, p := range st.problems {
		c.Problem(p)
	}
	rep := st.report
	rep.NoChange = true
	rep.Cached = nc.inputs.Records
	rep.Inputs = InputStats{RecordFiles: nc.inputs.Records, Served: nc.inputs.Records, Stats: nc.inputs.Stats, Margin: fineMargin}
	rep.Stages = []Stage{{"no change", time.Since(start), heldMemory(), cputime.Process() - startCPU}}
	if c.StageDone != nil {
		c.StageDone("no change")
	}
	return &rep, ""
}

// load reads the stamp, when it was made for these inputs and this key;
// otherwise it says why it was not.
func (nc *noChange) load() (stamp, string) {
	body, err := cachefile.ReadFile(nc.path, noChangeKind, noChangeVersion)
	if errors.Is(err, fs.ErrNotExist) {
		return stamp{}, "the last build left no stamp (it failed, or was not sure of its inputs or caches)"
	}
	if err != nil {
		return stamp{}, "the stamp could not be read: " + err.Error()
	}
	r := cachefile.NewReader(body)
	if !r.Expect(nc.head(nil)) {
		return stamp{}, nc.differs(body)
	}
	var st stamp
	st.marker = publish.Fingerprint{Size: int64(r.Uint64()), ModTime: int64(r.Uint64()), Ino: r.Uint64()}
	nums := reportNums(&st.report)
	for _, p := range nums {
		*p = int(r.Uint64())
	}
	st.report.Unchanged, st.report.Bytes = int64(r.Uint64()), int64(r.Uint64())
	st.report.Search = r.String()
	for n := r.Count(); n > 0 && r.Err() == nil; n-- {
		st.problems = append(st.problems, r.String())
	}
	if r.Byte() == 1 {
		st.rejects = append([]byte{}, r.Bytes()...)
	}
	if r.Done() != nil {
		return stamp{}, "the stamp is damaged"
	}
	return st, ""
}

// differs says how the inputs and key of a stamp's body differ from
// nc's, which they do (its head did not match).
func (nc *noChange) differs(body []byte) string {
	r := cachefile.NewReader(body)
	if !r.Expect(nc.key[:]) {
		return "the errdocs binary, the settings, the templates or the static files changed"
	}
	n := r.Count()
	stamped := make(map[string][5]uint64, n)
	for range n {
		path := r.String()
		var v [5]uint64
		for k := range v {
			v[k] = r.Uint64()
		}
		if r.Err() != nil {
			return "the stamp is damaged"
		}
		stamped[path] = v
	}
	changed, added, first := 0, 0, ""
	for _, id := range nc.inputs.Files {
		v, ok := stamped[id.Path]
		delete(stamped, id.Path)
		switch {
		case !ok:
			added++
		case v != identity(id):
			changed++
		default:
			continue
		}
		if first == "" {
			first = id.Path
		}
	}
	if first == "" && len(stamped) > 0 {
		first = slices.Min(slices.Collect(maps.Keys(stamped)))
	}
	return fmt.Sprintf("input files changed since the last build: %d changed, %d new, %d gone (first: %s)", changed, added, len(stamped), first)
}

// head is the key and the inputs' identities, appended to b: a stamp
// whose head differs was made for other inputs.
func (nc *noChange) head(b []byte) []byte {
	b = append(b, nc.key[:]...)
	b = binary.AppendUvarint(b, uint64(len(nc.inputs.Files)))
	for _, id := range nc.inputs.Files {
		b = cachefile.AppendString(b, id.Path)
		for _, v := range identity(id) {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
	}
	return b
}

// identity is what a stamp keeps of an input file: a file whose identity
// is the same is taken to be unchanged.
func identity(id read.FileID) [5]uint64 {
	return [5]uint64{id.Dev, id.Ino, uint64(id.Size), uint64(id.ModTime), uint64(id.ChangeTime)}
}

// reportNums are the counts of a report a stamp keeps, in its order.
func reportNums(r *Report) []*int {
	return []*int{&r.Files, &r.Read, &r.Built, &r.Reused, &r.Rejected, &r.FileErrors, &r.FilesFailed, &r.Unusable}
}

// forget removes the stamp: the build about to run may change the site.
func (nc *noChange) forget() {
	if err := os.Remove(nc.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		nc.usable = false // a stamp that cannot be removed must not be renewed either
	}
}

// watch wraps c's problem reporting: the input's problems (reported in
// read+validate) are kept for the stamp, a cache's problem spoils it.
func (nc *noChange) watch(c *Config) {
	nc.reading = true
	problem, cacheProblem := c.Problem, c.cacheProblem
	c.Problem = func(msg string) {
		nc.mu.Lock()
		if nc.reading {
			nc.problems = append(nc.problems, msg)
		} else {
			nc.spoiled = true
		}
		nc.mu.Unlock()
		problem(msg)
	}
	c.cacheProblem = func(msg string) {
		nc.mu.Lock()
		nc.spoiled = true
		nc.mu.Unlock()
		cacheProblem(msg)
	}
}

// again is the state of a build run again from the start: the inputs as
// identified, nothing recorded.
func (nc *noChange) again() *noChange {
	return &noChange{path: nc.path, key: nc.key, inputs: nc.inputs, usable: nc.usable, spoiled: nc.spoiled}
}

// readDone says read+validate ended: later problems are not the input's.
func (nc *noChange) readDone() {
	nc.mu.Lock()
	nc.reading = false
	nc.mu.Unlock()
}

// teeRejects keeps a copy of what is written to the rejects file w.
func (nc *noChange) teeRejects(w io.Writer) io.Writer {
	if w == nil {
		return nil
	}
	nc.rejects = &bytes.Buffer{}
	return io.MultiWriter(w, limitedBuffer{nc})
}

type limitedBuffer struct{ nc *noChange }

func (l limitedBuffer) Write(p []byte) (int, error) {
	if b := l.nc.rejects; b != nil {
		if b.Len()+len(p) > maxRejects {
			l.nc.rejects = nil
		} else {
			b.Write(p)
		}
	}
	return len(p), nil
}

// save writes the stamp of a build that succeeded, for the site now in
// out; when it writes none, it says why (Report.StampSkipped).
func (nc *noChange) save(out string, rep *Report) (string, error) {
	switch {
	case !nc.usable:
		return "the input files or the settings could not be identified", nil
	case nc.spoiled:
		return "an input file changed a moment before this build looked at it, or a cache had a problem", nil
	}
	marker, ok := publish.Current(out)
	if !ok {
		return "the output folder has no build marker", nil
	}
	b := nc.head(cachefile.Begin(nil, noChangeKind, noChangeVersion))
	for _, v := range []uint64{uint64(marker.Size), uint64(marker.ModTime), marker.Ino} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	served := *rep
	served.Reused = served.Built
	for _, p := range reportNums(&served) {
		b = binary.LittleEndian.AppendUint64(b, uint64(*p))
	}
	for _, v := range []int64{rep.Written + rep.Unchanged, rep.Bytes} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	b = cachefile.AppendString(b, "kept whole (no input changed)")
	b = binary.AppendUvarint(b, uint64(len(nc.problems)))
	for _, p := range nc.problems {
		b = cachefile.AppendString(b, p)
	}
	if nc.rejects != nil {
		b = cachefile.AppendBytes(append(b, 1), nc.rejects.Bytes())
	} else {
		b = append(b, 0)
	}
	if err := os.MkdirAll(filepath.Dir(nc.path), 0o755); err != nil {
		return "", err
	}
	return "", cachefile.WriteFile(nc.path, cachefile.Seal(b))
}
