package e2e

// Quality checks of whole sites built by the real errdocs command (built
// once for the package in TestMain, helpers_test.go):
//
//   - TestQualityValidHTML: the Nu HTML checker (vnu-jar) finds no error in
//     the site of content/, of a hostile dataset, and in a sample of a
//     generated one.
//   - TestQualityAccessible: axe-core finds no WCAG 2 A/AA violation on the
//     main kinds of page, in the light and the dark colour scheme.
//   - TestQualityLinksAndSizes: every internal link and asset resolves,
//     every page is reachable from the home page, the median record page
//     is at most 25 KB and no page exceeds 250 KB, on content/ and on 3000
//     generated records (large repos paginate).
//   - TestQualityHostileMarkup and TestQualityHostileRunsNothing: records
//     carrying markup, script, event handlers, javascript: links and
//     </script> in every string field are shown as text and run nothing,
//     opened in Chromium from file:// and over HTTP.
//   - TestQualityAtomicBuild: a build killed with SIGKILL leaves the previous
//     site byte for byte, and the next build cleans up after it.

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/errdocs/errdocs/internal/browsertest"
	"github.com/errdocs/errdocs/internal/testtools"
)

// --- fixtures shared by the quality tests ---------------------------------

// qualityFixture computes a value once for the whole test binary; a failure
// is reported to every test that asks for it.
type qualityFixture struct {
	once sync.Once
	dir  string
	err  error
}

func (f *qualityFixture) get(t testing.TB, compute func() (string, error)) string {
	t.Helper()
	f.once.Do(func() { f.dir, f.err = compute() })
	if f.err != nil {
		t.Fatal(f.err)
	}
	return f.dir
}

var (
	qualityGencorpusBin qualityFixture
	qualityGenData      qualityFixture
	qualityHostileData  qualityFixture
	qualityContentOut   qualityFixture
	qualityGenOut       qualityFixture
	qualityHostileOut   qualityFixture
)

// qualityTemp returns a new folder under the package's work folder (removed
// when the test binary ends).
func qualityTemp(name string) (string, error) {
	base := workDir
	if base == "" {
		base = os.TempDir()
	}
	if err := os.MkdirAll(filepath.Join(base, "quality"), 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(filepath.Join(base, "quality"), name+"-")
}

// qualityRun runs the errdocs binary in dir (a folder without errdocs.toml)
// and returns its combined output.
func qualityRun(dir string, args ...string) (string, error) {
	cmd := exec.Command(errdocsBin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("errdocs %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// qualityBuild builds the dataset at src into a new folder and returns the
// site's path; the cache and any leftovers live beside it.
func qualityBuild(name, src string, extra ...string) (string, error) {
	dir, err := qualityTemp(name)
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "site")
	args := append([]string{"build", src, "--out", out, "--quiet"}, extra...)
	if _, err := qualityRun(dir, args...); err != nil {
		return "", err
	}
	return out, nil
}

// qualityContentSite is content/ built as the README says.
func qualityContentSite(t testing.TB) string {
	t.Helper()
	root := testtools.ModuleRoot(t)
	return qualityContentOut.get(t, func() (string, error) {
		return qualityBuild("content", filepath.Join(root, "content"))
	})
}

// qualityGenerated is `gencorpus -records 3000 -seed 7`, written by the
// gencorpus command built once.
func qualityGenerated(t testing.TB) string {
	t.Helper()
	root := testtools.ModuleRoot(t)
	bin := qualityGencorpusBin.get(t, func() (string, error) {
		dir, err := qualityTemp("gencorpus")
		if err != nil {
			return "", err
		}
		bin := filepath.Join(dir, "gencorpus")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/gencorpus")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./cmd/gencorpus: %v\n%s", err, out)
		}
		return bin, nil
	})
	return qualityGenData.get(t, func() (string, error) {
		dir, err := qualityTemp("gen3000")
		if err != nil {
			return "", err
		}
		data := filepath.Join(dir, "data")
		cmd := exec.Command(bin, "-records", "3000", "-seed", "7", "-q", data)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("gencorpus -records 3000 -seed 7: %v\n%s", err, out)
		}
		return data, nil
	})
}

// qualityGeneratedSite is the generated dataset built.
func qualityGeneratedSite(t testing.TB) string {
	t.Helper()
	data := qualityGenerated(t)
	return qualityGenOut.get(t, func() (string, error) { return qualityBuild("gen3000-site", data) })
}

// qualityHostileSite is the hostile dataset built with --strict (so every
// hostile record must pass validation) and a base URL (so canonical links,
// the sitemap and the feed carry record text too).
func qualityHostileSite(t testing.TB) string {
	t.Helper()
	data := qualityHostileDataset(t)
	return qualityHostileOut.get(t, func() (string, error) {
		return qualityBuild("hostile-site", data, "--strict", "--base-url", qualityHostileBase)
	})
}

// qualityFiles lists every file under dir, slash-separated and relative.
func qualityFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// --- 1. valid HTML ----------------------------------------------------------

// qualityVNUMessage is one message of the Nu checker's JSON output.
type qualityVNUMessage struct {
	Type        string `json:"type"`
	SubType     string `json:"subType"`
	URL         string `json:"url"`
	LastLine    int    `json:"lastLine"`
	FirstColumn int    `json:"firstColumn"`
	LastColumn  int    `json:"lastColumn"`
	Message     string `json:"message"`
	Extract     string `json:"extract"`
}

