package render

import (
	"html/template"
	"strings"
	"testing"

	"github.com/errdocs/errdocs"
)

func TestReportURL(t *testing.T) {
	for _, c := range []struct {
		tmpl string
		ok   bool
	}{
		{"", true},
		{"https://github.com/o/r/issues/new?title={title}&body={url}", true},
		{"mailto:docs@example.org?subject={id}", true},
		{"javascript:alert({id})", false},
		{"/relative/{id}", false},
		{"https:///{id}", false},
	} {
		if err := CheckReportURL(c.tmpl); (err == nil) != c.ok {
			t.Errorf("CheckReportURL(%q) = %v, want ok %v", c.tmpl, err, c.ok)
		}
	}
	got := fillReportURL("https://x.org/new?t={title}&u={url}&r={repo}&i={id}", "00ff", "o/n",
		"https://e.org/o/n/s/", `a b&c=d#e+f"<`)
	want := "https://x.org/new?t=a%20b%26c%3Dd%23e%2Bf%22%3C&u=https%3A%2F%2Fe.org%2Fo%2Fn%2Fs%2F&r=o%2Fn&i=00ff"
	if got != want {
		t.Errorf("fillReportURL = %s, want %s", got, want)
	}
}

func TestUpstream(t *testing.T) {
	const sha = "1e1c6a8fc06dfcd1247076ec5cae4640cea5d7bb"
	blob := "https://github.com/jax-ml/jax/blob/" + sha + "/jax/_src/core.py"
	for _, c := range []struct {
		url  string
		line int
		want upstream
	}{
		{blob + "#L1562-L1581", 1575, upstream{Line: blob + "#L1575", Range: blob + "#L1562-L1581",
			RangeText: "lines 1562–1581", Commit: "https://github.com/jax-ml/jax/commit/" + sha}},
		{blob + "#L1575", 1575, upstream{Line: blob + "#L1575", Commit: "https://github.com/jax-ml/jax/commit/" + sha}},
		{blob, 0, upstream{Line: blob, Commit: "https://github.com/jax-ml/jax/commit/" + sha}},
		{"https://gitlab.com/o/r/-/blob/main/x.go#L3", 3, upstream{Line: "https://gitlab.com/o/r/-/blob/main/x.go#L3"}},
	} {
		if got := upstreamOf(c.url, c.line, sha); got != c.want {
			t.Errorf("upstreamOf(%s, %d) = %+v, want %+v", c.url, c.line, got, c.want)
		}
	}
	if got := upstreamOf(blob, 3, "not-a-sha"); got.Commit != "" {
		t.Errorf("a bad sha made the commit link %s", got.Commit)
	}
}

func TestAnchorLines(t *testing.T) {
	in := `<pre class="hl hl-n" tabindex="0"><code><span class="ln" data-n=" 9"></span><span class="k">a</span>` + "\n" +
		`<mark class="hll"><span class="ln" data-n="10"></span>b<span class="cut">… [cut 3 chars]</span>` + "\n</mark>" +
		`<span class="ln" data-n="11"></span>c` + "\n" + `<span class="cut">… [2 more lines not shown]</span></code></pre>`
	got := string(anchorLines(template.HTML(in), 10))
	want := `<pre class="hl hl-n" tabindex="0"><code><span id="L9"><span class="ln" data-n=" 9"></span><span class="k">a</span></span>` + "\n" +
		`<mark class="hll"><span id="L10"><a class="ln" href="#L10" data-n="10" aria-label="Line 10, where it is raised"></a>b<span class="cut">… [cut 3 chars]</span></span>` + "\n</mark>" +
		`<span id="L11"><span class="ln" data-n="11"></span>c</span>` + "\n" + `<span class="cut">… [2 more lines not shown]</span></code></pre>`
	if got != want {
		t.Errorf("anchorLines:\n got %s\nwant %s", got, want)
	}
	plain := `<pre class="hl" tabindex="0"><code>x</code></pre>`
	if got := anchorLines(template.HTML(plain), 1); string(got) != plain {
		t.Errorf("unnumbered code changed: %s", got)
	}
	if strings.Count(got, "<span") != strings.Count(got, "</span>") {
		t.Error("unbalanced spans")
	}
}

func TestThemedCSS(t *testing.T) {
	css, err := StyleSheet(errdocs.Static)
	if err != nil {
		t.Fatal(err)
	}
	s := string(css)
	for _, want := range []string{".dark .hl .k{", ":root.dark{", "@media print"} {
		if !strings.Contains(s, want) {
			t.Errorf("the stylesheet lacks %q", want)
		}
	}
	if strings.Contains(s, "prefers-color-scheme") {
		t.Error("dark colours still follow the system directly, not the theme")
	}
	if strings.Contains(s, "/*") {
		t.Error("the stylesheet keeps comments")
	}
}
