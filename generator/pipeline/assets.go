package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/errdocs/errdocs/generator/model"
	"github.com/errdocs/errdocs/generator/publish"
	"github.com/errdocs/errdocs/generator/render"
	"github.com/errdocs/errdocs/internal/cachefile"
)

// writeAssets publishes the static assets under static/, each named by a
// hash of its content ("style.css" → "static/style.3f2a9c1b.css") so a host
// can cache them forever. It returns name → published path. The minified
// ones are kept in cacheDir ("": not kept).
func writeAssets(out *publish.Site, static fs.FS, cacheDir string) (map[string]string, error) {
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
		if render.Minified(p) {
			if data, err = minified(cacheDir, static, p, data); err != nil {
				return err
			}
		}
		sum := sha256.Sum256(data)
		ext := path.Ext(p)
		published := model.StaticPath + strings.TrimSuffix(p, ext) + "." + hex.EncodeToString(sum[:4]) + ext
		assets[p] = published
		return out.WriteFile(published, data)
	})
	return assets, err
}

// minified is the asset p (whose file holds src) as published: minified
// by esbuild, or as the last build that minified the same bytes with the
// same binary left it in cacheDir. Minifying the stylesheet and the
// scripts is a fixed cost of every build, on one core while the others
// wait, for bytes that change only with static/ or the binary.
func minified(cacheDir string, static fs.FS, p string, src []byte) ([]byte, error) {
	key, ok := assetKey(p, src)
	file := filepath.Join(cacheDir, assetFile(p))
	if ok && cacheDir != "" {
		if body, err := cachefile.ReadFile(file, assetKind, assetVersion); err == nil && bytes.HasPrefix(body, key[:]) {
			return body[len(key):], nil
		}
	}
	var out []byte
	var err error
	if p == render.StyleName {
		out, err = render.StyleSheet(static)
	} else {
		out, err = render.CompactScript(p, src)
	}
	if err == nil && ok && cacheDir != "" && os.MkdirAll(cacheDir, 0o755) == nil {
		// A file that cannot be kept only costs the next build time.
		cachefile.WriteFile(file, cachefile.Seal(append(append(cachefile.Begin(nil, assetKind, assetVersion), key[:]...), out...)))
	}
	return out, err
}

const (
	assetKind    = "asset"
	assetVersion = 1
)

// assetKey is what a kept asset was made from: the binary (esbuild, the
// highlighter's stylesheet, the rules of minifying), the asset's name and
// its file's bytes. No key without the binary's hash.
func assetKey(p string, src []byte) ([32]byte, bool) {
	bin, err := binaryHash()
	if err != nil {
		return [32]byte{}, false
	}
	h := sha256.New()
	h.Write(bin[:])
	h.Write([]byte(p))
	h.Write([]byte{0})
	h.Write(src)
	return [32]byte(h.Sum(nil)), true
}

// assetFile names the cache file of the asset p: one per asset, so the
// folder holds only the last build's.
func assetFile(p string) string {
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:8])
}