// qualityVNU runs the Nu HTML checker on targets (files or folders) and
// returns its messages; it skips the test when Java or vnu-jar is missing,
// except under CI=true.
func qualityVNU(t *testing.T, targets ...string) []qualityVNUMessage {
	t.Helper()
	java, _ := exec.LookPath("java")
	browsertest.Require(t, "java (a JRE, for the Nu HTML checker)", java)
	jar := testtools.VNUJar(t)
	args := append([]string{"-jar", jar, "--errors-only", "--format", "json", "--stdout", "--skip-non-html"}, targets...)
	cmd := exec.Command(java, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var res struct {
		Messages []qualityVNUMessage `json:"messages"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &res); jerr != nil {
		t.Fatalf("vnu: %v (%v)\nstdout: %.2000s\nstderr: %.2000s", err, jerr, stdout.Bytes(), stderr.Bytes())
	}
	if err != nil && len(res.Messages) == 0 {
		t.Fatalf("vnu failed without a message: %v\n%.2000s", err, stderr.Bytes())
	}
	return res.Messages
}

// qualityReportVNU fails the test with one line per message, naming the file
// relative to site.
func qualityReportVNU(t *testing.T, site string, msgs []qualityVNUMessage) {
	t.Helper()
	for _, m := range msgs {
		file := m.URL
		if u, err := url.Parse(m.URL); err == nil && u.Scheme == "file" {
			file = u.Path
		}
		if rel, err := filepath.Rel(site, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
		kind := m.Type
		if m.SubType != "" {
			kind += "/" + m.SubType
		}
		t.Errorf("%s:%d:%d: %s: %s\n\t%q", file, m.LastLine, m.FirstColumn, kind, m.Message, m.Extract)
	}
}

func TestQualityValidHTML(t *testing.T) {
	t.Run("content", func(t *testing.T) {
		site := qualityContentSite(t)
		msgs := qualityVNU(t, site)
		qualityReportVNU(t, site, msgs)
		t.Logf("Nu checker: %d errors over %d HTML files of content/", len(msgs), len(htmlFiles(t, site)))
	})
	t.Run("hostile", func(t *testing.T) {
		site := qualityHostileSite(t)
		msgs := qualityVNU(t, site)
		qualityReportVNU(t, site, msgs)
	})
	t.Run("generated-sample", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds 3000 records: skipped in -short mode")
		}
		// Every kind of page, not all 3600 of them: the home page, the
		// listings, the pages of the largest repo (first and last of its
		// listing) and every 100th record page.
		site := qualityGeneratedSite(t)
		var targets []string
		pages := htmlFiles(t, site)
		for i, p := range pages {
			if strings.Count(p, "/") <= 1 || strings.Contains(p, "/page/") || i%100 == 0 {
				targets = append(targets, filepath.Join(site, filepath.FromSlash(p)))
			}
		}
		if len(targets) > 400 {
			targets = targets[:400]
		}
		msgs := qualityVNU(t, targets...)
		qualityReportVNU(t, site, msgs)
		t.Logf("Nu checker: %d errors over %d of %d HTML files of the generated site", len(msgs), len(targets), len(pages))
	})
}

// --- 2. accessible ----------------------------------------------------------

// qualityAxe returns the axe-core script, skipping the test when it is not
// installed (except under CI=true).
func qualityAxe(t *testing.T) string {
	t.Helper()
	return testtools.Axe(t)
}

// qualitySettled is true once the search page shows the outcome of its
// latest search.
const qualitySettled = `(function(){var a=document.querySelector('[data-search-app]');` +
	`return !!a&&!a.hasAttribute('aria-busy')&&/^(results|empty|error)$/.test(a.getAttribute('data-state')||'')})()`

func TestQualityAccessible(t *testing.T) {
	axe := qualityAxe(t)
	ctx := browsertest.New(t)
	site := qualityContentSite(t)
	base := browsertest.Serve(t, site)
	pages := []string{
		"",
		"repos/",
		"jax-ml/jax/",
		"jax-ml/jax/host-callback-lowering-created-too-many-channels/",
		"search/?q=channels",
		"tags/",
		"tags/jax/",
		"families/",
		"families/resource-limit-exceeded/",
		"404.html",
	}
	for _, p := range pages {
		if _, err := os.Stat(filepath.Join(site, filepath.FromSlash(strings.SplitN(p, "?", 2)[0]))); err != nil {
			t.Errorf("the content site has no %s: %v", p, err)
		}
	}
	for _, scheme := range []string{"light", "dark"} {
		browsertest.ColorScheme(t, ctx, scheme)
		for _, p := range pages {
			browsertest.Navigate(t, ctx, base+p)
			if got := browsertest.Eval[bool](t, ctx, `matchMedia("(prefers-color-scheme: `+scheme+`)").matches`); !got {
				t.Fatalf("the %s colour scheme is not in effect", scheme)
			}
			if strings.HasPrefix(p, "search/") {
				browsertest.WaitFor(t, ctx, qualitySettled, 15*time.Second)
				state := browsertest.Eval[string](t, ctx, `document.querySelector('[data-search-app]').getAttribute('data-state')`)
				n := browsertest.Eval[int](t, ctx, `document.querySelectorAll('#results li.result').length`)
				if state != "results" || n == 0 {
					t.Errorf("/%s: search shows %q with %d results, want results", p, state, n)
				}
			}
			for _, s := range browsertest.AxeViolations(t, ctx, axe) {
				t.Errorf("/%s, %s scheme: %s", p, scheme, s)
			}
		}
	}
}

// --- 3. links and sizes -----------------------------------------------------

// qualityScan returns the URLs of a page's href, src and action attributes
// and its element ids, unescaped. It reads start tags only: text may hold a
// bare " (the highlighter does not escape it) but never a "<" that starts a
// tag, since record text is escaped.
func qualityScan(body []byte) (links, ids []string) {
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	s, n := body, len(body)
	for i := 0; i < n; i++ {
		if s[i] != '<' || i+1 >= n || !letter(s[i+1]) {
			continue
		}
		j := i + 1
		for j < n && !space(s[j]) && s[j] != '>' && s[j] != '/' {
			j++
		}
		for j < n && s[j] != '>' {
			if space(s[j]) || s[j] == '/' {
				j++
				continue
			}
			k := j
			for j < n && !space(s[j]) && s[j] != '=' && s[j] != '>' && s[j] != '/' {
				j++
			}
			name := strings.ToLower(string(s[k:j]))
			for j < n && space(s[j]) {
				j++
			}
			if j >= n || s[j] != '=' {
				continue
			}
			j++
			for j < n && space(s[j]) {
				j++
			}
			var val []byte
			if j < n && (s[j] == '"' || s[j] == '\'') {
				e := bytes.IndexByte(s[j+1:], s[j])
				if e < 0 {
					return links, ids
				}
				val, j = s[j+1:j+1+e], j+e+2
			} else {
				k := j
				for j < n && !space(s[j]) && s[j] != '>' {
					j++
				}
				val = s[k:j]
			}
			switch name {
			case "href", "src", "action":
				links = append(links, html.UnescapeString(string(val)))
			case "id":
				ids = append(ids, html.UnescapeString(string(val)))
			}
		}
		i = j
	}
	return links, ids
}

// qualitySiteCheck is what qualityCheckLinks found.
type qualitySiteCheck struct {
	files   map[string]bool
	pages   []string
	sizes   map[string]int
	reached map[string]bool
}

// qualityResolve turns a link on page p into the file it names (a folder
// means its index.html) and its fragment; ok is false for links that leave
// the site. A link that climbs above the root or does not decode is an
// error.
func qualityResolve(p, link string) (target, frag string, ok bool, err error) {
	if link == "" {
		return "", "", false, errors.New("empty URL")
	}
	if strings.HasPrefix(link, "//") {
		return "", "", false, nil
	}
	if i := strings.IndexAny(link, ":/?#"); i > 0 && link[i] == ':' {
		return "", "", false, nil // another scheme: external
	}
	if strings.HasPrefix(link, "/") {
		return "", "", false, errors.New("root-relative URL: breaks when the site is opened from disk or served under a sub-path")
	}
	rest, frag, _ := strings.Cut(link, "#")
	rest, _, _ = strings.Cut(rest, "?")
	if frag != "" {
		f, err := url.PathUnescape(frag)
		if err != nil {
			return "", "", false, fmt.Errorf("bad fragment: %v", err)
		}
		frag = f
	}
	if rest == "" {
		return p, frag, true, nil
	}
	dec, err := url.PathUnescape(rest)
	if err != nil {
		return "", "", false, fmt.Errorf("bad escape: %v", err)
	}
	joined := path.Join(path.Dir(p), dec)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return "", "", false, errors.New("climbs above the site root")
	}
	if strings.HasSuffix(dec, "/") || joined == "." {
		joined = path.Join(joined, "index.html")
	}
	return strings.TrimPrefix(joined, "./"), frag, true, nil
}

// qualityCheckLinks walks every HTML page of site: each internal link and asset
// resolves to a file (a folder to its index.html), each fragment to an id
// in its target, and each page (but the 404 page) is reachable from the home
// page. It returns the files, pages and sizes for more checks.
func qualityCheckLinks(t *testing.T, site string) qualitySiteCheck {
	t.Helper()
	all := qualityFiles(t, site)
	sc := qualitySiteCheck{files: map[string]bool{}, sizes: map[string]int{}, reached: map[string]bool{}}
	for _, f := range all {
		sc.files[f] = true
		if strings.HasSuffix(f, ".html") {
			sc.pages = append(sc.pages, f)
		}
	}
	ids := map[string]map[string]bool{}
	pageIDs := func(p string, body []byte) map[string]bool {
		if m, ok := ids[p]; ok {
			return m
		}
		if body == nil {
			body, _ = os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
		}
		m := map[string]bool{}
		_, l := qualityScan(body)
		for _, id := range l {
			m[id] = true
		}
		ids[p] = m
		return m
	}
	edges := map[string][]string{}
	broken := 0
	for _, p := range sc.pages {
		body, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		sc.sizes[p] = len(body)
		seen := map[string]bool{}
		links, _ := qualityScan(body)
		for _, link := range links {
			if seen[link] {
				continue
			}
			seen[link] = true
			target, frag, ok, err := qualityResolve(p, link)
			switch {
			case err != nil:
				broken++
				if broken <= 50 {
					t.Errorf("%s: link %q: %v", p, link, err)
				}
				continue
			case !ok:
				continue
			}
			if strings.Contains(link, "ZgotmplZ") {
				broken++
				if broken <= 50 {
					t.Errorf("%s: link %q: html/template rejected the URL as unsafe, so the link leads nowhere (a relative URL whose first segment reads as a scheme?)", p, link)
				}
				continue
			}
			if !sc.files[target] {
				broken++
				if broken <= 50 {
					t.Errorf("%s: broken link %q: no file %s", p, link, target)
				}
				continue
			}
			if frag != "" && strings.HasSuffix(target, ".html") && !pageIDs(target, nil)[frag] {
				broken++
				if broken <= 50 {
					t.Errorf("%s: link %q: %s has no id %q", p, link, target, frag)
				}
			}
			if strings.HasSuffix(target, ".html") {
				edges[p] = append(edges[p], target)
			}
		}
	}
	if broken > 50 {
		t.Errorf("… %d broken links in all", broken)
	}
	// Reachability from the home page.
	queue := []string{"index.html"}
	sc.reached["index.html"] = true
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range edges[p] {
			if !sc.reached[q] {
				sc.reached[q] = true
				queue = append(queue, q)
			}
		}
	}
	var orphans []string
	for _, p := range sc.pages {
		if !sc.reached[p] && p != "404.html" {
			orphans = append(orphans, p)
		}
	}
	if len(orphans) > 0 {
		t.Errorf("%d pages cannot be reached from the home page by following links, e.g. %s", len(orphans), strings.Join(orphans[:min(len(orphans), 10)], ", "))
	}
	return sc
}

// qualityCheckSizes: no page over 250 KB, the median record page at most 25 KB.
func qualityCheckSizes(t *testing.T, sc qualitySiteCheck, recordPages []string) {
	t.Helper()
	for _, p := range sc.pages {
		if sc.sizes[p] > 250*1024 {
			t.Errorf("%s is %d bytes, over 250 KB", p, sc.sizes[p])
		}
	}
	var sizes []int
	for _, p := range recordPages {
		n, ok := sc.sizes[p]
		if !ok {
			t.Errorf("no record page %s", p)
			continue
		}
		sizes = append(sizes, n)
	}
	if len(sizes) == 0 {
		t.Fatal("no record pages")
	}
	slices.Sort(sizes)
	median := sizes[len(sizes)/2]
	t.Logf("%d pages; record pages: %d, median %d bytes, largest %d bytes", len(sc.pages), len(sizes), median, sizes[len(sizes)-1])
	if median > 25*1024 {
		t.Errorf("median record page is %d bytes, over 25 KB", median)
	}
}

func TestQualityLinksAndSizes(t *testing.T) {
	t.Run("content", func(t *testing.T) {
		root := testtools.ModuleRoot(t)
		site := qualityContentSite(t)
		recs, err := loadRecords(filepath.Join(root, "content"))
		if err != nil {
			t.Fatal(err)
		}
		sc := qualityCheckLinks(t, site)
		var recordPages []string
		for i := range recs {
			recordPages = append(recordPages, recs[i].Path()+"index.html")
		}
		qualityCheckSizes(t, sc, recordPages)
	})
	t.Run("generated", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds 3000 records: skipped in -short mode")
		}
		data := qualityGenerated(t)
		site := qualityGeneratedSite(t)
		recs, err := loadRecords(data)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 3000 {
			t.Fatalf("gencorpus wrote %d valid records, want 3000", len(recs))
		}
		sc := qualityCheckLinks(t, site)
		var recordPages []string
		perRepo := map[string]int{}
		for i := range recs {
			recordPages = append(recordPages, recs[i].Path()+"index.html")
			perRepo[recs[i].Repo]++
		}
		qualityCheckSizes(t, sc, recordPages)
		// The largest repo paginates: 100 entries a page by default.
		big, n := "", 0
		for r, c := range perRepo {
			if c > n || c == n && r < big {
				big, n = r, c
			}
		}
		if n <= 100 {
			t.Fatalf("largest generated repo %s has %d records: too few to test pagination", big, n)
		}
		last := (n + 99) / 100
		t.Logf("largest repo %s: %d records, %d listing pages", big, n, last)
		for i := 2; i <= last; i++ {
			if p := fmt.Sprintf("%s/page/%d/index.html", big, i); !sc.files[p] {
				t.Errorf("%s has %d records but no listing page %s", big, n, p)
			}
		}
		if p := fmt.Sprintf("%s/page/%d/index.html", big, last+1); sc.files[p] {
			t.Errorf("%s has %d records but a listing page %s", big, n, p)
		}
	})
	t.Run("hostile", func(t *testing.T) {
		qualityCheckLinks(t, qualityHostileSite(t))
	})
}

// --- 4. hostile records -----------------------------------------------------

// qhPayloads go into every string field of the hostile records.
var qhPayloads = []string{
	`<script>window.__xss=1</script>`,
	`<img src=x onerror="window.__xss=1">`,
	`"><svg onload=window.__xss=1>`,
	`javascript:window.__xss=1`,
	`</script><script>window.__xss=1</script>`,
	`{{.}}`,
	"line\u2028separator\u2029paragraph",
	`</textarea><img src=x onerror=window.__xss=1>`,
	`<style>body{display:none}</style>`,
	`'><img src=x onerror='window.__xss=1'>`,
	`<a href="javascript:window.__xss=1">click</a>`,
	`--><!--<script>window.__xss=1</script>`,
	`<iframe src="javascript:window.__xss=1"></iframe>`,
	`]]><x:script xmlns:x="http://www.w3.org/1999/xhtml">window.__xss=1</x:script>`,
}

// qhMarkdown goes into the Markdown fields besides the payloads.
var qhMarkdown = []string{
	"[x](javascript:window.__xss=1)",
	"[x](JaVaScRiPt:window.__xss=1)",
	"[x](&#106;avascript:window.__xss=1)",
	"[x](java&#x73;cript:window.__xss=1)",
	"[x](<javascript:window.__xss=1>)",
	"[x](javascript&colon;window.__xss=1)",
	"![x](javascript:window.__xss=1)",
	"<javascript:window.__xss=1>",
	"[r][ref]\n\n[ref]: javascript:window.__xss=1",
	"[x](data:text/html,<script>window.__xss=1</script>)",
	"[x](vbscript:window.__xss=1)",
	"<a href=\"javascript:window.__xss=1\">x</a>",
	"<script>window.__xss=1</script>",
	"<div onmouseover=\"window.__xss=1\">hover</div>",
	"```html\n</code></pre><script>window.__xss=1</script>\n```",
	"| a | b |\n|---|---|\n| <img src=x onerror=window.__xss=1> | `</td><script>window.__xss=1</script>` |",
	"- [ ] <svg onload=window.__xss=1>",
	"`<img src=x onerror=window.__xss=1>`",
	"<!-- <script>window.__xss=1</script> -->",
}

// qhRepos: valid repo names (two parts, no white space) that look like
// markup, a javascript: URL, or are full of URL syntax. Each is a name the
// validator takes, so that it reaches every page:
// names a file system cannot hold (<, >, :, ", ?, * and | on Windows) are
// rejected by the path rules (TestReservedAndCollidingNames), so the
// payloads here are made of what is left: entities, quotes, percent
// escapes, template syntax.
var qhRepos = []string{
	"jax-ml/jax",
	"jax-ml/jax",
	"&lt;script&gt;window.__xss=1&lt;/script&gt;",
	"javascript%3Awindow.__xss=1/x",
	`x'onfocus='window.__xss=1'autofocus='/y`,
	"%2e%2e/qa=1#frag",
	"{{.}}/a&amp;b",
}

// qhURLs are the records' githubUrl values (each an absolute URL, as
// the schema wants).
var qhURLs = []string{
	"", // the seed's own
	"javascript:window.__xss=1",
	"JaVaScRiPt:window.__xss=1//https://github.com/",
	"data:text/html,<script>window.__xss=1</script>",
	`https://github.com/x/y/blob/0/"><svg onload=window.__xss=1>`,
	"vbscript:window.__xss=1",
	`https://evil.example/x"onmouseover="window.__xss=1`,
}

// qhRecord is one record of the hostile dataset and what the test
// expects of it.
type qhRecord struct {
	fields map[string]any
	repo   string
	slug   string
	msg    string
}

func (h qhRecord) page() string { return h.repo + "/" + h.slug + "/index.html" }

var (
	qhOnce sync.Once
	qhRecs []qhRecord
)

// qhPay is the text of string field f of record k: two payloads,
// varied per record so that each field carries most payloads over the
// dataset, joined variously (a Markdown block starts at a line start).
func qhPay(k, f int) string {
	P := qhPayloads
	a, b := P[(k+f)%len(P)], P[(k+f+5)%len(P)]
	switch k % 3 {
	case 0:
		return a + " " + b
	case 1:
		return a + "\n" + b
	}
	return fmt.Sprintf("field %d: %s%s", f, a, b)
}

// qhData derives the hostile records from content/'s first jax-ml/jax
// record.
func qhData(t testing.TB) []qhRecord {
	t.Helper()
	root := testtools.ModuleRoot(t)
	qhOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join(root, "content", "repos", "jax-ml", "jax.json"))
		if err != nil {
			return
		}
		var seeds []map[string]any
		if err := json.Unmarshal(b, &seeds); err != nil || len(seeds) == 0 {
			return
		}
		seedJSON, _ := json.Marshal(seeds[0])
		errorTypes := []string{"exception", "error_code", "console", "http", "validation", "panic", "exception"}
		severities := []string{"error", "critical", "warning", "info", "error", "critical", "warning"}
		strategies := []any{"fallback", "try-catch", "type-guard", "validation", "retry", nil, "try-catch"}
		exts := []string{".py", ".html", ".js", ".md", ".svg", "", ".go"}
		for k, repo := range qhRepos {
			var r map[string]any
			json.Unmarshal(seedJSON, &r)
			f := 0
			pay := func() string { f++; return qhPay(k, f) }
			slug := fmt.Sprintf("hostile-%d", k)
			if k == 0 {
				slug = r["slug"].(string)
			}
			r["id"] = fmt.Sprintf("0badc0de%08x", k)
			r["repo"] = repo
			r["slug"] = slug
			r["errorCode"] = pay()
			if k == 2 {
				r["errorCode"] = nil
			}
			msg := pay()
			if k == 0 {
				msg = qhPayloads[0]
			}
			r["errorMessage"] = msg
			r["messagePattern"] = pay()
			r["errorType"] = errorTypes[k]
			r["errorClass"] = pay()
			if k == 3 {
				r["errorClass"] = nil
			}
			r["httpStatus"] = []any{nil, 500, 404}[k%3]
			r["severity"] = severities[k]
			r["filePath"] = pay() + exts[k]
			// The excerpt: every payload a line, and one long line cut
			// in the middle of a payload.
			lines := slices.Clone(qhPayloads)
			lines = append(lines[k:], lines[:k]...)
			lines = append(lines, strings.Repeat("x", 195)+qhPayloads[0]+qhPayloads[1])
			r["sourceCode"] = strings.Join(lines, "\n") + "\n"
			r["sourceCodeStart"] = 10
			r["lineNumber"] = 10 + k
			r["sourceCodeEnd"] = 10 + len(lines) - 1
			if u := qhURLs[k]; u != "" {
				r["githubUrl"] = u
			}
			var doc []string
			doc = append(doc, qhPayloads[k:]...)
			doc = append(doc, qhMarkdown...)
			doc = append(doc, qhPayloads[:k]...)
			r["documentation"] = strings.Join(doc, "\n\n")
			r["triggerScenarios"] = pay()
			r["commonSituations"] = pay()
			r["solutions"] = []string{pay(), pay(), qhMarkdown[k%len(qhMarkdown)]}
			r["exampleFix"] = "# before\n" + pay() + "\n# after\n" + pay()
			r["handlingStrategy"] = strategies[k]
			r["validationCode"] = pay()
			r["typeGuard"] = pay()
			r["tryCatchPattern"] = pay()
			r["preventionTips"] = []string{pay(), pay(), qhMarkdown[(k+1)%len(qhMarkdown)]}
			if k > 0 {
				r["tags"] = []string{"hostile", fmt.Sprintf("hostile-%d", k%3)}
				r["backgroundTag"] = nil
				if k%2 == 1 {
					r["backgroundTag"] = "hostile-family"
				}
			} else {
				r["tags"] = append(r["tags"].([]any), "hostile")
			}
			qhRecs = append(qhRecs, qhRecord{fields: r, repo: repo, slug: slug, msg: msg})
		}
	})
	if len(qhRecs) == 0 {
		t.Fatal("cannot derive hostile records from content/repos/jax-ml/jax.json")
	}
	return qhRecs
}

