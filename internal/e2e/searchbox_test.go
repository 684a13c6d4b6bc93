package e2e

// Browser tests of search as a person meets it on a real site (built by
// errdocs from a generated dataset), over loopback HTTP and from file://
// (the offline bundle): the header box on every page (combobox, keyboard
// only), the search page's first screen on a phone, Back after "More
// results", a 1 MB paste, layout shift, axe-core with the list open.
// Screenshots go to $ERRDOCS_SCREENSHOTS (or a temp folder named in the
// log) for a person to look at.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/browsertest"
	"github.com/errdocs/errdocs/internal/testtools"
)

// view sets the tab's viewport and colour scheme.
func view(t *testing.T, ctx context.Context, w, h int64, scheme string) {
	t.Helper()
	browsertest.Viewport(t, ctx, w, h)
	browsertest.ColorScheme(t, ctx, scheme)
}

func press(t *testing.T, ctx context.Context, key string, opts ...chromedp.KeyOption) {
	t.Helper()
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 10*time.Second), chromedp.KeyEvent(key, opts...)); err != nil {
		t.Fatalf("key %q: %v", key, err)
	}
}

// typeKeys types into whatever has focus, as a keyboard would.
func typeKeys(t *testing.T, ctx context.Context, s string) {
	t.Helper()
	if err := chromedp.Do(browsertest.Timeout(t, ctx, 20*time.Second), chromedp.KeyEvent(s)); err != nil {
		t.Fatalf("typing %q: %v", s, err)
	}
}

// runAxe runs axe-core's WCAG 2.1 A and AA rules on the page as it is.
func runAxe(t *testing.T, ctx context.Context, axe, where string) {
	t.Helper()
	for _, s := range browsertest.AxeViolations(t, ctx, axe) {
		t.Errorf("%s: axe %s", where, s)
	}
}

// commonWord is the message word (4+ letters) most records hold, for a
// query with many results.
func commonWord(rs []record.Record) string {
	count := map[string]int{}
	word := regexp.MustCompile(`^[a-z]{4,}$`)
	for _, r := range rs {
		seen := map[string]bool{}
		for _, w := range strings.Fields(strings.ToLower(r.ErrorMessage)) {
			if word.MatchString(w) && !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	words := make([]string, 0, len(count))
	for w := range count {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		return count[words[i]] > count[words[j]] || count[words[i]] == count[words[j]] && words[i] < words[j]
	})
	return words[0]
}

// pageURL is the URL of a site path in this mode (file:// names index.html).
func pageURL(base, path string, indexFile bool) string {
	if indexFile && (path == "" || strings.HasSuffix(path, "/")) {
		path += "index.html"
	}
	return base + path
}

// TestSearchEverywhere runs the person's paths through search on a real
// site, over HTTP and from the offline bundle.
func TestSearchEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site: skipped in -short mode")
	}
	ctx := browsertest.New(t)
	s := buildRealSite(t)
	target, pasted := pasteTarget(t, s.records)
	shots := browsertest.ScreenshotDir(t)
	t.Logf("screenshots in %s", shots)
	for _, mode := range s.modes(t) {
		t.Run(mode.name, func(t *testing.T) {
			base := mode.base
			u := ui{t, ctx}
			view(t, ctx, 1280, 900, "light")
			headerBox(t, u, base, mode.indexFile, target)
			firstScreen(t, u, base, mode.indexFile, target, pasted, filepath.Join(shots, mode.name))
			moreThenBack(t, u, base, mode.indexFile, commonWord(s.records))
			if mode.name == "http" {
				hugePaste(t, u, base)
				layoutShift(t, u, base, commonWord(s.records))
				headerBoxLooks(t, u, base, target, filepath.Join(shots, mode.name))
			}
		})
	}
}

// listState describes the header list: whether it is open, its options'
// messages, the active option's index and what the status region says.
type listState struct {
	Open     bool
	Expanded string
	Options  []string
	Active   int
	Status   string
	Focus    string
}

