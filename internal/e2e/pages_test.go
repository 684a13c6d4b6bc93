package e2e

// Tests of what a reader of a page gets (issue 13), in headless Chromium on
// sites built by the real errdocs command:
//
//   - TestDiskSite: a plain build (no base URL) works opened from disk:
//     every link names a file, and home → repo → record → tag → family →
//     search → a result, all by clicking from file://, never lands on a
//     folder listing; with --base-url links stay folder links.
//   - TestRecordPage: copy buttons put exactly the code on the clipboard;
//     headings link to themselves; "On this page" lists the sections;
//     #L<n> scrolls to and marks the line; the theme button's choice
//     survives a reload and is the first paint's; printed, no code line is
//     wider than the page; the report link; the phone layout; the page
//     weight; and screenshots (1280×900 and 390×844, light and dark) saved
//     for the developer to look at.

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/errdocs/errdocs/generator/markup/highlight"
	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/browsertest"
)

// plainSite builds the sample dataset as the README's first command does:
// no base URL, no config file.
func plainSite(t *testing.T, extra ...string) string {
	t.Helper()
	data, _ := sampleData(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	runErrdocs(t, dir, append([]string{"build", data, "--out", out, "--quiet"}, extra...)...)
	return out
}

func TestDiskSite(t *testing.T) {
	site := plainSite(t)
	t.Run("links", func(t *testing.T) { checkBundleLinks(t, site) })
	t.Run("hosted-links-stay-folders", func(t *testing.T) {
		hosted := plainSite(t, "--base-url", "https://example.org/errors/")
		b, err := os.ReadFile(filepath.Join(hosted, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		folders, files := 0, 0
		for _, u := range pageLinks(b) {
			switch {
			case external(u) || strings.HasPrefix(u, "#"):
			case strings.HasSuffix(u, "/index.html") || u == "index.html":
				files++
			case strings.HasSuffix(u, "/"):
				folders++
			}
		}
		if files > 0 || folders == 0 {
			t.Errorf("with --base-url the home page links to %d folders and %d index.html files; want folder links only", folders, files)
		}
	})
	t.Run("click-through", func(t *testing.T) { clickThrough(t, site) })
}

// onPage is true when the tab shows one of our pages, not a listing.
const onPage = `document.readyState === "complete" && !!document.querySelector("main#main") && !/^Index of /.test(document.title) && /\.html$/.test(location.pathname)`

// clickTo clicks the element sel and waits for the next page to load.
func clickTo(t *testing.T, ctx context.Context, sel, what string) string {
	t.Helper()
	before := browsertest.Eval[string](t, ctx, `location.href`)
	if !browsertest.Eval[bool](t, ctx, `!!document.querySelector(`+jsString(sel)+`)`) {
		t.Fatalf("%s: no %s on %s", what, sel, before)
	}
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 20*time.Second),
		chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		t.Fatalf("%s: click %s on %s: %v", what, sel, before, err)
	}
	browsertest.WaitFor(t, ctx, `location.href !== `+jsString(before)+` && `+onPage, 20*time.Second)
	now := browsertest.Eval[string](t, ctx, `location.href`)
	t.Logf("%s: %s", what, now)
	return now
}

// clickThrough walks the plain site from file:// by clicking: home → repo
// → record → tag → family → search → a result.
func clickThrough(t *testing.T, site string) {
	ctx := browsertest.New(t, browsertest.Options{Offline: true})
	browsertest.Navigate(t, ctx, "file://"+filepath.ToSlash(site)+"/index.html")
	browsertest.WaitFor(t, ctx, onPage, 10*time.Second)
	clickTo(t, ctx, `main .groups a[href$="/index.html"]`, "home → repo")
	clickTo(t, ctx, `main ol.list a[href$="/index.html"]`, "repo → record")
	clickTo(t, ctx, `main ul.tags a`, "record → tag")
	clickTo(t, ctx, `main ol.list a[href$="/index.html"]`, "tag → record")
	// A record with a family: the second record of the tag if the first
	// has none is not guaranteed, so go through the families index.
	clickTo(t, ctx, `footer a[href$="families/index.html"]`, "record → families")
	clickTo(t, ctx, `main .groups a[href$="/index.html"]`, "families → family")
	word := browsertest.Eval[string](t, ctx, `(document.querySelector("main ol.list a")||{}).textContent.split(/\W+/).filter(function(w){return w.length>5})[0]||""`)
	if word == "" {
		t.Fatal("the family page lists no record with a word to search for")
	}
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second),
		chromedp.SendKeys(chromedp.CSS(`#site-q`), word)); err != nil {
		t.Fatal(err)
	}
	clickTo(t, ctx, `header form[role=search] button[type=submit]`, "family → search for "+word)
	browsertest.WaitFor(t, ctx, `document.querySelectorAll("#results li a[href]").length > 0`, 20*time.Second)
	href := clickTo(t, ctx, `#results li a[href]`, "search → result")
	if !strings.HasPrefix(href, "file://") || !strings.HasSuffix(href, "/index.html") {
		t.Errorf("the result opened %s, not a page file", href)
	}
	if h1 := browsertest.Eval[string](t, ctx, `(document.querySelector("h1")||{}).textContent||""`); h1 == "" {
		t.Error("the result's page has no heading")
	}
}