// qualityHostileDataset writes the hostile dataset: the records, a
// repos.json whose descriptions, languages and branches are payloads, and a
// hostile info article for the family.
func qualityHostileDataset(t testing.TB) string {
	t.Helper()
	recs := qhData(t)
	return qualityHostileData.get(t, func() (string, error) {
		dir, err := qualityTemp("hostile")
		if err != nil {
			return "", err
		}
		data := filepath.Join(dir, "data")
		var records []map[string]any
		counts := map[string]int{}
		var repoOrder, familyIDs []string
		for _, r := range recs {
			records = append(records, r.fields)
			if counts[r.repo] == 0 {
				repoOrder = append(repoOrder, r.repo)
			}
			counts[r.repo]++
			if r.fields["backgroundTag"] == "hostile-family" {
				familyIDs = append(familyIDs, r.fields["id"].(string))
			}
		}
		var repos []map[string]any
		for i, repo := range repoOrder {
			repos = append(repos, map[string]any{
				"repo":          repo,
				"description":   qhPay(i, 20) + "\n\n" + qhMarkdown[i%len(qhMarkdown)],
				"language":      []any{"Python", qhPayloads[0], nil, qhPayloads[2], "JavaScript", qhPayloads[4]}[i%6],
				"stars":         1000 + i,
				"sourceFiles":   nil,
				"defaultBranch": qhPay(i, 21),
				"analyzedSha":   "1e1c6a8fc06dfcd1247076ec5cae4640cea5d7bb",
				"analyzedAt":    "2026-08-27T09:53:25.647Z",
				"errorCount":    counts[repo],
			})
		}
		var doc []string
		doc = append(doc, qhPayloads...)
		doc = append(doc, qhMarkdown...)
		info := map[string]any{
			"slug":          "hostile-family",
			"clusterKey":    "tag:hostile-family",
			"title":         qhPayloads[0],
			"summary":       qhPay(1, 30),
			"background":    strings.Join(doc, "\n\n"),
			"commonCauses":  []map[string]any{{"cause": qhPay(2, 31), "detail": qhPay(3, 32)}, {"cause": qhMarkdown[0], "detail": qhMarkdown[2]}},
			"fixes":         []string{qhPay(4, 33), qhPay(5, 34), qhMarkdown[3]},
			"guideSlugs":    []string{},
			"errorIds":      familyIDs,
			"errorCount":    len(familyIDs),
			"repoCount":     len(familyIDs),
			"generatedAt":   "2026-08-27T13:17:12.746Z",
			"schemaVersion": 1,
		}
		index := []map[string]any{{
			"slug": "hostile-family", "title": qhPayloads[0], "summary": qhPay(1, 30),
			"errorCount": len(familyIDs), "repoCount": len(familyIDs), "generatedAt": "2026-08-27T13:17:12.746Z",
		}}
		for name, v := range map[string]any{
			"records.json":             records,
			"repos.json":               repos,
			"info/hostile-family.json": info,
			"info/index.json":          index,
		} {
			b, err := json.MarshalIndent(v, "", " ")
			if err != nil {
				return "", err
			}
			p := filepath.Join(data, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return "", err
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return "", err
			}
		}
		return data, nil
	})
}

