package markdown_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/errdocs/errdocs/generator/markup/markdown"
	"github.com/errdocs/errdocs/internal/testseed"
)

func render(t testing.TB, src string) string {
	t.Helper()
	out, err := markdown.New().Render(src)
	if err != nil {
		t.Fatalf("Render(%q): %v", src, err)
	}
	return string(out)
}

var (
	hrefRE  = regexp.MustCompile(`<a\s[^>]*>`)
	attrRE  = regexp.MustCompile(`href="([^"]*)"`)
	tagRE   = regexp.MustCompile(`<(/?)([a-z0-9]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>`)
	attrsRE = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
)

// allowed lists the elements record Markdown may produce, with the
// attributes each may carry and what their values must look like.
var allowed = map[string]map[string]*regexp.Regexp{
	"p": {"class": regexp.MustCompile(`^cut$`)}, "h3": nil, "h4": nil, "h5": nil, "h6": nil,
	"em": nil, "strong": nil, "del": nil, "pre": nil, "ul": nil, "li": nil, "blockquote": nil,
	"hr": nil, "br": nil, "table": nil, "thead": nil, "tbody": nil, "tr": nil,
	"ol":   {"start": regexp.MustCompile(`^[0-9]+$`)},
	"code": {"class": regexp.MustCompile(`^language-[^\s]*$`)},
	"th":   {"style": regexp.MustCompile(`^text-align:(left|right|center)$`)},
	"td":   {"style": regexp.MustCompile(`^text-align:(left|right|center)$`)},
	"a": {
		"href":  regexp.MustCompile(`(?i)^(https?://|mailto:)[^\s]+$`),
		"title": regexp.MustCompile(`.*`),
		"rel":   regexp.MustCompile(`^nofollow ugc noopener$`),
	},
}

// checkSafe asserts the invariants every rendering must keep: only allowed
// elements and attributes, no stray "<", links only to http(s) or mailto
// and always with rel, valid UTF-8.
func checkSafe(t *testing.T, src, out string) {
	t.Helper()
	for _, m := range tagRE.FindAllStringSubmatch(out, -1) {
		attrs, ok := allowed[m[2]]
		if !ok {
			t.Errorf("Render(%q) = %q has element <%s>", src, out, m[2])
			continue
		}
		for _, a := range attrsRE.FindAllStringSubmatch(m[3], -1) {
			re, ok := attrs[a[1]]
			if !ok || !re.MatchString(a[2]) {
				t.Errorf("Render(%q) = %q has <%s %s=%q>", src, out, m[2], a[1], a[2])
			}
		}
		if m[2] == "a" && m[1] == "" && !strings.Contains(m[0], `rel="nofollow ugc noopener"`) {
			t.Errorf("Render(%q): link %s lacks rel", src, m[0])
		}
	}
	if rest := tagRE.ReplaceAllString(out, ""); strings.ContainsAny(rest, "<>") {
		t.Errorf("Render(%q) = %q has markup outside known tags: %q", src, out, rest)
	}
	if !utf8.ValidString(out) {
		t.Errorf("Render(%q) is not valid UTF-8", src)
	}
}

// links returns the href of each link in out.
func links(out string) []string {
	var hs []string
	for _, tag := range hrefRE.FindAllString(out, -1) {
		if m := attrRE.FindStringSubmatch(tag); m != nil {
			hs = append(hs, m[1])
		}
	}
	return hs
}

func TestRawHTMLIsShownAsText(t *testing.T) {
	cases := []struct{ src, want string }{
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"Inline <b onclick=\"x()\">bold</b> text", "Inline &lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt; text"},
		{"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"},
		{"<div>\n\n*md*\n\n</div>", "&lt;div&gt;"},
		{"<!-- hidden -->", "&lt;!-- hidden --&gt;"},
		{"<iframe src=\"https://evil\"></iframe>", "&lt;iframe src="},
		{"a </p><script>x</script> b", "a &lt;/p&gt;&lt;script&gt;x&lt;/script&gt; b"},
		{"<style>body{display:none}</style>", "&lt;style&gt;body{display:none}&lt;/style&gt;"},
	}
	for _, c := range cases {
		out := render(t, c.src)
		if !strings.Contains(out, c.want) {
			t.Errorf("Render(%q) = %q, want it to contain %q", c.src, out, c.want)
		}
		checkSafe(t, c.src, out)
	}
}