// withLine picks a record with a source excerpt, a raising line inside it
// and several sections: the page the record tests look at.
func withLine(recs []record.Record) (record.Record, bool) {
	best, found := record.Record{}, false
	for _, r := range recs {
		if r.SourceCode == "" || r.LineNumber <= r.SourceCodeStart || r.ExampleFix == "" || len(r.PreventionTips) == 0 {
			continue
		}
		if !found || len(r.SourceCode) > len(best.SourceCode) {
			best, found = r, true
		}
	}
	return best, found
}

func TestRecordPage(t *testing.T) {
	_, recs := sampleData(t)
	rec, ok := withLine(recs)
	if !ok {
		t.Fatal("no sample record has an excerpt, a raising line, an example fix and tips")
	}
	site := plainSite(t, "--report-url", "https://github.com/o/r/issues/new?title={title}&body={url}%20({id},%20{repo})")
	file := "file://" + filepath.ToSlash(site) + "/" + rec.Path() + "index.html"
	ctx := browsertest.New(t)
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted}); err != nil {
			t.Fatal(err)
		}
	}
	// Headless tabs are not focused; the clipboard and :focus-visible
	// need a focused document.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	browsertest.Viewport(t, ctx, 1280, 900)
	browsertest.Navigate(t, ctx, file)

	t.Run("copy", func(t *testing.T) { checkCopy(t, ctx, rec) })
	t.Run("headings-and-contents", func(t *testing.T) { checkHeadings(t, ctx) })
	t.Run("line-anchor", func(t *testing.T) { checkLineAnchor(t, ctx, file, rec) })
	t.Run("upstream-links", func(t *testing.T) { checkUpstream(t, ctx, rec) })
	t.Run("report-link", func(t *testing.T) {
		href := browsertest.Eval[string](t, ctx, `(function(){var a=Array.from(document.querySelectorAll("main a")).find(function(a){return a.textContent==="Report a problem with this page"});return a?a.href:""})()`)
		u, err := url.Parse(href)
		if err != nil || href == "" {
			t.Fatalf("no report link (%q, %v)", href, err)
		}
		q := u.Query()
		if title := q.Get("title"); !strings.Contains(title, rec.Repo) || !strings.HasPrefix(title, strings.Fields(rec.ErrorMessage)[0]) {
			t.Errorf("report title %q: want the page's title (message — repo)", title)
		}
		if body := q.Get("body"); body != rec.Path()+" ("+rec.ID+", "+rec.Repo+")" {
			t.Errorf("report body %q: want %q", body, rec.Path()+" ("+rec.ID+", "+rec.Repo+")")
		}
	})
	t.Run("theme", func(t *testing.T) { checkTheme(t, ctx, file) })
	t.Run("print", func(t *testing.T) { checkPrint(t, ctx, file) })
	t.Run("phone", func(t *testing.T) { checkPhone(t, ctx, file, rec) })
	t.Run("home", func(t *testing.T) { checkHome(t, ctx, site, len(recs)) })
	t.Run("weight", func(t *testing.T) { checkWeight(t, site) })
	t.Run("screenshots", func(t *testing.T) { screenshots(t, ctx, site, rec) })
}