// qhRaw are strings that can appear in an HTML or XML file only if
// record text was written unescaped.
var qhRaw = []string{
	"<script>window.__xss", "<img src=x", "<svg onload", "<svg/onload", "<style>body",
	"</textarea>", "<iframe", `<a href="javascript:`, "<div onmouseover", "<x:script",
	`"onmouseover="`, `'><img`,
}

var qhCDATA = regexp.MustCompile(`(?s)<!\[CDATA\[.*?\]\]>`)

// TestQualityHostileMarkup builds the hostile dataset (every record must
// pass validation) and checks the files without a browser: no payload
// appears unescaped in any HTML or XML file, XML files are well-formed, and
// nothing was written beside the output but the cache.
func TestQualityHostileMarkup(t *testing.T) {
	recs := qhData(t)
	site := qualityHostileSite(t)
	files := qualityFiles(t, site)
	for _, r := range recs {
		if !slices.Contains(files, r.page()) {
			t.Errorf("record %s (%s) has no page %s", r.fields["id"], r.repo, r.page())
		}
	}
	for _, f := range files {
		ext := path.Ext(f)
		if ext != ".html" && ext != ".xml" && ext != ".svg" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if ext != ".html" {
			dec := xml.NewDecoder(bytes.NewReader(b))
			for {
				_, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Errorf("%s: not well-formed XML: %v", f, err)
					break
				}
			}
			s = qhCDATA.ReplaceAllString(s, "")
		}
		for _, raw := range qhRaw {
			if i := strings.Index(s, raw); i >= 0 {
				t.Errorf("%s: record text written unescaped: %q in …%s…", f, raw, s[max(0, i-80):min(len(s), i+80)])
			}
		}
	}
	// Nothing written outside the output folder: beside it only the cache.
	ents, err := os.ReadDir(filepath.Dir(site))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !besideOutputByDesign(e.Name(), "site") {
			t.Errorf("the build wrote %s beside the output folder", e.Name())
		}
	}
}

