package render

import (
	"html/template"
	"math/rand/v2"
	"strings"
	"testing"
)

// escapeSamples are strings that reach each escaper's every branch: each
// special byte, invalid UTF-8, NUL, noncharacters, URLs of each scheme,
// percent-escapes, and random bytes.
func escapeSamples() []string {
	s := []string{
		"", "plain", `<script>alert("x")</script>`, "a&b+c'd\"e", "\x00nul", "\xff\xfe bad utf-8 \xc3",
		"\uFDD0\uFFFE\uFFFF\u2028\u2029", "héllo wörld ✓", "javascript:alert(1)", "JavaScript:x", "HTTP://X/y?a=1&b=2#f",
		"https://github.com/o/r/blob/main/x.go#L12-L40", "mailto:a@b.c", "data:text/html,x", "//evil.example/x",
		"foo/bar:baz", "../a b/c%20d%zz/é?q=a+b&c=[1]", "#frag", "  spaced  ", "tab\there\nnew\rline", "%", "a:b",
		"vbscript:x", "/x:y", "?a:b", "~-._", "!#$&'()*+,/:;=?@[]", "`{}|\\^",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			switch rng.IntN(3) {
			case 0:
				b[i] = byte(rng.IntN(256))
			case 1:
				b[i] = byte(32 + rng.IntN(95))
			default:
				b[i] = ":/#%&+<>\"'"[rng.IntN(10)]
			}
		}
		s = append(s, string(b))
		if rng.IntN(4) == 0 {
			s = append(s, "http:"+string(b), "javascript:"+string(b))
		}
	}
	return s
}

// TestEscapersMatchHTMLTemplate holds each escaper to what html/template
// writes for the same string in the same context.
func TestEscapersMatchHTMLTemplate(t *testing.T) {
	contexts := []struct {
		name   string
		tmpl   string // the context, {{.}} the value
		escape func([]byte, string) []byte
	}{
		{"text", `<p>{{.}}</p>`, appendHTML},
		{"rcdata", `<title>{{.}}</title>`, appendHTML},
		{"attribute", `<a class="x {{.}}">`, appendHTML},
		{"meta content", `<meta name="description" content="{{.}}">`, appendHTML},
		{"url", `<a href="{{.}}">`, appendURLAttr},
		{"link url", `<link rel="canonical" href="{{.}}">`, appendURLAttr},
		{"fragment", `<a href="#{{.}}">`, appendURLPartAttr},
	}
	for _, c := range contexts {
		tmpl := template.Must(template.New(c.name).Parse(c.tmpl))
		pre, post, _ := strings.Cut(c.tmpl, "{{.}}")
		for _, s := range escapeSamples() {
			var want strings.Builder
			if err := tmpl.Execute(&want, s); err != nil {
				t.Fatal(err)
			}
			got := pre + string(c.escape(nil, s)) + post
			if got != want.String() {
				t.Errorf("%s: %q: got %q, html/template writes %q", c.name, s, got, want.String())
			}
		}
	}
}
