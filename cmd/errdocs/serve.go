package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/errdocs/errdocs/generator/pipeline"
)

// liveReloadJS is served at /_errdocs/livereload.js and injected into every
// HTML page the preview server sends. It is a file, not an inline script,
// so the pages' Content-Security-Policy (script-src 'self') allows it.
//
// The page's script URL carries the number of the build the page came
// from, and the server sends the current number when the page connects and
// after each rebuild. The page reloads when they differ, so a rebuild that
// ends between the page's load and its connection is not missed.
const liveReloadJS = `(function () {
  var src = document.currentScript && document.currentScript.src || "";
  var m = /[?&]build=(\d+)/.exec(src);
  var built = m ? m[1] : "";
  var es = new EventSource("/_errdocs/events");
  es.onmessage = function (e) {
    var n = /^build (\d+)$/.exec(e.data);
    if (n && n[1] !== built) { es.close(); location.reload(); }
  };
})();
`

// liveReloadTag is the script element injected into pages of build n.
func liveReloadTag(n int64) []byte {
	return []byte(`<script src="/_errdocs/livereload.js?build=` + strconv.FormatInt(n, 10) + `"></script>`)
}

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f siteFlags
	fs := newFlagSet("serve", "Usage: errdocs serve [PATH...] [flags]\n\nBuilds the site, serves it on 127.0.0.1, rebuilds when records, templates or the config\nchange, and reloads open pages.", stderr)
	f.register(fs, "")
	port := fs.Int("port", 1313, "TCP `port` to listen on (0 picks a free one)")
	poll := fs.Duration("poll", 500*time.Millisecond, "how often to look for changes")
	paths, err := parse(fs, args)
	if err != nil {
		return err
	}
	if f.out == "" {
		tmp, err := os.MkdirTemp("", "errdocs-serve-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		f.out = filepath.Join(tmp, "site")
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close()
	base := "http://" + ln.Addr().String() + "/"
	c, err := f.config(fs, paths, stderr)
	if err != nil {
		return err
	}
	// The preview is served here, whatever base URL the config names for
	// the hosted site: with that one, the 404 page (whose links are
	// absolute) would load its style from and link to the hosted site, and
	// canonical links would leave the preview. hugo server does the same.
	c.BaseURL = base
	c.IndexFile = false // served over HTTP: folder links work
	if len(c.Paths) == 0 {
		c.Paths = []string{"content"}
	}
	// The output and the cache are held for as long as the preview runs:
	// it rebuilds into them whenever the records change.
	release, err := lockSite(c, describe("serve", c))
	if err != nil {
		return err
	}
	defer release()
	rebuild := func() {
		start := time.Now()
		rep, err := pipeline.Build(ctx, c)
		if err != nil {
			fmt.Fprintf(stderr, "errdocs serve: build failed, still serving the last good site: %v\n", err)
			return
		}
		fmt.Fprintf(stdout, "errdocs: built %d records, rejected %d (%s)\n", rep.Built, rep.Rejected, time.Since(start).Round(time.Millisecond))
	}
	hub := newReloadHub()
	rebuild()
	srv := &http.Server{Handler: previewHandler(f.out, hub), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	fmt.Fprintf(stdout, "errdocs: serving %s at %s (Ctrl+C to stop)\n", c.Out, base)

	watched := append(append([]string{}, c.Paths...), f.site.config)
	if f.templates != "" {
		watched = append(watched, f.templates)
	}
	last := fingerprint(watched)
	tick := time.NewTicker(*poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			hub.close()
			srv.Shutdown(shut)
			return nil
		case <-tick.C:
			if now := fingerprint(watched); now != last {
				last = now
				fmt.Fprintln(stdout, "errdocs: change detected, rebuilding")
				rebuild()
				// Reload after a failed build too: the page then shows
				// the last good site, and the terminal says what failed.
				hub.broadcast()
			}
		}
	}
}

// fingerprint summarises the names, sizes and modification times of every
// file under the watched paths; polling it needs no OS-specific watcher and
// sees changes on every file system.
func fingerprint(paths []string) string {
	var b strings.Builder
	for _, p := range paths {
		filepath.WalkDir(p, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && strings.HasPrefix(d.Name(), ".") && d.Name() != "." {
				return filepath.SkipDir
			}
			if fi, err := d.Info(); err == nil && !d.IsDir() {
				fmt.Fprintf(&b, "%s\x00%d\x00%d\n", p, fi.Size(), fi.ModTime().UnixNano())
			}
			return nil
		})
	}
	return b.String()
}