// qhCheckJS lists what a payload would leave in the page: a run
// payload, event-handler attributes, script URLs, inline or foreign
// scripts, injected elements, a hidden body.
// qualityHostileBase is the hostile site's base URL. Its 404 page, served
// at any path, names its assets by absolute URL under it: those scripts are
// the site's own.
const qualityHostileBase = "https://example.org/errors/"

const qhCheckJS = `(() => {
	const bad = [];
	if (typeof window.__xss !== "undefined") bad.push("a payload ran: window.__xss = " + String(window.__xss));
	const urlAttrs = ["href", "src", "action", "formaction", "xlink:href", "data", "poster", "background", "srcdoc"];
	for (const el of document.querySelectorAll("*")) {
		for (const a of el.attributes) {
			const n = a.name.toLowerCase();
			if (n.startsWith("on")) bad.push("<" + el.localName + "> has an event-handler attribute " + a.name + "=" + JSON.stringify(a.value));
			if (!urlAttrs.includes(n)) continue;
			const v = a.value.replace(/[\u0000-\u0020\u007f-\u00a0]+/g, "").toLowerCase();
			if (/^(javascript|vbscript|livescript):/.test(v)) bad.push("<" + el.localName + " " + a.name + "=" + JSON.stringify(a.value) + ">");
			if (v.startsWith("data:") && el.localName !== "img") bad.push("<" + el.localName + " " + a.name + "=" + JSON.stringify(a.value.slice(0, 80)) + ">");
			if (n === "srcdoc") bad.push("<" + el.localName + "> has srcdoc");
		}
	}
	for (const a of document.querySelectorAll("a[href], area[href]")) {
		if (a.protocol === "javascript:" || a.protocol === "vbscript:" || a.protocol === "data:") bad.push("link to " + a.protocol + " " + JSON.stringify(a.getAttribute("href")));
	}
	for (const s of document.querySelectorAll("script")) {
		if (s.hasAttribute("src")) {
			const u = new URL(s.src, location.href);
			const own = u.protocol === location.protocol && u.host === location.host || u.href.startsWith("` + qualityHostileBase + `static/");
			if (!own || !u.pathname.endsWith(".js")) bad.push("script from " + s.src);
		} else if (/^application\/(ld\+)?json$/i.test(s.type)) {
			try { JSON.parse(s.textContent); } catch (e) { bad.push("a JSON script block does not parse (its text broke out?): " + s.textContent.slice(0, 80)); }
		} else {
			bad.push("inline script: " + JSON.stringify(s.textContent.slice(0, 80)));
		}
	}
	for (const sel of ["style", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "textarea", "meta[http-equiv=refresh i]", "img[src=x]", "link[rel=import i]"]) {
		for (const el of document.querySelectorAll(sel)) bad.push("injected element " + el.outerHTML.slice(0, 100));
	}
	if (document.body && getComputedStyle(document.body).display === "none") bad.push("the body is hidden (injected style)");
	return bad;
})()`

