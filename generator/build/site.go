package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/errdocs/errdocs/generator/feed"
	"github.com/errdocs/errdocs/generator/index"
	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/generator/markup/markdown"
	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/render"
	"github.com/errdocs/errdocs/generator/site"
	"github.com/errdocs/errdocs/generator/write"
)

// Build runs the whole pipeline and publishes the site. On any error the
// previous site is left as it was.
func Build(ctx context.Context, c Config) (rep *Report, err error) {
	c.defaults()
	rep = &Report{}
	timer := stageTimer{rep: rep, last: time.Now()}

	closeRejects, rejects, err := openRejects(c.RejectsFile)
	if err != nil {
		return rep, err
	}
	defer closeRejects()
	ds, err := load(&c, rep, rejects)
	if err != nil {
		return rep, err
	}
	timer.done("read+validate")
	if c.Strict && (rep.Rejected > 0 || rep.FileErrors > 0) {
		return rep, fmt.Errorf("%d records rejected, %d files unreadable; the previous site is untouched: %w", rep.Rejected, rep.FileErrors, ErrRejected)
	}
	s := ds.builder.Build()
	timer.done("model")

	out, err := write.Begin(c.Out)
	if err != nil {
		return rep, err
	}
	defer func() {
		if err != nil {
			out.Abort()
		}
	}()

	assets, err := writeAssets(out, c.Static)
	if err != nil {
		return rep, err
	}
	hl, err := highlight.New(highlight.Options{CacheDir: filepath.Join(c.CacheDir, "highlight")})
	if err != nil {
		return rep, err
	}
	r, err := render.New(render.Options{
		Templates: c.Templates, Title: c.Title, Description: c.Description,
		BaseURL: c.BaseURL, IndexFile: c.IndexFile, Assets: assets, PerPage: c.PerPage,
		Markdown: markdown.New(), Highlighter: hl,
	})
	if err != nil {
		return rep, err
	}
	timer.done("setup")

	global, gerr := globalKey(&c, assets)
	pcPath := pageCachePath(c.CacheDir, c.Out)
	prev := &pageCache{Entries: map[string]cacheEntry{}}
	if gerr == nil {
		prev = loadPageCache(pcPath)
	}
	// The cache describes the site only if no other build changed it since.
	if marker, ok := out.Previous(); !ok || marker != prev.Marker {
		prev = &pageCache{Entries: map[string]cacheEntry{}}
	}
	next := &pageCache{Entries: map[string]cacheEntry{}}
	var nextMu sync.Mutex
	noteEntry := func(rel string, e cacheEntry) {
		nextMu.Lock()
		next.Entries[rel] = e
		nextMu.Unlock()
	}
	note := func(rel string, kind uint8, key Key) { noteEntry(rel, cacheEntry{Kind: kind, Key: key}) }
	if gerr == nil {
		r.SetCache(newListingCache(global, prev, out, noteEntry))
	}
	timer.done("cache")

	var built, reused atomic.Int64
	total := len(ds.records)
	err = parallel(ctx, total, c.Workers, func(i int) error {
		rec := ds.records[i]
		rel := rec.Path() + "index.html"
		key := recordKey(global, s, int32(i), ds.raws[i])
		note(rel, kindRecord, key)
		if prev.reuse(out, rel, kindRecord, key) {
			reused.Add(1)
		} else {
			page, err := r.Record(s, int32(i), rec)
			if err != nil {
				return fmt.Errorf("record %s (%s): %w", rec.ID, rec.Path(), err)
			}
			if err := out.WriteFile(rel, page); err != nil {
				return err
			}
		}
		if n := built.Add(1); n%500 == 0 {
			c.Progress("render", int(n), total)
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	rep.Built = int(built.Load())
	rep.Reused = int(reused.Load())
	dkey := datasetKey(global, s, ds.raws, ds.extrasKey())
	emitAs := func(kind uint8) func(string, []byte) error {
		return func(rel string, data []byte) error {
			nextMu.Lock()
			// A listing's pages were noted already, with their own key.
			if _, ok := next.Entries[rel]; !ok {
				next.Entries[rel] = cacheEntry{Kind: kind, Key: dkey}
			}
			nextMu.Unlock()
			return out.WriteFile(rel, data)
		}
	}
	// Listings are kept or made one by one through the listing cache; the
	// few other pages and the feeds are made each time, and kept on disk
	// when their bytes did not change.
	if err := r.Pages(s, emitAs(kindPages)); err != nil {
		return rep, err
	}
	if err := feed.Write(s, feed.Options{BaseURL: c.BaseURL, Title: c.Title, Description: c.Description}, emitAs(kindPages)); err != nil {
		return rep, err
	}
	timer.done("render")

	if prev.reuseAll(out, kindExport, dkey) {
		// The dataset is as it was when the search index was last exported,
		// so the index needs no update and the export is kept whole.
		copyKind(prev, next, kindExport)
		rep.Unusable = prev.Unusable
		timer.done("index")
		timer.done("export")
	} else {
		idx, err := index.Open(filepath.Join(c.CacheDir, "index"))
		if err != nil {
			return rep, err
		}
		defer idx.Close()
		if _, err := idx.Sync(slices.Values(ds.records)); err != nil {
			return rep, err
		}
		timer.done("index")
		var unusable atomic.Int64
		if _, err := idx.Export(exportWriter(emitAs(kindExport)), index.ExportOptions{Pattern: func(expr string) (json.RawMessage, error) {
			p, err := pattern.Compile(expr)
			if err != nil {
				unusable.Add(1)
			}
			return p, err
		}}); err != nil {
			return rep, err
		}
		rep.Unusable = int(unusable.Load())
		timer.done("export")
	}
	next.Unusable = rep.Unusable

	for p := range assets {
		note(assets[p], kindAsset, Key{})
	}
	var previous []string
	if len(prev.Entries) > 0 {
		previous = prev.files()
	}
	if err := out.Commit(previous); err != nil {
		return rep, err
	}
	if next.Marker, err = out.Marker(); err != nil {
		return rep, err
	}
	prints := out.Fingerprints()
	for rel, e := range next.Entries {
		fp, ok := prints[rel]
		if !ok {
			delete(next.Entries, rel)
			continue
		}
		e.Print = fp
		next.Entries[rel] = e
	}
	if gerr == nil {
		// A cache that cannot be saved only costs the next build time.
		if err := savePageCache(pcPath, next); err != nil {
			c.Problem("page cache: " + err.Error())
		}
	}
	st := out.Stats()
	rep.Written, rep.Unchanged, rep.Removed, rep.Bytes, rep.Publish = st.Written, st.Unchanged, st.Removed, st.Bytes, st.Mode
	timer.done("write")
	return rep, nil
}

// copyKind carries the entries of files kept whole into the next cache.
func copyKind(prev, next *pageCache, kind uint8) {
	for rel, e := range prev.Entries {
		if e.Kind == kind {
			next.Entries[rel] = e
		}
	}
}

// exportWriter adapts an emit function to the search export's writer.
type exportWriter func(string, []byte) error

func (w exportWriter) WriteFile(rel string, data []byte) error { return w(rel, data) }

type stageTimer struct {
	rep  *Report
	last time.Time
}

func (t *stageTimer) done(name string) {
	now := time.Now()
	t.rep.Stages = append(t.rep.Stages, Stage{name, now.Sub(t.last)})
	t.last = now
}

// writeAssets publishes the static assets under static/, each named by a
// hash of its content ("style.css" → "static/style.3f2a9c1b.css") so a host
// can cache them forever. It returns name → published path.
func writeAssets(out *write.Site, static fs.FS) (map[string]string, error) {
	assets := map[string]string{}
	if static == nil {
		return assets, nil
	}
	err := fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		if p == render.StyleName {
			if data, err = render.StyleSheet(static); err != nil {
				return err
			}
		}
		sum := sha256.Sum256(data)
		ext := path.Ext(p)
		published := site.StaticPath + strings.TrimSuffix(p, ext) + "." + hex.EncodeToString(sum[:4]) + ext
		assets[p] = published
		return out.WriteFile(published, data)
	})
	return assets, err
}
