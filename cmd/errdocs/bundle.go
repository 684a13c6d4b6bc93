package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/errdocs/errdocs/generator/pipeline"
	"github.com/errdocs/errdocs/generator/publish"
)

// bundleTime is the timestamp of every file in an archive, so the same
// input gives the same archive bytes.
var bundleTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func cmdBundle(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f siteFlags
	fs := newFlagSet("bundle", "Usage: errdocs bundle [PATH...] --out FILE\n\nBuilds an offline bundle: one archive (.zip, or .tar.gz / .tgz by the name's ending) that,\nunpacked anywhere and opened by double-clicking index.html, works with no network at all,\nsearch included.", stderr)
	f.register(fs, "")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	archive := f.out
	if archive == "" {
		return errUsage{"--out FILE is required (an archive name ending in .zip, .tar.gz or .tgz)"}
	}
	format := archiveFormat(archive)
	if format == "" {
		return errUsage{fmt.Sprintf("--out %s: the name must end in .zip, .tar.gz or .tgz", archive)}
	}
	tmp, err := os.MkdirTemp("", "errdocs-bundle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	f.out = filepath.Join(tmp, "site")
	c, err := f.config(fs, paths, stderr)
	if err != nil {
		return err
	}
	if f.cache == "" {
		// The bundle's own cache lives beside the archive, so a second
		// bundle of the same dataset reuses its highlighting.
		c.CacheDir = filepath.Join(filepath.Dir(archive), ".errdocs-cache")
	}
	// The archive is locked as the output is: two bundles into one file
	// would write it at once.
	if err := checkArchive(archive, c.WithDefaults().Paths); err != nil {
		return err
	}
	release, err := lockSite(pipeline.Config{Out: archive, CacheDir: c.CacheDir, Paths: c.Paths}, describe("bundle", pipeline.Config{Out: archive}))
	if err != nil {
		return err
	}
	defer release()
	c.IndexFile = true
	// A bundle is opened from disk, never at the base URL: with one, the
	// 404 page would load its style from the hosted site and link there
	// (it uses absolute URLs), and the sitemaps and feed would describe
	// the hosted site, not the bundle. A base URL from the config file or
	// --base-url is for hosted builds; the bundle is built without it.
	c.BaseURL = ""
	bar := newProgress(stderr, f.quiet)
	c.Progress = bar.update
	start := time.Now()
	rep, err := pipeline.Build(ctx, c)
	bar.clear()
	if err != nil {
		return err
	}
	if err := writeArchive(f.out, archive, format); err != nil {
		return err
	}
	if f.stats {
		printStats(stdout, rep)
	}
	if !f.quiet {
		fmt.Fprintf(stdout, "errdocs: read %d records, built %d, rejected %d → %s (%s)\n",
			rep.Read, rep.Built, rep.Rejected, archive, time.Since(start).Round(time.Millisecond))
	}
	return nil
}

func archiveFormat(name string) string {
	switch n := strings.ToLower(name); {
	case strings.HasSuffix(n, ".zip"):
		return "zip"
	case strings.HasSuffix(n, ".tar.gz"), strings.HasSuffix(n, ".tgz"):
		return "tar.gz"
	}
	return ""
}

// writeArchive packs the folder dir into the archive, written beside it
// first and renamed into place so a failure leaves no half archive.
func writeArchive(dir, archive, format string) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(archive), "."+filepath.Base(archive)+".tmp-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	var files []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			if rel != publish.Marker && rel != publish.FileList {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	switch format {
	case "zip":
		err = writeZip(tmp, dir, files)
	default:
		err = writeTarGz(tmp, dir, files)
	}
	if err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), archive)
}

func writeZip(w io.Writer, dir string, files []string) error {
	z := zip.NewWriter(w)
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		fw, err := z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: bundleTime})
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
	}
	return z.Close()
}

func writeTarGz(w io.Writer, dir string, files []string) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: bundleTime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}