func headerList(t *testing.T, ctx context.Context) listState {
	t.Helper()
	js := browsertest.Eval[string](t, ctx, `JSON.stringify((function(){
		var i=document.getElementById('site-q'), l=document.getElementById('site-q-list');
		var opts=Array.from(l.querySelectorAll('[role=option]'));
		var act=i.getAttribute('aria-activedescendant');
		return {Open:!l.hidden && l.getBoundingClientRect().height>0, Expanded:i.getAttribute('aria-expanded'),
			Options:opts.map(function(o){var m=o.querySelector('.find-msg');return m?m.textContent:'ALL:'+o.textContent}),
			Active:act?opts.findIndex(function(o){return o.id===act}):-1,
			Status:(document.querySelector('form[data-find] [role=status]')||{}).textContent||'',
			Focus:document.activeElement?document.activeElement.id:''};
	})())`)
	var st listState
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// headerBox: on a record page, nothing of the engine loads until the box
// has focus; "/" focuses it; typing lists the first results with the
// number announced; arrows move, Escape closes, Enter opens a record;
// Ctrl+K then Enter opens the search page with the query.
func headerBox(t *testing.T, u ui, base string, indexFile bool, target record.Record) {
	ctx := u.ctx
	browsertest.Navigate(t, ctx, pageURL(base, target.Path(), indexFile))
	loaded := `performance.getEntriesByType('resource').filter(function(e){return /engine|analyzer|manifest/.test(e.name)}).length`
	if n := u.eval(loaded); n != "0" || u.eval(`typeof window.ErrdocsSearch`) != "undefined" {
		t.Errorf("a record page loaded %s search files before the box was used", n)
	}
	press(t, ctx, "/")
	if got := u.eval(`document.activeElement.id + ":" + document.activeElement.value`); got != "site-q:" {
		t.Fatalf(`"/" focused %q, want the empty header box`, got)
	}
	u.wait(`window.ErrdocsSearch`)
	words := strings.Fields(target.ErrorMessage)
	query := strings.Join(words[:min(3, len(words))], " ")
	typeKeys(t, ctx, query)
	// The list shows each keystroke's results in turn: wait for the whole
	// query's ("All results for “query”"), not the first letter's.
	qj, _ := json.Marshal("“" + query + "”")
	u.wait(`document.querySelectorAll('#site-q-list [role=option]').length > 1 && !document.getElementById('site-q-list').hidden && ` +
		`document.getElementById('site-q-list').textContent.indexOf(` + string(qj) + `) >= 0`)
	st := headerList(t, ctx)
	if len(st.Options) < 2 || len(st.Options) > 9 || !strings.HasPrefix(st.Options[len(st.Options)-1], "ALL:All results") {
		t.Fatalf("header list for %q: %q", query, st.Options)
	}
	if st.Expanded != "true" || !regexp.MustCompile(`\d+ results?`).MatchString(st.Status) {
		t.Errorf("header list open: aria-expanded %q, status %q (want the number of results)", st.Expanded, st.Status)
	}
	if !contains(st.Options, target.ErrorMessage) {
		t.Errorf("typing %q in the header box: %q does not list the record %q", query, st.Options, target.ErrorMessage)
	}
	press(t, ctx, kb.ArrowDown)
	press(t, ctx, kb.ArrowDown)
	if st = headerList(t, ctx); st.Active != 1 || st.Focus != "site-q" {
		t.Errorf("two arrows down: active option %d, focus on %q; want option 1 with focus in the box", st.Active, st.Focus)
	}
	press(t, ctx, kb.ArrowUp)
	if st = headerList(t, ctx); st.Active != 0 {
		t.Errorf("arrow up: active option %d, want 0", st.Active)
	}
	press(t, ctx, kb.Escape)
	if st = headerList(t, ctx); st.Open || st.Expanded != "false" {
		t.Errorf("Escape: list open %v, aria-expanded %q", st.Open, st.Expanded)
	}
	press(t, ctx, kb.ArrowDown)
	st = headerList(t, ctx)
	if !st.Open || st.Active != 0 {
		t.Fatalf("arrow down after Escape: open %v, active %d", st.Open, st.Active)
	}
	want := st.Options[0]
	from := u.eval(`location.href`)
	press(t, ctx, kb.Enter)
	u.wait(`location.href!==` + jsString(from) + ` && document.readyState==='complete'`)
	if u.eval(`!!document.getElementById('site-q') && !!document.querySelector('h1')`) != "true" {
		t.Fatalf("Enter on the first option opened %s, not a record page", u.eval(`location.href`))
	}
	if h1 := u.eval(`document.querySelector('h1').textContent.trim()`); h1 != strings.TrimSpace(want) {
		t.Errorf("Enter on the first option opened %q (%s), want the record %q", h1, u.eval(`location.href`), want)
	}
	if indexFile != strings.HasSuffix(u.eval(`location.pathname`), "/index.html") {
		t.Errorf("opened %s (from disk: %v)", u.eval(`location.href`), indexFile)
	}

	// Ctrl+K from the page, type, Enter with no option chosen: the search
	// page with the query.
	press(t, ctx, "k", chromedp.KeyModifiers(chromedp.ModifierCtrl))
	if got := u.eval(`document.activeElement.id`); got != "site-q" {
		t.Fatalf("Ctrl+K focused %q, want the header box", got)
	}
	typeKeys(t, ctx, query)
	u.wait(`document.querySelectorAll('#site-q-list [role=option]').length > 1`)
	press(t, ctx, kb.Enter)
	u.wait(`document.querySelector('[data-search-app]') && document.readyState==='complete'`)
	u.settled()
	if got := u.eval(`document.getElementById('search-q').value`); got != query {
		t.Errorf("the search page opened with %q, want %q", got, query)
	}
	if n := u.eval(`document.querySelectorAll('input[name=q]').length`); n != "1" {
		t.Errorf("the search page has %s search boxes, want 1", n)
	}
	if len(u.results()) == 0 {
		t.Errorf("the search page shows no results for %q", query)
	}
	// "/" on the search page reaches its own box.
	u.eval(`document.activeElement.blur()`)
	press(t, ctx, "/")
	if got := u.eval(`document.activeElement.id`); got != "search-q" {
		t.Errorf(`"/" on the search page focused %q`, got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == strings.TrimSpace(s) {
			return true
		}
	}
	return false
}

// firstResultTop is where the first result's title ends, and the
// viewport's height.
func firstResultFits(t *testing.T, u ui) (bottom, height float64) {
	t.Helper()
	var out [2]float64
	js := u.eval(`JSON.stringify((function(){var h=document.querySelector('#results li.result .result-title');
		return [h?h.getBoundingClientRect().bottom:1e9, innerHeight]})())`)
	if err := json.Unmarshal([]byte(js), &out); err != nil {
		t.Fatal(err)
	}
	return out[0], out[1]
}

// firstScreen: on a 390×844 phone, the first result's title is on the
// first screen for a typed query and for a pasted multi-line error; the
// status quotes at most 80 characters. Screenshots: phone and desktop,
// light and dark.
func firstScreen(t *testing.T, u ui, base string, indexFile bool, target record.Record, pasted, shots string) {
	search := pageURL(base, "search/", indexFile)
	words := strings.Fields(target.ErrorMessage)
	query := strings.Join(words[:min(3, len(words))], " ")
	trace := "Traceback (most recent call last):\n  File \"/srv/app/worker.py\", line 212, in run\n    result = handler(job)\n" +
		"  File \"/srv/app/handlers.py\", line 87, in handler\n    raise err\n" + pasted + "\n"
	defer view(t, u.ctx, 1280, 900, "light")
	for _, c := range []struct {
		w, h int64
		name string
	}{{390, 844, "phone"}, {1280, 900, "desktop"}} {
		for _, scheme := range []string{"light", "dark"} {
			view(t, u.ctx, c.w, c.h, scheme)
			u.navigate(search)
			if err := chromedp.Do(browsertest.Timeout(t, u.ctx, 20*time.Second), chromedp.Click(chromedp.CSS("#search-q")), chromedp.KeyEvent(query)); err != nil {
				t.Fatal(err)
			}
			u.wait(`new URLSearchParams(location.search).get('q')===` + jsString(query))
			u.settled()
			if b, h := firstResultFits(t, u); c.name == "phone" && b > h {
				t.Errorf("%s, typed %q: the first result's title ends at %.0f px, below the first screen (%.0f px)", scheme, query, b, h)
			}
			markContrast(t, u, scheme)
			browsertest.Screenshot(t, u.ctx, shots+"-search-typed-"+c.name+"-"+scheme+".png")
			u.navigate(search)
			u.paste(trace)
			u.wait(`document.querySelector('#results li.exact')`)
			u.settled()
			if b, h := firstResultFits(t, u); c.name == "phone" && b > h {
				t.Errorf("%s, pasted error: the first result's title ends at %.0f px, below the first screen (%.0f px)", scheme, b, h)
			}
			if got := u.results(); len(got) == 0 || got[0] != target.Path() {
				t.Errorf("pasted error: results %v, want %s first", got, target.Path())
			}
			status := u.eval(`document.getElementById('result-count').textContent`)
			if q := regexp.MustCompile(`“([^”]*)”`).FindStringSubmatch(status); q == nil || len([]rune(q[1])) > 81 {
				t.Errorf("the status line quotes the query at length: %q", status)
			} else if head := string([]rune(pasted)[:min(15, len([]rune(pasted)))]); !strings.HasPrefix(q[1], head) {
				// a paste is quoted by its error line, not its traceback's header
				t.Errorf("the status line quotes %q, not the pasted error %q", q[1], pasted)
			}
			browsertest.Screenshot(t, u.ctx, shots+"-search-pasted-"+c.name+"-"+scheme+".png")
		}
	}
}

// moreThenBack: after "More results", opening a result and coming back
// shows the same longer list at the same place; so does a reload.
func moreThenBack(t *testing.T, u ui, base string, indexFile bool, word string) {
	view(t, u.ctx, 1280, 900, "light")
	u.navigate(pageURL(base, "search/", indexFile) + "?q=" + url.QueryEscape(word))
	if n := len(u.results()); n != 20 {
		t.Fatalf("?q=%s: %d results, want a first page of 20 (the word is in many messages)", word, n)
	}
	u.eval(`document.getElementById('more-results').click()`)
	u.wait(`document.querySelectorAll('#results li.result').length===40`)
	u.settled()
	if n := u.query().Get("n"); n != "40" {
		t.Errorf("after More results the URL says n=%q, want 40", n)
	}
	before := u.results()
	// Scroll so the 30th result is at the top, and wait for the place to be
	// kept.
	u.eval(`document.querySelectorAll('#results li.result')[29].scrollIntoView({block:'start'})`)
	y := u.eval(`Math.round(scrollY)`)
	u.wait(`history.state && history.state.y===` + y)
	href := u.eval(`document.querySelectorAll('#results li.result')[29].querySelector('a').href`)
	if err := chromedp.Do(browsertest.Timeout(t, u.ctx, 20*time.Second), chromedp.Click(chromedp.Search(`(//ol[contains(@class,'results')]/li)[30]//a`))); err != nil {
		t.Fatal(err)
	}
	// Go's file server answers …/index.html with a redirect to the folder.
	u.wait(`location.href.replace(/index\.html$/, '')===` + jsString(strings.TrimSuffix(href, "index.html")) + ` && document.readyState==='complete'`)
	for _, how := range []string{"back", "reload"} {
		if how == "back" {
			u.eval(`history.back()`)
		} else {
			u.eval(`location.reload()`)
		}
		u.wait(`document.querySelector('[data-search-app]') && document.querySelectorAll('#results li.result').length===40`)
		u.settled()
		if got := u.results(); strings.Join(got, ",") != strings.Join(before, ",") {
			t.Errorf("after %s: a different list (%d results)", how, len(got))
		}
		u.wait(`Math.abs(scrollY-` + y + `)<=2`)
	}
}

// hugePaste: a 1 MB paste keeps the 1,000 characters searched in the box
// and the URL, and no task after it runs over 200 ms.
func hugePaste(t *testing.T, u ui, base string) {
	view(t, u.ctx, 1280, 900, "light")
	u.navigate(base + "search/")
	u.eval(`(function(){window.__long=[];new PerformanceObserver(function(l){l.getEntries().forEach(function(e){window.__long.push({start:e.startTime,d:e.duration})})}).observe({type:'longtask'});return 1})()`)
	res := browsertest.Eval[string](t, u.ctx, `(function(){
		var line='ERROR 2026-01-02T10:00:00Z worker-17 failed to process job 4711: connection refused at db.internal:5432 (retry 3 of 5)\n';
		var text=line.repeat(Math.ceil(1048576/line.length)).slice(0,1048576);
		var i=document.getElementById('search-q');i.focus();
		var dt=new DataTransfer();dt.setData('text/plain',text);
		var ev=new ClipboardEvent('paste',{clipboardData:dt,bubbles:true,cancelable:true});
		var t0=performance.now();i.dispatchEvent(ev);var t1=performance.now();
		window.__pasteEnd=t1;
		return JSON.stringify({handler:t1-t0});
	})()`)
	u.settled()
	time.Sleep(300 * time.Millisecond)
	var h struct{ Handler float64 }
	json.Unmarshal([]byte(res), &h)
	long := u.eval(`JSON.stringify(window.__long.filter(function(e){return e.start>=window.__pasteEnd-1}))`)
	var tasks []struct{ Start, D float64 }
	json.Unmarshal([]byte(long), &tasks)
	worst := 0.0
	for _, x := range tasks {
		worst = max(worst, x.D)
	}
	// The paste handler cuts the text; the engine searches the 1,000
	// characters' error lines, each word once, in the tasks logged.
	t.Logf("1 MB paste: the paste handler took %.1f ms; longest later task %.0f ms (engine search and rendering; all: %s); results: %s",
		h.Handler, worst, long, u.eval(`document.getElementById('result-count').textContent`))
	if h.Handler > 200 {
		t.Errorf("1 MB paste: the paste handler ran %.0f ms, want under 200 ms", h.Handler)
	}
	if worst > 200 {
		t.Errorf("1 MB paste: a task after it ran %.0f ms, want none over 200 ms", worst)
	}
	if n := u.eval(`document.getElementById('search-q').value.length`); n != "1000" {
		t.Errorf("the box holds %s characters after a 1 MB paste, want 1000", n)
	}
	if n := len(u.eval(`location.href`)); n > 4000 {
		t.Errorf("the URL is %d characters after a 1 MB paste", n)
	}
	if len(u.results()) == 0 {
		t.Errorf("a 1 MB paste of a log found nothing")
	}
	// a paste is searched for most of its words: the status says so
	if st := u.eval(`document.getElementById('result-count').textContent`); strings.Contains(st, "every word") {
		t.Errorf("after a paste the status says %q: a paste asks for most of its words", st)
	}
}

// layoutShift: loading the search page, with and without a query, shifts
// nothing that was shown (cumulative layout shift ≤ 0.05), on a phone and
// a desktop.
func layoutShift(t *testing.T, u ui, base, word string) {
	defer view(t, u.ctx, 1280, 900, "light")
	for _, c := range [][2]int64{{1280, 900}, {390, 844}} {
		view(t, u.ctx, c[0], c[1], "light")
		for _, q := range []string{"", "?q=" + url.QueryEscape(word)} {
			u.navigate(base + "search/" + q)
			time.Sleep(500 * time.Millisecond)
			cls := browsertest.Eval[float64](t, u.ctx, `new Promise(function(res){var s=0;new PerformanceObserver(function(l){l.getEntries().forEach(function(e){if(!e.hadRecentInput)s+=e.value})}).observe({type:'layout-shift',buffered:true});setTimeout(function(){res(s)},100)})`)
			if cls > 0.05 {
				t.Errorf("search/%s at %dx%d: layout shift %.3f, want ≤ 0.05", q, c[0], c[1], cls)
			}
		}
	}
}

// headerBoxLooks opens the header list on a record page at both sizes and
// schemes, takes screenshots, and runs axe-core with the list open.
func headerBoxLooks(t *testing.T, u ui, base string, target record.Record, shots string) {
	axe := testtools.Axe(t)
	defer view(t, u.ctx, 1280, 900, "light")
	words := strings.Fields(target.ErrorMessage)
	query := strings.Join(words[:min(2, len(words))], " ")
	for _, c := range [][2]int64{{1280, 900}, {390, 844}} {
		for _, scheme := range []string{"light", "dark"} {
			view(t, u.ctx, c[0], c[1], scheme)
			browsertest.Navigate(t, u.ctx, base+target.Path())
			press(t, u.ctx, "/")
			typeKeys(t, u.ctx, query)
			u.wait(`document.querySelectorAll('#site-q-list [role=option]').length > 1 && !document.getElementById('site-q-list').hidden`)
			press(t, u.ctx, kb.ArrowDown)
			press(t, u.ctx, kb.ArrowDown)
			browsertest.Screenshot(t, u.ctx, fmt.Sprintf("%s-record-header-list-%dx%d-%s.png", shots, c[0], c[1], scheme))
			runAxe(t, u.ctx, axe, fmt.Sprintf("record page, header list open, %dx%d %s", c[0], c[1], scheme))
		}
	}
}

// markContrast checks the marked words of the results: the mark stands
// out from the page (3:1) and its text is readable on it (4.5:1).
func markContrast(t *testing.T, u ui, scheme string) {
	t.Helper()
	js := u.eval(`JSON.stringify((function(){
		function rgb(s){var m=s.match(/[\d.]+/g).map(Number);return m.slice(0,3)}
		function lum(c){c=c.map(function(v){v/=255;return v<=0.03928?v/12.92:Math.pow((v+0.055)/1.055,2.4)});return 0.2126*c[0]+0.7152*c[1]+0.0722*c[2]}
		function ratio(a,b){var x=lum(a),y=lum(b);return (Math.max(x,y)+0.05)/(Math.min(x,y)+0.05)}
		var m=document.querySelector('#results mark');if(!m)return null;
		var cs=getComputedStyle(m), page=rgb(getComputedStyle(document.body).backgroundColor);
		return [ratio(rgb(cs.backgroundColor),page), ratio(rgb(cs.color),rgb(cs.backgroundColor))];
	})())`)
	var r []float64
	if err := json.Unmarshal([]byte(js), &r); err != nil || len(r) != 2 {
		t.Errorf("%s: no marked word in the results to check (%s)", scheme, js)
		return
	}
	if r[0] < 3 || r[1] < 4.5 {
		t.Errorf("%s: mark contrast %.2f:1 against the page (want 3:1), text on it %.2f:1 (want 4.5:1)", scheme, r[0], r[1])
	}
}
