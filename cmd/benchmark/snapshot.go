package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// fileState is what a snapshot keeps of a file.
type fileState struct {
	mtime int64 // nanoseconds
	size  int64
}

// snapshot maps every file under root (slash path relative to root) to its
// mtime and size.
func snapshot(root string) (map[string]fileState, error) {
	snap := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		snap[filepath.ToSlash(rel)] = fileState{fi.ModTime().UnixNano(), fi.Size()}
		return nil
	})
	return snap, err
}

// changed lists, sorted, the files whose mtime or size differ between two
// snapshots, and the files only one of them has.
func changed(before, after map[string]fileState) []string {
	var out []string
	for p, a := range after {
		if b, ok := before[p]; !ok || b != a {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Kinds of output file, as the one-change budget names them.
const (
	kindRecord  = "record page"
	kindRelated = "other record pages"
	kindListing = "listings"
	kindSearch  = "search"
	kindSitemap = "sitemap"
	kindFeed    = "feed"
	kindStatic  = "static"
	kindMarker  = "build marker"
	kindOther   = "other"
)

var kindOrder = []string{kindRecord, kindRelated, kindListing, kindSearch, kindSitemap, kindFeed, kindStatic, kindMarker, kindOther}

// reserved top-level folders of the site that are not owners.
var reserved = map[string]bool{"tags": true, "families": true, "repos": true, "search": true, "static": true, "sitemaps": true}

// classify names the kind of an output path; recordPath is the touched
// record's page folder ("owner/name/slug/").
func classify(p, recordPath string) string {
	parts := strings.Split(p, "/")
	base := parts[len(parts)-1]
	switch {
	case strings.HasPrefix(p, recordPath):
		return kindRecord
	case parts[0] == "search":
		return kindSearch
	case strings.HasPrefix(base, "sitemap") || parts[0] == "sitemaps":
		return kindSitemap
	case p == "feed.xml":
		return kindFeed
	case parts[0] == "static":
		return kindStatic
	case len(parts) == 1 && strings.HasPrefix(base, "."):
		return kindMarker // .errdocs-site, .errdocs-files.gz
	case len(parts) == 4 && base == "index.html" && !reserved[parts[0]] && parts[2] != "page":
		return kindRelated
	case strings.HasSuffix(base, ".html"):
		return kindListing
	}
	return kindOther
}

func kinds(paths []string, recordPath string) map[string]int {
	k := map[string]int{}
	for _, p := range paths {
		k[classify(p, recordPath)]++
	}
	return k
}

// formatKinds writes "record page 1, listings 3, search 2" in a fixed order.
func formatKinds(k map[string]int) string {
	var parts []string
	for _, name := range kindOrder {
		if n := k[name]; n > 0 {
			parts = append(parts, name+" "+itoa(n))
		}
	}
	return strings.Join(parts, ", ")
}

// containsAnywhere says whether any file under dir holds one of needles.
func containsAnywhere(dir string, needles ...string) (bool, error) {
	found := false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || found {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, n := range needles {
			if n != "" && bytes.Contains(data, []byte(n)) {
				found = true
				return filepath.SkipAll
			}
		}
		return nil
	})
	if os.IsNotExist(err) {
		return false, nil
	}
	return found, err
}