func TestLinkSchemes(t *testing.T) {
	cases := []struct {
		src  string
		href string // "" = must render as text only
	}{
		{"[t](https://example.com/a?b=1&c=2)", "https://example.com/a?b=1&amp;c=2"},
		{"[t](http://example.com)", "http://example.com"},
		{"[t](HTTPS://EXAMPLE.COM/)", "HTTPS://EXAMPLE.COM/"},
		{"[t](mailto:dev@example.com)", "mailto:dev@example.com"},
		{"[t](MailTo:dev@example.com)", "MailTo:dev@example.com"},
		{"[t](&#104;ttps://example.com)", "https://example.com"},
		{`[t](https://example.com/"onmouseover=alert(1))`, "https://example.com/%22onmouseover=alert(1)"},
		{"[t](<https://example.com/a b>)", ""}, // white space in a URL: refused
		{"[t](javascript:alert(1))", ""},
		{"[t](JaVaScRiPt:alert(1))", ""},
		{"[t](javascript&#58;alert(1))", ""},
		{"[t](javascript&colon;alert(1))", ""},
		{"[t](javascript&#x3A;alert(1))", ""},
		{"[t](jav&#x09;ascript:alert(1))", ""},
		{"[t](&#x0A;javascript:alert(1))", ""},
		{"[t](%20javascript:alert(1))", ""},
		{"[t](<javascript:alert(1)>)", ""},
		{"[t](< javascript:alert(1)>)", ""},
		{"[t](\\javascript:alert(1))", ""},
		{"[t](data:text/html;base64,PHNjcmlwdD4=)", ""},
		{"[t](data:image/png;base64,iVBOR)", ""},
		{"[t](vbscript:msgbox(1))", ""},
		{"[t](file:///etc/passwd)", ""},
		{"[t](ftp://example.com)", ""},
		{"[t](/relative/path)", ""},
		{"[t](relative)", ""},
		{"[t](//evil.example.com)", ""},
		{"[t](#fragment)", ""},
		{"[t](http:evil.example.com)", ""},
		{"[t](https://)", ""},
		{"[t](http:/x)", ""},
		{"[t](mailto:)", ""},
		{"[t](https://exa\u00a0mple.com)", ""},
		{"[t](https://example.com\x00)", ""},
		{"[t][r]\n\n[r]: javascript:alert(1)", ""},
		{"[t][r]\n\n[r]: https://example.com/ref", "https://example.com/ref"},
	}
	for _, c := range cases {
		out := render(t, c.src)
		checkSafe(t, c.src, out)
		m := links(out)
		if c.href == "" {
			if len(m) != 0 {
				t.Errorf("Render(%q) = %q: link kept, want text only", c.src, out)
			}
			if !strings.Contains(out, ">t") {
				t.Errorf("Render(%q) = %q: link text lost", c.src, out)
			}
			continue
		}
		if len(m) != 1 || m[0] != c.href {
			t.Errorf("Render(%q) = %q, want one link to %q", c.src, out, c.href)
		}
	}
}

func TestAutolinks(t *testing.T) {
	cases := []struct{ src, href, text string }{
		{"see <https://example.com/x>", "https://example.com/x", "https://example.com/x"},
		{"see https://example.com/y now", "https://example.com/y", "https://example.com/y"},
		{"see www.example.com now", "http://www.example.com", "www.example.com"},
		{"mail dev@example.com now", "mailto:dev@example.com", "dev@example.com"},
		{"<dev@example.com>", "mailto:dev@example.com", "dev@example.com"},
		{"<javascript:alert(1)>", "", "javascript:alert(1)"},
		{"<JAVASCRIPT:alert(1)>", "", "JAVASCRIPT:alert(1)"},
		{"<data:text/html,x>", "", "data:text/html,x"},
		{"ftp://example.com/f", "", "ftp://example.com/f"},
		{"[outer <https://inner.example.com>](https://outer.example.com)", "https://outer.example.com", "outer https://inner.example.com"},
	}
	for _, c := range cases {
		out := render(t, c.src)
		checkSafe(t, c.src, out)
		m := links(out)
		if c.href == "" {
			if len(m) != 0 {
				t.Errorf("Render(%q) = %q: want no link", c.src, out)
			}
		} else if len(m) != 1 || m[0] != c.href {
			t.Errorf("Render(%q) = %q, want one link to %q", c.src, out, c.href)
		}
		if !strings.Contains(out, c.text) {
			t.Errorf("Render(%q) = %q, want text %q", c.src, out, c.text)
		}
	}
}

