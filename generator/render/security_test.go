package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
)

// payload is put in every string a hostile record holds: markup, script,
// event-handler attributes, javascript: links (raw, Markdown and HTML) and
// text that ends a script element. Each try sets window.__xss.
const payload = `<script>window.__xss=1</script>"><img src=x onerror="window.__xss=2">` +
	`' onmouseover='window.__xss=3' x='</script><script>window.__xss=4</script>` +
	` [md](javascript:window.__xss=5) <a href="javascript:window.__xss=6">a</a>` +
	" javascript:window.__xss=7 <svg onload=window.__xss=8></svg><!-- </style> -->\x00\x01"

// hostile returns a record with payload in every string field. When
// anyName is set the fields that name paths (repo, slug, tags, family) are
// hostile too, which validation would reject: rendering must still be safe.
func hostile(id string, anyName bool) *record.Record {
	r := &record.Record{
		ID: id, Repo: "evil/repo", Slug: "x" + id,
		ErrorCode: payload, ErrorMessage: payload, MessagePattern: payload,
		ErrorType: payload, ErrorClass: payload, HTTPStatus: 500, Severity: payload,
		FilePath: payload + ".py", LineNumber: 2, SourceCode: payload + "\n" + payload + "\n",
		SourceCodeStart: 1, SourceCodeEnd: 2,
		GithubURL:     "javascript:window.__xss=9//" + payload,
		Documentation: "# " + payload + "\n\n" + payload + "\n\n- [x] " + payload + "\n\n![" + payload + "](javascript:window.__xss=10)", TriggerScenarios: payload, CommonSituations: payload,
		Solutions: []string{payload, payload}, ExampleFix: payload, HandlingStrategy: payload,
		ValidationCode: payload, TypeGuard: payload, TryCatchPattern: payload,
		PreventionTips: []string{payload}, Tags: []string{"evil"}, BackgroundTag: "evil-family",
		AnalyzedSha: payload, AnalyzedAt: payload, SchemaVersion: 2,
	}
	if anyName {
		r.Repo = payload + "/" + payload
		r.Slug = payload
		r.Tags = []string{payload, "evil"}
		r.BackgroundTag = payload
	}
	return r
}

func hostileInfo() record.Info {
	return record.Info{Slug: payload, ClusterKey: "tag:evil-family", Title: payload, Summary: payload,
		Background: payload, CommonCauses: []record.Cause{{Cause: payload, Detail: payload}},
		Fixes: []string{payload}, ErrorIDs: []string{"0000000000000001"}, ErrorCount: 1, RepoCount: 1}
}

// The elements and attributes our templates, the Markdown renderer and the
// highlighter write. Anything else in a page was injected.
var (
	allowedTags = set("html head meta title link script body a header div form label input button nav ol ul li " +
		"main footer p h1 h2 h3 h4 h5 h6 article dl dt dd code section pre span mark strong em del br hr " +
		"figure figcaption svg desc text rect table thead tbody tr th td blockquote img fieldset legend " +
		"select option datalist details summary noscript")
	allowedAttrs = set("lang charset name content http-equiv rel href type class role action method for id " +
		"placeholder autocomplete aria-label aria-current aria-labelledby aria-describedby aria-controls " +
		"aria-live tabindex start src defer data-n data-record data-root data-index-file data-search-app " +
		"data-filter list value hidden disabled checked autocapitalize spellcheck viewbox x y width height text-anchor alt title align " +
		"property enterkeyhint maxlength aria-autocomplete aria-expanded data-search-focus data-find data-analyzer data-engine")
	tagRE = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*/?>`)
	atRE  = regexp.MustCompile(`([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?`)
)

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// checkPage reports elements, attributes and URLs in page that our
// templates do not write. Record text is escaped, so every "<" followed by
// a letter in the page opens a real element.
func checkPage(t *testing.T, name string, page []byte) {
	t.Helper()
	s := string(page)
	if n := strings.Count(s, "<"); n != len(regexp.MustCompile(`<[/!a-zA-Z]`).FindAllString(s, -1)) {
		t.Errorf("%s: a '<' opens nothing we know", name)
	}
	for _, m := range tagRE.FindAllStringSubmatch(s, -1) {
		tag := strings.ToLower(m[1])
		if !allowedTags[tag] {
			t.Errorf("%s: injected element <%s>", name, tag)
		}
		attrs := map[string]string{}
		for _, a := range atRE.FindAllStringSubmatch(m[2], -1) {
			k := strings.ToLower(a[1])
			v := html.UnescapeString(strings.Trim(a[2], `"'`))
			attrs[k] = v
			if !allowedAttrs[k] {
				t.Errorf("%s: injected attribute %s on <%s>", name, k, tag)
			}
			if k == "href" || k == "src" || k == "action" {
				low := strings.ToLower(strings.TrimSpace(v))
				for _, bad := range []string{"javascript:", "vbscript:", "data:"} {
					if strings.HasPrefix(low, bad) {
						t.Errorf("%s: %s URL %q on <%s>", name, k, v, tag)
					}
				}
			}
		}
		if tag == "script" {
			if src := attrs["src"]; !(strings.HasSuffix(src, ".js") && strings.Contains(src, "static/")) && attrs["type"] != "application/ld+json" {
				t.Errorf("%s: script that is not ours: %s", name, m[0])
			}
		}
	}
	// A script element holds nothing but our JSON-LD: find each and check
	// that record text cannot have closed it early.
	for _, body := range regexp.MustCompile(`(?s)<script[^>]*>(.*?)</script>`).FindAllStringSubmatch(s, -1) {
		if strings.Contains(strings.ToLower(body[1]), "<") {
			t.Errorf("%s: '<' inside a script element: %.80q", name, body[1])
		}
	}
	if strings.Contains(s, "\x00") || strings.Contains(s, "\x01") {
		t.Errorf("%s: control character in page", name)
	}
}

func TestHostileRecords(t *testing.T) {
	for _, anyName := range []bool{false, true} {
		t.Run(fmt.Sprintf("names=%v", anyName), func(t *testing.T) {
			recs := []*record.Record{hostile("0000000000000001", anyName), hostile("0000000000000002", anyName)}
			recs[1].Repo = recs[0].Repo // share repo, tags and family: related links
			s := build(recs, hostileInfo())
			r := newRenderer(t, Options{Title: payload, Description: payload})
			pages := renderAll(t, r, s, recs)
			if !anyName {
				dump(t, "hostile", pages)
			}
			for name, b := range pages {
				if strings.HasSuffix(name, ".xml") {
					// Not HTML: it must be well-formed XML, which a
					// payload breaking out of its element would spoil.
					d := xml.NewDecoder(bytes.NewReader(b))
					for {
						_, err := d.Token()
						if err == io.EOF {
							break
						}
						if err != nil {
							t.Errorf("%s: not well-formed XML: %v", name, err)
							break
						}
					}
					continue
				}
				checkPage(t, name, b)
			}
			if !strings.Contains(string(pages[recs[0].Path()+"index.html"]), "window.__xss=1") {
				t.Error("the payload is not shown as text on the record page")
			}
		})
	}
}