// checkCopy clicks each code block's copy button and compares the
// clipboard with the record's code: the excerpt without numbers or marker.
func checkCopy(t *testing.T, ctx context.Context, rec record.Record) {
	n := browsertest.Eval[int](t, ctx, `document.querySelectorAll("main pre").length`)
	buttons := browsertest.Eval[int](t, ctx, `document.querySelectorAll("main .code-wrap > button.copy").length`)
	if n == 0 || buttons != n {
		t.Fatalf("%d code blocks, %d copy buttons", n, buttons)
	}
	// The excerpt as the page shows it: lines longer than the highlighter
	// prints whole are cut (the page says so; the note is not copied).
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(rec.SourceCode, "\r\n", "\n"), "\n"), "\n")
	for i, l := range lines {
		if r := []rune(l); len(r) > highlight.DefaultMaxLineLen {
			lines[i] = string(r[:highlight.DefaultMaxLineLen])
		}
	}
	want := map[int]string{0: strings.Join(lines, "\n")}
	for k := 0; k < n; k++ {
		browsertest.Eval[bool](t, ctx, `navigator.clipboard.writeText("").then(function(){return true})`)
		// Keyboard: focus the button and press Enter, as a keyboard user does.
		browsertest.Eval[bool](t, ctx, fmt.Sprintf(`(document.querySelectorAll("main button.copy")[%d].focus(), true)`, k))
		if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second), chromedp.KeyEvent("\r")); err != nil {
			t.Fatal(err)
		}
		browsertest.WaitFor(t, ctx, fmt.Sprintf(`document.querySelectorAll("main button.copy")[%d].textContent === "Copied"`, k), 5*time.Second)
		got := browsertest.Eval[string](t, ctx, `navigator.clipboard.readText()`)
		shown := browsertest.Eval[string](t, ctx, fmt.Sprintf(`document.querySelectorAll("main pre")[%d].innerText`, k))
		if w, ok := want[k]; ok && got != w {
			i := 0
			for i < len(got) && i < len(w) && got[i] == w[i] {
				i++
			}
			t.Errorf("block %d: the clipboard differs from the record's code at byte %d: %q, want %q", k, i, clip(got[i:]), clip(w[i:]))
		}
		if got == "" || strings.Contains(got, "▶") || regexp.MustCompile(`(?m)^\s*\d+\s{2,}`).MatchString(got) && !regexp.MustCompile(`(?m)^\s*\d+\s{2,}`).MatchString(shown) {
			t.Errorf("block %d: clipboard %q is empty or holds line numbers or the marker", k, clip(got))
		}
	}
	browsertest.WaitFor(t, ctx, `(document.querySelector(".copy-status[role=status]")||{}).textContent === "Copied"`, 5*time.Second)
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// checkHeadings: every section heading links to itself, shows its # on
// focus, and "On this page" lists exactly the sections, in order.
func checkHeadings(t *testing.T, ctx context.Context) {
	bad := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("main h2")).filter(function(h){
		var a=h.querySelector("a.anchor");return !h.id||!a||a.getAttribute("href")!=="#"+h.id}).map(function(h){return h.textContent})`)
	if len(bad) > 0 {
		t.Errorf("headings without a link to themselves: %q", bad)
	}
	toc := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("nav.toc a")).map(function(a){return a.getAttribute("href")})`)
	heads := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("main h2[id]")).map(function(h){return "#"+h.id})`)
	if strings.Join(toc, " ") != strings.Join(heads, " ") || len(toc) < 4 {
		t.Errorf("On this page lists %q; the sections are %q", toc, heads)
	}
	// Wide screen: the contents are shown (not folded) and stay in view
	// while the page scrolls.
	if !browsertest.Eval[bool](t, ctx, `document.querySelector("nav.toc li a").checkVisibility()`) {
		t.Error("at 1280 px the contents are folded away")
	}
	top := browsertest.Eval[float64](t, ctx, `(window.scrollTo(0, document.body.scrollHeight/2), new Promise(function(r){requestAnimationFrame(function(){r(document.querySelector("nav.toc").getBoundingClientRect().top)})}))`)
	if top < 0 || top > 100 {
		t.Errorf("scrolled half way, the contents' top is at %.0f px: not sticky", top)
	}
	browsertest.Eval[bool](t, ctx, `(window.scrollTo(0,0), true)`)
	// The # shows on keyboard focus: its pseudo-element becomes opaque.
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second), chromedp.Focus(chromedp.CSS(`main h2 a.anchor`))); err != nil {
		t.Fatal(err)
	}
	browsertest.Eval[bool](t, ctx, `(document.querySelector("main h2 a.anchor").focus({focusVisible:true}), true)`)
	op := browsertest.Eval[string](t, ctx, `getComputedStyle(document.querySelector("main h2 a.anchor"), "::after").opacity`)
	if op != "1" {
		t.Errorf("a focused heading link's # has opacity %s", op)
	}
	// Clicking a contents entry goes to its heading.
	last := heads[len(heads)-1]
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second), chromedp.Click(chromedp.CSS(`nav.toc a[href="`+last+`"]`))); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitFor(t, ctx, `location.hash === `+jsString(last)+` && (function(r){return r.top >= 0 && r.bottom <= innerHeight})(document.querySelector(`+jsString(last)+`).getBoundingClientRect())`, 5*time.Second)
}

// checkLineAnchor opens #L<line> and checks that the line is in view and
// marked, and that the raising line's number links to itself.
func checkLineAnchor(t *testing.T, ctx context.Context, file string, rec record.Record) {
	id := fmt.Sprintf("L%d", rec.LineNumber)
	browsertest.Navigate(t, ctx, "about:blank")
	browsertest.Navigate(t, ctx, file+"#"+id)
	browsertest.WaitFor(t, ctx, `document.getElementById(`+jsString(id)+`) !== null`, 5*time.Second)
	r := browsertest.Eval[[]float64](t, ctx, `(function(){var b=document.getElementById(`+jsString(id)+`).getBoundingClientRect();return [b.top,b.bottom,innerHeight]})()`)
	if r[0] < 0 || r[1] > r[2] {
		t.Errorf("#%s: the line is at %.0f–%.0f px, outside the %.0f px window", id, r[0], r[1], r[2])
	}
	if !browsertest.Eval[bool](t, ctx, `document.getElementById(`+jsString(id)+`).matches(":target")`) {
		t.Errorf("#%s is not the target", id)
	}
	bg := browsertest.Eval[[]string](t, ctx, `(function(){var l=document.getElementById(`+jsString(id)+`);var o=l.parentNode.tagName==="MARK"?l.parentNode.previousElementSibling:l.nextElementSibling;
		return [getComputedStyle(l).backgroundColor, getComputedStyle(l).boxShadow, o?getComputedStyle(o).backgroundColor:""]})()`)
	if bg[1] == "none" || bg[0] == bg[2] {
		t.Errorf("#%s is not marked: background %s (a neighbour's %s), shadow %s", id, bg[0], bg[2], bg[1])
	}
	href := browsertest.Eval[string](t, ctx, `(function(){var a=document.querySelector("mark.hll a.ln");return a?a.getAttribute("href"):""})()`)
	if href != "#"+id {
		t.Errorf("the raising line's number links to %q, want #%s", href, id)
	}
	// Each line has its anchor, numbered as the file is.
	first := browsertest.Eval[string](t, ctx, `(document.querySelector("pre.hl-n [id^=L]")||{}).id||""`)
	if first != fmt.Sprintf("L%d", max(rec.SourceCodeStart, 1)) {
		t.Errorf("the excerpt's first line is %q, want L%d", first, rec.SourceCodeStart)
	}
	// The gutter stays in view when the code scrolls sideways.
	x := browsertest.Eval[[]float64](t, ctx, `(function(){var p=document.querySelector("pre.hl-n");var l=p.querySelector(".ln");
		var before=l.getBoundingClientRect().left;p.scrollLeft=400;var after=l.getBoundingClientRect().left;p.scrollLeft=0;
		return [before, after, p.scrollWidth-p.clientWidth]})()`)
	if x[2] > 0 && math.Abs(x[0]-x[1]) > 1 {
		t.Errorf("scrolled sideways, the line numbers moved from %.0f to %.0f px", x[0], x[1])
	}
}

// checkUpstream: the file link points at the raising line on GitHub, the
// excerpt's range is a second link and the commit is a link.
func checkUpstream(t *testing.T, ctx context.Context, rec record.Record) {
	links := browsertest.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll("p.path a")).map(function(a){return a.href})`)
	if !strings.HasPrefix(rec.GithubURL, "https://github.com/") {
		t.Skipf("%s's URL is not a GitHub permalink", rec.ID)
	}
	base, frag, _ := strings.Cut(rec.GithubURL, "#")
	want := []string{base + fmt.Sprintf("#L%d", rec.LineNumber)}
	if frag != fmt.Sprintf("L%d", rec.LineNumber) && frag != "" {
		want = append(want, rec.GithubURL)
	}
	parts := strings.SplitN(strings.TrimPrefix(base, "https://github.com/"), "/", 3)
	want = append(want, "https://github.com/"+parts[0]+"/"+parts[1]+"/commit/"+rec.AnalyzedSha)
	if strings.Join(links, " ") != strings.Join(want, " ") {
		t.Errorf("source links %q, want %q", links, want)
	}
}

