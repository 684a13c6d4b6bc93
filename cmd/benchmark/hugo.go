package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/errdocs/errdocs/internal/hugobench"
)

// hugoVersion is the Hugo release the comparison is made with: the
// issue's figures were taken with 0.165, and Debian's package (0.111) is
// older than the highlighting options compared.
const hugoVersion = "v0.165.0"

// ensureHugo returns the hugo to compare with: bin when given, else one
// installed under work/bin by an earlier run, else it is installed there
// from the Go module proxy (go install, standard edition: no Sass, which
// the comparison site does not use).
func ensureHugo(bin, work string, logf func(string, ...any)) (string, error) {
	if bin != "" {
		return exec.LookPath(bin)
	}
	dir := filepath.Join(work, "bin")
	p := filepath.Join(dir, "hugo")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	logf("installing hugo %s with go install into %s (a few minutes)", hugoVersion, dir)
	cmd := exec.Command("go", "install", "github.com/gohugoio/hugo@"+hugoVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install hugo: %v\n%s", err, out)
	}
	return p, nil
}

// hugoBench converts the dataset into a Hugo site once, then times a cold
// build (fresh output and cache folders, --ignoreCache) and a second build
// with nothing changed, runs times each.
func hugoBench(dataset, work, hugoBin string, runs int, keep bool, trash *trash, logf func(string, ...any)) (*HugoResults, error) {
	hugo, err := ensureHugo(hugoBin, work, logf)
	if err != nil {
		return nil, err
	}
	h := &HugoResults{}
	if v, err := exec.Command(hugo, "version").Output(); err == nil {
		h.Version = strings.TrimSpace(string(v))
	}
	site := filepath.Join(work, "hugo-site")
	logf("converting the records to Hugo content in %s", site)
	start := time.Now()
	st, err := hugobench.Write(dataset, site, 0)
	if err != nil {
		return nil, err
	}
	h.ContentSeconds = time.Since(start).Seconds()
	h.Pages = st.Records
	logf("wrote %d pages in %.1f s", st.Records, h.ContentSeconds)

	for i := 1; i <= runs; i++ {
		dir := filepath.Join(work, "hugo-runs", strconv.Itoa(i))
		if err := trash.discard(dir); err != nil {
			return nil, err
		}
		if err := trash.discard(filepath.Join(site, "resources")); err != nil {
			return nil, err
		}
		dest := filepath.Join(dir, "public")
		cache := filepath.Join(dir, "cache")
		args := []string{"--quiet", "--source", site, "--destination", dest, "--cacheDir", cache}
		logf("run %d: hugo cold", i)
		cold, _, err := timed(site, hugo, append(args, "--ignoreCache")...)
		if err != nil {
			return nil, err
		}
		h.Cold.Runs = append(h.Cold.Runs, cold)
		before, err := snapshot(dest)
		if err != nil {
			return nil, err
		}
		h.OutputFiles = len(before)
		logf("run %d: hugo cold %.1f s (CPU %.1f s), %d files", i, cold.Seconds, cold.CPUSeconds, len(before))
		nc, _, err := timed(site, hugo, args...)
		if err != nil {
			return nil, err
		}
		after, err := snapshot(dest)
		if err != nil {
			return nil, err
		}
		nc.FilesChanged = len(changed(before, after))
		h.NoChange.Runs = append(h.NoChange.Runs, nc)
		logf("run %d: hugo no-change %.1f s, %d files rewritten", i, nc.Seconds, nc.FilesChanged)
		if !keep {
			if err := trash.discard(dir); err != nil {
				return nil, err
			}
		}
	}
	if !keep {
		trash.discard(filepath.Join(work, "hugo-runs"))
		trash.discard(site)
	}
	h.Cold.summarise()
	h.NoChange.summarise()
	return h, nil
}