func TestImagesNeverLoad(t *testing.T) {
	cases := []struct{ src, want string }{
		{"![a diagram](https://example.com/d.png)", `<a href="https://example.com/d.png" rel="nofollow ugc noopener">a diagram</a>`},
		{"![*styled* alt](http://example.com/d.png \"title\")", `<a href="http://example.com/d.png" title="title" rel="nofollow ugc noopener">styled alt</a>`},
		{"![alt](javascript:alert(1))", "<p>alt</p>"},
		{"![alt](data:image/png;base64,iVBORw0KGgo=)", "<p>alt</p>"},
		{"![alt](mailto:a@example.com)", "<p>alt</p>"},
		{"![alt](/local.png)", "<p>alt</p>"},
		{"![](https://example.com/d.png)", `rel="nofollow ugc noopener">image</a>`},
		{"[![inner](https://example.com/i.png)](https://example.com/page)", `<p><a href="https://example.com/page" rel="nofollow ugc noopener">inner</a></p>`},
		{"![x\"onerror=\"alert(1)](https://example.com/i.png)", `x&quot;onerror=&quot;alert(1)</a>`},
	}
	for _, c := range cases {
		out := render(t, c.src)
		checkSafe(t, c.src, out)
		if !strings.Contains(out, c.want) {
			t.Errorf("Render(%q) = %q, want it to contain %q", c.src, out, c.want)
		}
	}
}

func TestHeadingsShiftDown(t *testing.T) {
	cases := []struct{ src, want string }{
		{"# One", "<h3>One</h3>"},
		{"## Two", "<h4>Two</h4>"},
		{"### Three", "<h5>Three</h5>"},
		{"#### Four", "<h6>Four</h6>"},
		{"###### Six", "<h6>Six</h6>"},
		{"Setext\n======", "<h3>Setext</h3>"},
		{"Setext\n------", "<h4>Setext</h4>"},
		{"# With {#custom-id}", "<h3>With {#custom-id}</h3>"},
	}
	for _, c := range cases {
		out := render(t, c.src)
		if strings.TrimSpace(out) != c.want {
			t.Errorf("Render(%q) = %q, want %q", c.src, out, c.want)
		}
		if strings.Contains(out, "id=") {
			t.Errorf("Render(%q) = %q has an id", c.src, out)
		}
	}
}

func TestGFM(t *testing.T) {
	out := render(t, "| a | b |\n|:--|--:|\n| 1 | ~~two~~ |\n\n- [x] done\n- [ ] todo\n\nSee https://example.com.\n\n```python\nprint('<hi>')\n```\n")
	for _, want := range []string{
		"<table>", `<th style="text-align:left">a</th>`, `<td style="text-align:right"><del>two</del></td>`,
		"<li>☑ done</li>", "<li>☐ todo</li>",
		`<a href="https://example.com" rel="nofollow ugc noopener">https://example.com</a>.`,
		`<pre><code class="language-python">print('&lt;hi&gt;')`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("GFM output lacks %q:\n%s", want, out)
		}
	}
}

func TestControlCharacters(t *testing.T) {
	out := render(t, "a\x00b\x01c\x1bd\x7fe\u0085f\ufffeg\r\nh\rinvalid\xffutf8")
	for _, r := range out {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r == 0xfffe {
			t.Errorf("output has control character %U: %q", r, out)
		}
	}
	if !utf8.ValidString(out) {
		t.Errorf("output is not valid UTF-8: %q", out)
	}
}

func TestLongInputIsCut(t *testing.T) {
	src := strings.Repeat("word ", 10000) + "\n\n" + strings.Repeat("*a_", 20000)
	out := render(t, src)
	if !strings.Contains(out, `<p class="cut">… [cut `) {
		t.Errorf("long input: no cut marker at the end: %q", out[max(0, len(out)-200):])
	}
	if short := render(t, "short"); strings.Contains(short, "cut") {
		t.Errorf("short input has a cut marker: %q", short)
	}
}

func TestHostileCorpus(t *testing.T) {
	for _, src := range hostile {
		checkSafe(t, src, render(t, src))
	}
}