// reloadHub tells every open page to reload, over server-sent events. It
// counts builds, so a page can tell whether it is out of date.
type reloadHub struct {
	mu      sync.Mutex
	clients map[chan struct{}]bool
	build   int64
}

func newReloadHub() *reloadHub { return &reloadHub{clients: map[chan struct{}]bool{}} }

// current is the number of the build being served.
func (h *reloadHub) current() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.build
}

// broadcast announces a new build to every open page.
func (h *reloadHub) broadcast() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.build++
	for c := range h.clients {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

func (h *reloadHub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		close(c)
		delete(h.clients, c)
	}
}

func (h *reloadHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	c := make(chan struct{}, 1)
	h.mu.Lock()
	h.clients[c] = true
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.clients, c)
		h.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, "data: build %d\n\n", h.current())
	fl.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case _, open := <-c:
			if !open {
				return
			}
			fmt.Fprintf(w, "data: build %d\n\n", h.current())
			fl.Flush()
		}
	}
}

// previewHandler serves the site folder as a host would: index.html for
// folders, the 404 page with status 404, correct content types and gzip,
// with the live-reload script injected into HTML.
func previewHandler(root string, hub *reloadHub) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/_errdocs/events", hub)
	mux.HandleFunc("/_errdocs/livereload.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		io.WriteString(w, liveReloadJS)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		name := path.Clean("/" + r.URL.Path)
		file := filepath.Join(root, filepath.FromSlash(name))
		status := http.StatusOK
		fi, err := os.Stat(file)
		if err == nil && fi.IsDir() {
			if !strings.HasSuffix(r.URL.Path, "/") {
				// Keep the query: /search?q=x must still search.
				to := path.Clean("/"+r.URL.EscapedPath()) + "/"
				if r.URL.RawQuery != "" {
					to += "?" + r.URL.RawQuery
				}
				http.Redirect(w, r, to, http.StatusMovedPermanently)
				return
			}
			file = filepath.Join(file, "index.html")
			fi, err = os.Stat(file)
		}
		if err != nil || fi.IsDir() {
			status = http.StatusNotFound
			file = filepath.Join(root, "404.html")
		}
		data, err := os.ReadFile(file)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		ctype := mime.TypeByExtension(filepath.Ext(file))
		if ctype == "" {
			ctype = http.DetectContentType(data)
		}
		// frame-ancestors is ignored in a <meta> policy (CSP 3): only a
		// header can keep another site from framing the pages, so the
		// preview sends it, as a host should (see the README).
		w.Header().Set("Content-Security-Policy", "frame-ancestors 'none'")
		w.Header().Set("X-Frame-Options", "DENY")
		if strings.HasPrefix(ctype, "text/html") {
			if i := bytes.LastIndex(data, []byte("</body>")); i >= 0 {
				data = append(data[:i:i], append(liveReloadTag(hub.current()), data[i:]...)...)
			}
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") && compressible(ctype) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Add("Vary", "Accept-Encoding")
			w.WriteHeader(status)
			gz := gzip.NewWriter(w)
			gz.Write(data)
			gz.Close()
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(status)
		w.Write(data)
	})
	return mux
}

func compressible(ctype string) bool {
	for _, p := range []string{"text/", "application/javascript", "application/json", "application/xml", "image/svg+xml", "application/atom+xml", "application/opensearchdescription+xml"} {
		if strings.HasPrefix(ctype, p) {
			return true
		}
	}
	return false
}
