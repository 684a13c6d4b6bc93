package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// scenarios runs the errdocs scenarios in one output and cache folder.
type scenarios struct {
	res      *Results
	bin      string
	dataset  string
	editT    target
	removeTs []target
	// chosen is the record to remove, picked by the first removal: the
	// first of removeTs whose page the sitemap lists, so that its going
	// can be checked.
	chosen **target
	logf   func(string, ...any)
	trash  *trash        // where the finished runs go
	gap    time.Duration // idle before each timed rebuild
	// busyUntil is when the last build or look at the output ended.
	busyUntil time.Time
	// handed follows the memory handed back to the host since then.
	handed handedBack

	dir, out, cache string
	label           string               // "run N", for the log
	last            map[string]fileState // the output as the last step left it
}

// run does run i of the four scenarios in a fresh output and cache
// folder.
func (s *scenarios) run(work string, i int, keep bool) error {
	if err := s.begin(work, i); err != nil {
		return err
	}
	steps := []func(int) error{s.coldStep, s.noChangeStep, s.oneChangeStep, s.restoreStep, s.removedStep}
	for _, step := range steps {
		if err := step(i); err != nil {
			return err
		}
	}
	if !keep {
		return s.trash.discard(s.dir)
	}
	return nil
}

// rebuildsOnly does one cold build, then n rounds of a no-change and a
// one-change rebuild (the edit undone, untimed, after each), then one
// removal. Warm, it starts from the output an earlier kept run left
// instead, and times no removal.
func (s *scenarios) rebuildsOnly(work string, n int, keep, warm bool) error {
	start, begin := s.coldStep, s.begin
	if warm {
		start, begin = s.restoreStep, s.resume
	}
	if err := begin(work, 1); err != nil {
		return err
	}
	if err := start(1); err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		s.label = "round " + strconv.Itoa(i)
		for _, step := range []func(int) error{s.noChangeStep, s.oneChangeStep, s.restoreStep} {
			if err := step(i); err != nil {
				return err
			}
		}
	}
	if !warm {
		s.label = "removal"
		if err := s.removedStep(1); err != nil {
			return err
		}
	}
	if !keep {
		return s.trash.discard(s.dir)
	}
	return nil
}

func (s *scenarios) begin(work string, i int) error {
	s.dir = filepath.Join(work, "runs", strconv.Itoa(i))
	s.label = "run " + strconv.Itoa(i)
	if err := s.trash.discard(s.dir); err != nil {
		return err
	}
	s.out, s.cache = filepath.Join(s.dir, "site"), filepath.Join(s.dir, "cache")
	return os.MkdirAll(s.dir, 0o755)
}

// resume is begin for the output and cache an earlier kept run left.
func (s *scenarios) resume(work string, i int) error {
	s.dir = filepath.Join(work, "runs", strconv.Itoa(i))
	s.label = "run " + strconv.Itoa(i)
	s.out, s.cache = filepath.Join(s.dir, "site"), filepath.Join(s.dir, "cache")
	if _, err := os.Stat(filepath.Join(s.cache, "pages")); err != nil {
		return fmt.Errorf("-warm: no kept run in %s (run once with -keep): %w", s.dir, err)
	}
	return nil
}

// build runs one timed build and reads its report.
func (s *scenarios) build() (Run, error) {
	r, stdout, err := timed(s.dir, s.bin, "build", s.dataset, "--out", s.out, "--cache", s.cache, "--stats", "--base-url", baseURL)
	s.busyUntil = time.Now()
	s.handed.mark()
	if err != nil {
		return r, err
	}
	r.Stages = parseStats(stdout)
	r.Written, r.Unchanged = parseSummary(stdout)
	r.ReadCache = readCacheLine(stdout)
	r.AnonHeld = anonHeld(stdout)
	r.NoChangeMissed = statsLine(stdout, "no change: not taken: ")
	r.StampSkipped = statsLine(stdout, "no-change stamp: none left for the next build: ")
	if r.StampSkipped != "" {
		s.logf("%s: the build left no no-change stamp: %s", s.label, r.StampSkipped)
	}
	return r, nil
}

// buildSeen is build, with the files it changed in the output.
//
// It waits s.gap first: the previous build (untimed, or the snapshot of
// its output) may have ended a moment ago, and a process that starts then
// takes memory the last one freed, which the host of a virtual machine
// has not taken back yet and which is cheap to touch again. A user's next
// build comes minutes later.
func (s *scenarios) buildSeen(recordPath string, paths int) (Run, []string, error) {
	time.Sleep(s.gap - time.Since(s.busyUntil))
	idle := time.Since(s.busyUntil)
	handed := s.handed.sinceLast()
	r, err := s.build()
	r.IdleSeconds = idle.Seconds()
	if handed >= 0 {
		r.HandedBackBytes = &handed
	}
	if err != nil {
		return r, nil, err
	}
	after, err := s.snapshot()
	if err != nil {
		return r, nil, err
	}
	ch := changed(s.last, after)
	s.last = after
	r.FilesChanged, r.Kinds, r.Paths = len(ch), kinds(ch, recordPath), head(ch, paths)
	return r, ch, nil
}