var hostile = []string{
	"<script>alert(1)</script>",
	"</script><script>alert(1)</script>",
	"[x](javascript:alert(1))",
	"[x](  javascript:alert(1)  )",
	"[x]( <javascript:alert(1)> )",
	"<a href=\"javascript:alert(1)\">x</a>",
	"<a href=javascript:alert(1)>x</a>",
	"[<img src=x onerror=alert(1)>](https://example.com)",
	"![<script>](https://example.com/\"><script>alert(1)</script>)",
	"[x](https://example.com \"t\\\" onmouseover=\\\"alert(1)\")",
	"```\"><script>alert(1)</script>\ncode\n```",
	"``` onload=alert(1)\ncode\n```",
	"`<script>`",
	"*<script>*",
	"| <script> | b |\n|---|---|\n| c | d |",
	"- [x] <script>alert(1)</script>",
	"> <iframe src=https://evil>",
	"&lt;script&gt;alert(1)&lt;/script&gt;",
	"&#60;script&#62;alert(1)&#60;/script&#62;",
	"[a](https://ex.com)[b](javascript:x)",
	"<svg/onload=alert(1)>",
	"<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
	"[x]: javascript:alert(1)\n\n[x]",
	"[x]: <javascript:alert(1)> \"t\"\n\n[x]",
	"www.example.com/<script>",
	"https://example.com/\"onmouseover=alert(1)",
	"<https://example.com/\"onmouseover=alert(1)>",
	"a@b.c\"onmouseover=alert(1)",
}

func FuzzRender(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkSafe(t, src, render(t, src))
	})
}

func TestConcurrentRender(t *testing.T) {
	r := markdown.New()
	srcs := append([]string{seed(t).Documentation}, hostile...)
	want := make([]string, len(srcs))
	for i, s := range srcs {
		out, err := r.Render(s)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = string(out)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				for i, s := range srcs {
					out, err := r.Render(s)
					if err != nil || string(out) != want[i] {
						t.Errorf("concurrent Render(%q) = %q, %v; want %q", s, out, err, want[i])
						return
					}
					_ = markdown.Plain(s)
				}
			}
		}()
	}
	wg.Wait()
}

func TestPlain(t *testing.T) {
	cases := []struct{ src, want string }{
		{"# Title\n\nHello *world* &amp; `code<x>` [link](https://e.com) ![alt](x.png).\n\n- item one\n- item two",
			"Title Hello world & code<x> link alt. item one item two"},
		{"| a | b |\n|---|---|\n| c | d |", "a b c d"},
		{"```go\nfmt.Println(1)\n```", "fmt.Println(1)"},
		{"<script>alert(1)</script>", "<script>alert(1)</script>"},
		{"", ""},
	}
	for _, c := range cases {
		if got := markdown.Plain(c.src); got != c.want {
			t.Errorf("Plain(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestFirstSentence(t *testing.T) {
	doc := seed(t).Documentation
	cases := []struct {
		src  string
		max  int
		want string
	}{
		{doc, 0, "Host callbacks (e.g. from jax.debug.callback / experimental host_callback) communicate with the runtime over a 16-bit channel ID, so at most 65535 channels can exist per lowering."},
		{doc, 80, "Host callbacks (e.g. from jax.debug.callback / experimental host_callback)…"},
		{"## Why\n\nThe **file** is missing. Create it.", 160, "The file is missing."},
		{"Version 1.2.3 is old! Upgrade it.", 160, "Version 1.2.3 is old!"},
		{"Use os.Open, i.e. the file API. Then close it.", 160, "Use os.Open, i.e. the file API."},
		{"Ends without a stop", 160, "Ends without a stop"},
		{"Quoted \"sentence.\" Next one.", 160, "Quoted \"sentence.\""},
		{"Averyveryverylongwordwithoutspaces", 10, "Averyvery…"},
		{"one two three four", 9, "one two…"},
		{"one two three four", 8, "one two…"},
		{"", 160, ""},
		{"# Only a heading", 160, "Only a heading"},
	}
	for _, c := range cases {
		got := markdown.FirstSentence(c.src, c.max)
		if got != c.want {
			t.Errorf("FirstSentence(%q, %d) = %q, want %q", c.src, c.max, got, c.want)
		}
		if c.max > 0 && utf8.RuneCountInString(got) > c.max {
			t.Errorf("FirstSentence(%q, %d) = %q is longer than %d", c.src, c.max, got, c.max)
		}
	}
}

type seedRecord struct {
	Documentation    string `json:"documentation"`
	TriggerScenarios string `json:"triggerScenarios"`
}

func seed(t testing.TB) seedRecord {
	t.Helper()
	b := testseed.JSON()
	var w struct {
		Record seedRecord `json:"record"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w.Record
}

func BenchmarkRenderSeedDocumentation(b *testing.B) {
	r := markdown.New()
	doc := seed(b).Documentation
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Render(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFirstSentence(b *testing.B) {
	doc := seed(b).Documentation
	for b.Loop() {
		markdown.FirstSentence(doc, 160)
	}
}