// qualityFileURL is the file:// URL of a path.
func qualityFileURL(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// qualityHTTPURL is the URL of site page rel under base, a folder URL for
// an index.html.
func qualityHTTPURL(base, rel string) string {
	rel = strings.TrimSuffix(rel, "index.html")
	return base + (&url.URL{Path: rel}).EscapedPath()
}

// qhLoad opens u and checks that nothing ran or was injected.
func qhLoad(t *testing.T, ctx context.Context, u, name string, search bool) {
	t.Helper()
	browsertest.Navigate(t, ctx, u)
	if search {
		browsertest.WaitFor(t, ctx, qualitySettled, 15*time.Second)
	}
	// Give load-time handlers (img onerror, svg onload) a moment.
	time.Sleep(150 * time.Millisecond)
	for _, s := range browsertest.Eval[[]string](t, ctx, qhCheckJS) {
		t.Errorf("%s: %s", name, s)
	}
}

// TestQualityHostileRunsNothing opens every page of the hostile site in
// headless Chromium, from file:// and over HTTP, and the search page with
// hostile queries and filters: nothing runs, nothing is injected, and the
// payloads show as text. The page's Content-Security-Policy is bypassed so
// that the test sees what escaping alone does (the CSP is a second line of
// defence; a positive control shows that the checks see a payload run).
func TestQualityHostileRunsNothing(t *testing.T) {
	recs := qhData(t)
	ctx := browsertest.New(t)
	site := qualityHostileSite(t)
	if _, err := chromedp.Call(ctx, page.SetBypassCSP, page.SetBypassCSPParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	base := browsertest.Serve(t, site)

	// Positive control: a page with the site's own CSP and two payloads
	// written raw; the checks must see both.
	home, err := os.ReadFile(filepath.Join(site, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy"[^>]*>`).Find(home)
	if csp == nil {
		t.Error("the home page has no Content-Security-Policy meta element")
	}
	control := t.TempDir()
	os.WriteFile(filepath.Join(control, "index.html"), []byte(`<!doctype html><html lang="en"><head><meta charset="utf-8">`+string(csp)+
		`<title>control</title></head><body><p><img src=x onerror="window.__xss=1"><a href="javascript:window.__xss=2">x</a></p></body></html>`), 0o644)
	browsertest.Navigate(t, ctx, browsertest.Serve(t, control))
	time.Sleep(150 * time.Millisecond)
	if got := browsertest.Eval[[]string](t, ctx, qhCheckJS); len(got) < 3 || !strings.Contains(got[0], "window.__xss = 1") {
		t.Fatalf("positive control: the checks see %q, want a run payload, an onerror attribute and a javascript: link; the test would be blind", got)
	}

	pages := htmlFiles(t, site)
	sort.Strings(pages)
	searches := []string{
		"?q=script",
		"?q=" + url.QueryEscape("<img src=x onerror=window.__xss=1>"),
		"?q=window&repo=" + url.QueryEscape(`"><svg onload=window.__xss=1>`) + "&tag=" + url.QueryEscape("<img src=x onerror=window.__xss=1>") +
			"&severity=" + url.QueryEscape("<script>window.__xss=1</script>") + "&type=" + url.QueryEscape("javascript:window.__xss=1") +
			"&lang=" + url.QueryEscape("</script><script>window.__xss=1</script>"),
	}
	for _, mode := range []string{"file", "http"} {
		t.Run(mode, func(t *testing.T) {
			at := func(rel string) string {
				if mode == "file" {
					return qualityFileURL(filepath.Join(site, filepath.FromSlash(rel)))
				}
				return qualityHTTPURL(base, rel)
			}
			for _, p := range pages {
				qhLoad(t, ctx, at(p), p, false)
			}
			for _, q := range searches {
				qhLoad(t, ctx, at("search/index.html")+q, "search/"+q, true)
			}
			// ?q=script finds the records, whose titles show as text.
			browsertest.Navigate(t, ctx, at("search/index.html")+"?q=script")
			browsertest.WaitFor(t, ctx, qualitySettled, 15*time.Second)
			state := browsertest.Eval[string](t, ctx, `document.querySelector('[data-search-app]').getAttribute('data-state')`)
			text := browsertest.Eval[string](t, ctx, `document.getElementById('results').textContent`)
			if state != "results" {
				t.Errorf("search ?q=script: state %q, want results (%s)", state, browsertest.Eval[string](t, ctx, `document.getElementById('result-count').textContent`))
			} else if !strings.Contains(text, qhPayloads[0]) {
				t.Errorf("search ?q=script: the results do not show %q as text: %.300q", qhPayloads[0], text)
			}
			// Every result links to its record's page.
			browsertest.Navigate(t, ctx, at("search/index.html")+"?q=window")
			browsertest.WaitFor(t, ctx, qualitySettled, 15*time.Second)
			hrefs := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#results a[href]'), a => a.href + "\t" + a.getAttribute("href"))`)
			recordPages := map[string]bool{}
			for _, r := range recs {
				recordPages[r.page()] = true
			}
			found := map[string]bool{}
			for _, h := range hrefs {
				h, attr, _ := strings.Cut(h, "\t")
				u, err := url.Parse(h)
				if err != nil {
					t.Errorf("search ?q=window: result link %q: %v", h, err)
					continue
				}
				rel := u.Path
				if mode == "file" {
					rel = strings.TrimPrefix(rel, filepath.ToSlash(site)+"/")
				} else {
					rel = strings.TrimPrefix(rel, "/")
				}
				if rel == "" || strings.HasSuffix(rel, "/") {
					rel += "index.html"
				}
				if !recordPages[rel] {
					t.Errorf("search ?q=window: a result's link href=%q leads to %s, which is no record page", attr, h)
					continue
				}
				found[rel] = true
			}
			if len(found) < len(recs) {
				t.Errorf("search ?q=window: results link to %d of the %d hostile records (every one mentions window)", len(found), len(recs))
			}
			// The payloads show as text.
			for _, r := range recs {
				browsertest.Navigate(t, ctx, at(r.page()))
				body := browsertest.Eval[string](t, ctx, `document.body.textContent`)
				if !strings.Contains(body, r.msg) {
					t.Errorf("%s: the page's text does not contain the message %q", r.page(), r.msg)
				}
				if c, ok := r.fields["errorClass"].(string); ok && !strings.Contains(body, c) {
					t.Errorf("%s: the page's text does not contain the error class %q", r.page(), c)
				}
			}
			browsertest.Navigate(t, ctx, at(recs[0].page()))
			if h1 := browsertest.Eval[string](t, ctx, `(document.querySelector('h1')||{}).textContent||''`); !strings.Contains(h1, qhPayloads[0]) {
				t.Errorf("%s: the title %q does not show the message %q as text", recs[0].page(), h1, qhPayloads[0])
			}
			// The documentation's raw HTML shows as text.
			if doc := browsertest.Eval[string](t, ctx, `document.body.textContent`); !strings.Contains(doc, `<div onmouseover="window.__xss=1">hover</div>`) {
				t.Errorf("%s: the documentation's raw HTML is not shown as text", recs[0].page())
			}
			for _, r := range recs {
				rp := r.repo + "/index.html"
				browsertest.Navigate(t, ctx, at(rp))
				if body := browsertest.Eval[string](t, ctx, `document.body.textContent`); !strings.Contains(body, r.repo) {
					t.Errorf("%s: the page's text does not contain the repo name %q", rp, r.repo)
				}
			}
			browsertest.Navigate(t, ctx, at("families/hostile-family/index.html"))
			if body := browsertest.Eval[string](t, ctx, `document.body.textContent`); !strings.Contains(body, qhPayloads[0]) {
				t.Errorf("families/hostile-family/: the info article's title %q is not shown as text", qhPayloads[0])
			}
		})
	}
}

// --- 5. atomic build ---------------------------------------------------------

// qualitySnapshot reads every file under dir.
func qualitySnapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." {
				out[rel+"/"] = nil
			}
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// qualitySameSite reports how got differs from want.
func qualitySameSite(t *testing.T, what string, want, got map[string][]byte) {
	t.Helper()
	n := 0
	report := func(format string, args ...any) {
		n++
		if n <= 20 {
			t.Errorf(what+": "+format, args...)
		}
	}
	for p, b := range want {
		g, ok := got[p]
		switch {
		case !ok:
			report("%s is gone", p)
		case !bytes.Equal(g, b):
			report("%s changed", p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			report("%s appeared", p)
		}
	}
	if n > 20 {
		t.Errorf("%s: %d differences in all", what, n)
	}
}

// qualityLeftovers lists the build's temporary folders beside out.
// besideOutputByDesign reports whether name, in the output's parent
// folder, is what a build keeps there: the output, the cache, and their
// lock files.
func besideOutputByDesign(name, out string) bool {
	switch name {
	case out, ".errdocs-cache", "." + out + ".lock", ".errdocs-cache.lock":
		return true
	}
	return false
}

func qualityLeftovers(t *testing.T, out string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Dir(out))
	if err != nil {
		t.Fatal(err)
	}
	var l []string
	for _, e := range ents {
		if n := e.Name(); !besideOutputByDesign(n, filepath.Base(out)) {
			l = append(l, n)
		}
	}
	return l
}

func TestQualityAtomicBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 3000 records: skipped in -short mode")
	}
	root := testtools.ModuleRoot(t)
	data := qualityGenerated(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	if _, err := qualityRun(dir, "build", filepath.Join(root, "content"), "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	before := qualitySnapshot(t, out)

	// A big build into the same folder, killed once it has written a few
	// hundred files into its temporary folder.
	cmd := exec.Command(errdocsBin, "build", data, "--out", out, "--quiet")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	written := func() int {
		n := 0
		for _, l := range qualityLeftovers(t, out) {
			filepath.WalkDir(filepath.Join(dir, l), func(_ string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					n++
				}
				return nil
			})
		}
		return n
	}
	deadline := time.Now().Add(2 * time.Minute)
	var killedAt int
poll:
	for {
		select {
		case err := <-done:
			t.Fatalf("the build of 3000 records ended (%v) before it wrote 300 files beside the output; cannot kill it midway\n%s", err, stderr.Bytes())
		default:
		}
		if n := written(); n >= 300 {
			killedAt = n
			break poll
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			t.Fatalf("the build wrote no 300 files beside %s within two minutes; leftovers: %v", out, qualityLeftovers(t, out))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	err := <-done
	t.Logf("killed the build after %d files were written beside the output (%v); left beside it: %v", killedAt, err, qualityLeftovers(t, out))
	if err == nil {
		t.Fatal("the build finished before it was killed")
	}

	// The previous site is whole, byte for byte, with nothing added.
	qualitySameSite(t, "after a killed build", before, qualitySnapshot(t, out))

	// The next build succeeds, gives the same bytes again, and cleans up.
	if _, err := qualityRun(dir, "build", filepath.Join(root, "content"), "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	qualitySameSite(t, "rebuilt after a killed build", before, qualitySnapshot(t, out))
	if l := qualityLeftovers(t, out); len(l) > 0 {
		t.Errorf("the next build left %v beside the output", l)
	}
}