// checkTheme: choosing dark with the button survives a reload, and the
// first frame after the reload is already dark (no flash of light) while
// the system says light; auto follows the system again.
func checkTheme(t *testing.T, ctx context.Context, file string) {
	browsertest.ColorScheme(t, ctx, "light")
	browsertest.Navigate(t, ctx, file)
	browsertest.Eval[bool](t, ctx, `(localStorage.removeItem("errdocs:theme"), true)`)
	browsertest.Navigate(t, ctx, file)
	lightBG := browsertest.Eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`)
	for k := 0; k < 2; k++ { // auto → light → dark
		if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second), chromedp.Click(chromedp.CSS(`.theme-toggle`), chromedp.NodeVisible)); err != nil {
			t.Fatal(err)
		}
	}
	if got := browsertest.Eval[string](t, ctx, `document.documentElement.getAttribute("data-theme")+" "+document.querySelector(".theme-toggle").getAttribute("aria-label")`); got != "dark Colour theme: dark" {
		t.Fatalf("after two clicks: %q, want dark", got)
	}
	darkBG := browsertest.Eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`)
	if darkBG == lightBG {
		t.Fatalf("dark chosen, the background is still %s", darkBG)
	}
	// Record the first frame's colours: a script run before any of the
	// page's asks for the first animation frame, which comes before the
	// first paint.
	res, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		requestAnimationFrame(function(){ var s=getComputedStyle(document.documentElement);
			window.__firstFrame=[document.documentElement.getAttribute("data-theme"), s.colorScheme, document.body?getComputedStyle(document.body).backgroundColor:s.backgroundColor].join("|"); });`})
	if err != nil {
		t.Fatal(err)
	}
	defer chromedp.Call(ctx, page.RemoveScriptToEvaluateOnNewDocument, page.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: res.Identifier})
	if _, err := chromedp.Call(ctx, page.Reload, page.ReloadParams{}); err != nil {
		t.Fatal(err)
	}
	browsertest.WaitFor(t, ctx, `document.readyState === "complete" && window.__firstFrame`, 10*time.Second)
	first := browsertest.Eval[string](t, ctx, `window.__firstFrame`)
	if first != "dark|dark|"+darkBG {
		t.Errorf("first frame after reload: %q, want dark|dark|%s (no flash of the light theme)", first, darkBG)
	}
	if got := browsertest.Eval[string](t, ctx, `getComputedStyle(document.querySelector(".theme-name"), "::after").content`); got != `"Dark"` {
		t.Errorf("the button shows %s after the reload, want Dark", got)
	}
	// The head's theme script must block: it is what runs before paint.
	if !browsertest.Eval[bool](t, ctx, `(function(){var s=document.head.querySelector("script[src*=theme]");return !!s&&!s.defer&&!s.async})()`) {
		t.Error("theme.js is not a blocking script in the head")
	}
	// Back to auto: follows the system.
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second), chromedp.Click(chromedp.CSS(`.theme-toggle`))); err != nil {
		t.Fatal(err)
	}
	browsertest.ColorScheme(t, ctx, "dark")
	browsertest.WaitFor(t, ctx, `getComputedStyle(document.body).backgroundColor === `+jsString(darkBG), 5*time.Second)
	browsertest.ColorScheme(t, ctx, "light")
	if browsertest.Eval[string](t, ctx, `localStorage.getItem("errdocs:theme")||"auto"`) != "auto" {
		t.Error("auto is not remembered as auto")
	}
}

// checkPrint emulates print media: no code line is wider than the page,
// link addresses follow external links, the checklist is empty boxes and
// the header search and footer are hidden.
func checkPrint(t *testing.T, ctx context.Context, file string) {
	browsertest.Navigate(t, ctx, file)
	// A long line, as real excerpts hold.
	browsertest.Eval[bool](t, ctx, `(function(){var b=document.querySelector("main .checklist input");if(b&&!b.checked)b.click();return true})()`)
	browsertest.Viewport(t, ctx, 700, 900) // about an A4 page's printable width at 96 dpi
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	defer func() {
		chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: ""})
		browsertest.Viewport(t, ctx, 1280, 900)
	}()
	wide := browsertest.Eval[[]string](t, ctx, `(function(){var w=document.documentElement.clientWidth, out=[];
		document.querySelectorAll("main pre").forEach(function(p){ if(p.scrollWidth>p.clientWidth+1||p.getBoundingClientRect().right>w+1) out.push(p.textContent.slice(0,60)) });
		document.querySelectorAll("main pre [id^=L]").forEach(function(l){ if(l.getBoundingClientRect().right>w+1) out.push(l.id) });
		return out})()`)
	if len(wide) > 0 {
		t.Errorf("printed, %d code blocks or lines are wider than the page: %q", len(wide), wide)
	}
	if n := browsertest.Eval[int](t, ctx, `Array.from(document.querySelectorAll("main pre")).filter(function(p){return p.scrollWidth>0}).length`); n == 0 {
		t.Error("no code printed")
	}
	after := browsertest.Eval[string](t, ctx, `getComputedStyle(document.querySelector("p.path a"), "::after").content`)
	if !strings.Contains(after, "https://github.com/") {
		t.Errorf("printed, the source link is followed by %s, not its address", after)
	}
	hidden := browsertest.Eval[[]string](t, ctx, `[".top .find","footer",".copy",".theme-toggle"].filter(function(s){var e=document.querySelector(s);return e&&e.getClientRects().length>0})`)
	if len(hidden) > 0 {
		t.Errorf("printed, these show: %q", hidden)
	}
	box := browsertest.Eval[[]string](t, ctx, `(function(){var li=document.querySelector("main .checklist li");return [getComputedStyle(li,"::before").content, String(li.querySelector("input")?li.querySelector("input").getClientRects().length:0)]})()`)
	if box[0] != "\"☐\u00a0\"" || box[1] != "0" {
		t.Errorf("printed, a ticked checklist item shows %q with %s visible checkbox boxes, want an empty box", box[0], box[1])
	}
}

// checkPhone: at 390×844 the metadata uses two columns and the raising
// line is within the first two screens.
func checkPhone(t *testing.T, ctx context.Context, file string, rec record.Record) {
	browsertest.Viewport(t, ctx, 390, 844)
	defer browsertest.Viewport(t, ctx, 1280, 900)
	browsertest.Navigate(t, ctx, file)
	cols := browsertest.Eval[int](t, ctx, `getComputedStyle(document.querySelector("dl.meta")).gridTemplateColumns.split(" ").length`)
	if cols != 2 {
		t.Errorf("on a phone the metadata has %d columns, want 2", cols)
	}
	y := browsertest.Eval[float64](t, ctx, `document.querySelector("mark.hll").getBoundingClientRect().bottom + scrollY`)
	t.Logf("on a phone the raising line ends %.0f px down (two screens: %d px)", y, 2*844)
	if y > 2*844 {
		t.Errorf("on a phone the raising line ends %.0f px down, below the first two screens", y)
	}
	if browsertest.Eval[bool](t, ctx, `document.querySelector("nav.toc li a").checkVisibility()`) {
		t.Error("on a phone the contents are not folded")
	}
	if w := browsertest.Eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("on a phone the page is %.0f px wide: it scrolls sideways", w)
	}
}

// checkHome: the home page says what the site is in one sentence (also
// its meta description, from the dataset's numbers without a description
// setting) and has the paste-an-error box in the first screen, on a
// desktop and on a phone; a pasted error submitted there is searched.
func checkHome(t *testing.T, ctx context.Context, site string, records int) {
	home := "file://" + filepath.ToSlash(site) + "/index.html"
	for _, size := range []struct{ w, h int64 }{{1280, 900}, {390, 844}} {
		browsertest.Viewport(t, ctx, size.w, size.h)
		browsertest.Navigate(t, ctx, home)
		got := browsertest.Eval[[]string](t, ctx, `[(document.querySelector("main .intro")||{}).textContent||"",
			(document.querySelector('meta[name=description]')||{}).content||"",
			String(document.getElementById("home-q").getBoundingClientRect().bottom),
			String(document.querySelector("form.paste button").getBoundingClientRect().bottom)]`)
		if got[0] == "" || got[0] != got[1] || !strings.Contains(got[0], fmt.Sprintf("%d errors", records)) {
			t.Errorf("home intro %q, meta description %q: want one sentence naming the %d errors", got[0], got[1], records)
		}
		for _, v := range got[2:] {
			var y float64
			fmt.Sscan(v, &y)
			if y <= 0 || y > float64(size.h) {
				t.Errorf("at %dx%d the paste box ends at %s px, outside the first screen", size.w, size.h, v)
			}
		}
	}
	browsertest.Viewport(t, ctx, 1280, 900)
	msg := "ValueError: invalid literal for int() with base 10"
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second), chromedp.SendKeys(chromedp.CSS(`#home-q`), msg)); err != nil {
		t.Fatal(err)
	}
	href := clickTo(t, ctx, `form.paste button`, "home → paste search")
	u, err := url.Parse(href)
	if err != nil || !strings.HasSuffix(u.Path, "/search/index.html") || u.Query().Get("q") != msg {
		t.Errorf("the paste box opened %s, want search/index.html?q=<the error>", href)
	}
}

