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

// ensureHugo finds hugo, installing Debian's package if it is missing.
func ensureHugo(logf func(string, ...any)) (string, error) {
	if p, err := exec.LookPath("hugo"); err == nil {
		return p, nil
	}
	logf("hugo not found: installing it with apt-get")
	var sudo []string
	if os.Geteuid() != 0 {
		sudo = []string{"sudo", "-n"}
	}
	for _, args := range [][]string{{"apt-get", "update"}, {"apt-get", "install", "-y", "hugo"}} {
		args = append(append([]string(nil), sudo...), args...)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return exec.LookPath("hugo")
}

// hugoBench converts the dataset into a Hugo site once, then times a cold
// build (fresh output and cache folders, --ignoreCache) and a second build
// with nothing changed, runs times each.
func hugoBench(dataset, work string, runs int, keep bool, logf func(string, ...any)) (*HugoResults, error) {
	hugo, err := ensureHugo(logf)
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
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		if err := os.RemoveAll(filepath.Join(site, "resources")); err != nil {
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
		logf("run %d: hugo cold %.1f s, %d files", i, cold.Seconds, len(before))
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
			if err := os.RemoveAll(dir); err != nil {
				return nil, err
			}
		}
	}
	if !keep {
		os.RemoveAll(filepath.Join(work, "hugo-runs"))
		os.RemoveAll(site)
	}
	h.Cold.summarise()
	h.NoChange.summarise()
	return h, nil
}
