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

	var built atomic.Int64
	total := len(ds.records)
	err = parallel(ctx, total, c.Workers, func(i int) error {
		rec := ds.records[i]
		page, err := r.Record(s, int32(i), rec)
		if err != nil {
			return fmt.Errorf("record %s (%s): %w", rec.ID, rec.Path(), err)
		}
		if err := out.WriteFile(rec.Path()+"index.html", page); err != nil {
			return err
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
	if err := r.Pages(s, out.WriteFile); err != nil {
		return rep, err
	}
	if err := feed.Write(s, feed.Options{BaseURL: c.BaseURL, Title: c.Title, Description: c.Description}, out.WriteFile); err != nil {
		return rep, err
	}
	timer.done("render")

	idx, err := index.Open(filepath.Join(c.CacheDir, "index"))
	if err != nil {
		return rep, err
	}
	defer idx.Close()
	if _, err := idx.Sync(slices.Values(ds.records)); err != nil {
		return rep, err
	}
	timer.done("index")
	unusable := 0
	if _, err := idx.Export(out, index.ExportOptions{Pattern: func(expr string) (json.RawMessage, error) {
		p, err := pattern.Compile(expr)
		if err != nil {
			unusable++
		}
		return p, err
	}}); err != nil {
		return rep, err
	}
	rep.Unusable = unusable
	timer.done("export")

	if err := out.Commit(); err != nil {
		return rep, err
	}
	st := out.Stats()
	rep.Written, rep.Unchanged, rep.Bytes = st.Written, st.Unchanged, st.Bytes
	timer.done("write")
	_ = s
	return rep, nil
}

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