// snapshot is the output's files as they are now.
func (s *scenarios) snapshot() (map[string]fileState, error) {
	files, err := snapshot(s.out)
	s.busyUntil = time.Now()
	return files, err
}

func (s *scenarios) coldStep(int) error {
	s.logf("%s: cold build", s.label)
	cold, err := s.build()
	if err != nil {
		return err
	}
	s.res.Cold.Runs = append(s.res.Cold.Runs, cold)
	s.logf("%s: cold %.1f s (%.1f s CPU, %.1f s of it sys)", s.label, cold.Seconds, cold.CPUSeconds, cold.SysSeconds)
	s.last, err = s.snapshot()
	return err
}

func (s *scenarios) noChangeStep(int) error {
	nc, ch, err := s.buildSeen("", 20)
	if err != nil {
		return err
	}
	s.res.NoChange.Runs = append(s.res.NoChange.Runs, nc)
	s.logf("%s: no-change %.2f s (%.2f s CPU, %.2f s of it sys; idle before it %.1f s%s, then sync %.1f s), %d files changed", s.label, nc.Seconds, nc.CPUSeconds, nc.SysSeconds, nc.IdleSeconds, handedNote(nc), nc.SyncSeconds, len(ch))
	if nc.NoChangeMissed != "" {
		s.logf("%s: the no-change fast path was not taken: %s", s.label, nc.NoChangeMissed)
	}
	return nil
}

// oneChangeStep changes one record's documentation and rebuilds; the
// dataset is restored after the build.
func (s *scenarios) oneChangeStep(i int) error {
	ed, err := changeDoc(s.dataset, s.editT, fmt.Sprintf("Benchmark edit %d: this sentence was added to measure a one-record rebuild.", i))
	if err != nil {
		if ed != nil {
			ed.restore()
		}
		return err
	}
	oc, ch, err := s.buildSeen(s.editT.Path, 40)
	if rerr := ed.restore(); err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	s.res.OneChange.Runs = append(s.res.OneChange.Runs, oc)
	s.logf("%s: one-change %.2f s (%.2f s CPU, %.2f s of it sys; idle before it %.1f s%s, then sync %.1f s), %d files changed (%s)", s.label, oc.Seconds, oc.CPUSeconds, oc.SysSeconds, oc.IdleSeconds, handedNote(oc), oc.SyncSeconds, len(ch), formatKinds(oc.Kinds))
	return nil
}

// restoreStep builds the restored dataset (not timed).
func (s *scenarios) restoreStep(int) error {
	if _, err := s.build(); err != nil {
		return err
	}
	var err error
	s.last, err = s.snapshot()
	return err
}

// removedStep removes one record and rebuilds, checking that its page,
// search entries and sitemap entry went; the dataset is restored after.
func (s *scenarios) removedStep(int) error {
	if *s.chosen == nil {
		*s.chosen = &s.removeTs[0]
		for k := range s.removeTs {
			if ok, err := inSitemaps(s.out, s.removeTs[k].Path); err != nil {
				return err
			} else if ok {
				*s.chosen = &s.removeTs[k]
				break
			}
		}
	}
	removeT := **s.chosen
	sitemapBefore, err := inSitemaps(s.out, removeT.Path)
	if err != nil {
		return err
	}
	rm, err := removeRecord(s.dataset, removeT)
	if err != nil {
		if rm != nil {
			rm.restore()
		}
		return err
	}
	or, ch, err := s.buildSeen(removeT.Path, 40)
	if rerr := rm.restore(); err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	return s.checkRemoved(or, removeT, sitemapBefore, len(ch))
}

func (s *scenarios) checkRemoved(or Run, removeT target, sitemapBefore bool, nChanged int) error {
	_, statErr := os.Stat(filepath.Join(s.out, filepath.FromSlash(removeT.Path), "index.html"))
	pageGone := os.IsNotExist(statErr)
	inSearch, err := containsAnywhere(filepath.Join(s.out, "search"), removeT.ID, removeT.Path)
	if err != nil {
		return err
	}
	searchGone := !inSearch
	inSitemap, err := inSitemaps(s.out, removeT.Path)
	if err != nil {
		return err
	}
	or.PageGone, or.SearchGone = &pageGone, &searchGone
	if sitemapBefore { // a thin page may never have been listed
		sitemapGone := !inSitemap
		or.SitemapGone = &sitemapGone
	}
	s.res.OneRemoved.Runs = append(s.res.OneRemoved.Runs, or)
	s.logf("%s: one-removed %.1f s, %d files changed; page gone %v, search gone %v, in sitemap before %v, after %v", s.label, or.Seconds, nChanged, pageGone, searchGone, sitemapBefore, inSitemap)
	return nil
}