// checkWeight: the median record page is at most 25 KB of HTML, and with
// the stylesheet and scripts it loads at most 40 KB uncompressed.
func checkWeight(t *testing.T, site string) {
	type rp struct {
		path string
		size int
	}
	var pages []rp
	for _, f := range htmlFiles(t, site) {
		if strings.Count(f, "/") != 3 || strings.HasPrefix(f, "tags/") || strings.HasPrefix(f, "families/") || strings.Contains(f, "/page/") {
			continue
		}
		fi, err := os.Stat(filepath.Join(site, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, rp{f, int(fi.Size())})
	}
	if len(pages) == 0 {
		t.Fatal("no record pages")
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].size < pages[j].size })
	median := pages[len(pages)/2]
	b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(median.path)))
	if err != nil {
		t.Fatal(err)
	}
	assets := 0
	for _, m := range loadedRE.FindAllSubmatch(b, -1) {
		p := filepath.Join(site, filepath.FromSlash(filepath.Dir(median.path)), filepath.FromSlash(string(m[1])))
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatalf("%s loads %s: %v", median.path, m[1], err)
		}
		t.Logf("loads %s: %d bytes", m[1], fi.Size())
		assets += int(fi.Size())
	}
	t.Logf("median record page %s: %d bytes of HTML; the CSS and JS it loads %d bytes; in all %d bytes", median.path, median.size, assets, median.size+assets)
	if median.size > 25*1024 {
		t.Errorf("median record page %d bytes, over 25 KB", median.size)
	}
	if median.size+assets > 40*1024 {
		t.Errorf("median record page with its CSS and JS: %d bytes, over 40 KB", median.size+assets)
	}
}

// loadedRE finds the stylesheets and scripts a page loads.
var loadedRE = regexp.MustCompile(`<(?:script[^>]*\ssrc|link rel="stylesheet"[^>]*\shref)="([^"]+)"`)

// screenshots saves the record page (at its top and at the raising line)
// and the home page at desktop and phone sizes, light and dark.
func screenshots(t *testing.T, ctx context.Context, site string, rec record.Record) {
	dir := browsertest.ScreenshotDir(t)
	root := "file://" + filepath.ToSlash(site) + "/"
	shots := []struct{ name, url string }{
		{"record", root + rec.Path() + "index.html"},
		{"home", root + "index.html"},
	}
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
		browsertest.Viewport(t, ctx, size.w, size.h)
		for _, scheme := range []string{"light", "dark"} {
			browsertest.ColorScheme(t, ctx, scheme)
			for _, s := range shots {
				browsertest.Navigate(t, ctx, s.url)
				browsertest.Eval[bool](t, ctx, `(localStorage.removeItem("errdocs:theme"), true)`)
				browsertest.Navigate(t, ctx, s.url)
				browsertest.Screenshot(t, ctx, filepath.Join(dir, fmt.Sprintf("%s-%s-%s.png", s.name, size.name, scheme)))
				if s.name == "record" && size.name == "phone" {
					browsertest.Eval[bool](t, ctx, `(document.querySelector("mark.hll").scrollIntoView({block:"center"}), true)`)
					browsertest.Screenshot(t, ctx, filepath.Join(dir, fmt.Sprintf("%s-%s-%s-excerpt.png", s.name, size.name, scheme)))
				}
			}
		}
	}
	browsertest.Viewport(t, ctx, 1280, 900)
	browsertest.ColorScheme(t, ctx, "light")
	t.Logf("screenshots in %s", dir)
}
