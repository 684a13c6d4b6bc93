package render

import (
	"fmt"
	"html/template"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// The "Report a problem with this page" link and the links to a record's
// source upstream.

// reportFields are the placeholders of a report URL template.
var reportFields = []string{"{id}", "{repo}", "{url}", "{title}"}

// CheckReportURL reports whether t is a usable report URL template: empty
// (no link), or an absolute http, https or mailto URL once its
// placeholders are filled.
func CheckReportURL(t string) error {
	if t == "" {
		return nil
	}
	u, err := url.Parse(fillReportURL(t, "0", "o/n", "https://example.org/", "x"))
	if err != nil {
		return fmt.Errorf("report URL %q: %v", t, err)
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return fmt.Errorf("report URL %q has no host", t)
		}
	case "mailto":
	default:
		return fmt.Errorf("report URL %q must be an absolute http, https or mailto URL", t)
	}
	return nil
}

// fillReportURL replaces each placeholder of t with its value, URL-encoded
// so that it is one value in a query or a path (spaces as %20, not "+",
// which a path would keep).
func fillReportURL(t, id, repo, pageURL, title string) string {
	vals := []string{id, repo, pageURL, title}
	pairs := make([]string, 0, 2*len(vals))
	for k, f := range reportFields {
		pairs = append(pairs, f, strings.ReplaceAll(url.QueryEscape(vals[k]), "+", "%20"))
	}
	return strings.NewReplacer(pairs...).Replace(t)
}

// upstream is where a record's source is on its host.
type upstream struct {
	// Line is the raising line's URL (the record's URL when it is not a
	// GitHub permalink); Range the excerpt's range, "" when the same.
	Line, Range string
	// RangeText names the range ("lines 895–931").
	RangeText string
	// Commit is the analysed commit's URL, "" when the host is unknown.
	Commit string
}

// githubBlob matches a GitHub blob URL: owner, repo, the rest of the path
// and the line anchor.
var githubBlob = regexp.MustCompile(`^https://github\.com/([^/?#]+)/([^/?#]+)/blob/([^?#]+)(?:#L(\d+)(?:-L(\d+))?)?$`)

// hexSHA is a full commit id.
var hexSHA = regexp.MustCompile(`^[0-9a-f]{40}$`)

// upstreamOf makes the upstream links of a record whose githubUrl is u
// (already checked to be http or https), raising line and commit.
func upstreamOf(u string, line int, sha string) upstream {
	up := upstream{Line: u}
	m := githubBlob.FindStringSubmatch(u)
	if m == nil {
		return up
	}
	base, _, _ := strings.Cut(u, "#")
	if line > 0 {
		up.Line = base + "#L" + strconv.Itoa(line)
		if m[4] != "" && (m[5] != "" || m[4] != strconv.Itoa(line)) {
			up.Range = u
			up.RangeText = "line " + m[4]
			if m[5] != "" {
				up.RangeText = "lines " + m[4] + "–" + m[5]
			}
		}
	}
	if hexSHA.MatchString(sha) {
		up.Commit = "https://github.com/" + m[1] + "/" + m[2] + "/commit/" + sha
	}
	return up
}

// The highlighter numbers an excerpt's lines with empty spans whose number
// CSS shows (so copied code holds no numbers).
const (
	lnOpen  = `<span class="ln" data-n="`
	lnClose = `"></span>`
)

// anchorLines gives each numbered line of a highlighted excerpt an anchor:
// the line is wrapped in a span with id "L<n>" (the file's own number, as
// GitHub names lines), so #L913 scrolls to it and CSS can mark it; the
// raising line's number becomes a link to itself. Record text cannot hold
// the highlighter's markup (it is escaped), so what this rewrites is only
// the highlighter's; a line ends at its newline, its mark's end or the
// code's end, and no element the highlighter writes spans a line end.
// Output the highlighter did not number is returned as it is.
func anchorLines(h template.HTML, mark int) template.HTML {
	s := string(h)
	if !strings.Contains(s, lnOpen) {
		return h
	}
	var b strings.Builder
	b.Grow(len(s) + 24*strings.Count(s, lnOpen))
	for {
		i := strings.Index(s, lnOpen)
		if i < 0 {
			b.WriteString(s)
			return template.HTML(b.String())
		}
		rest := s[i+len(lnOpen):]
		num, after, ok := strings.Cut(rest, lnClose)
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || err != nil || n < 1 {
			return h
		}
		id := "L" + strconv.Itoa(n)
		b.WriteString(s[:i])
		b.WriteString(`<span id="` + id + `">`)
		if n == mark {
			fmt.Fprintf(&b, `<a class="ln" href="#%s" data-n="%s" aria-label="Line %d, where it is raised"></a>`, id, num, n)
		} else {
			b.WriteString(lnOpen + num + lnClose)
		}
		// The line's end is looked for before its newline only: searching
		// the whole rest for the closing tags, which come once at the end,
		// made the rewrite quadratic in the excerpt's lines.
		end := strings.IndexByte(after, '\n')
		if end < 0 {
			end = len(after)
		}
		for _, stop := range []string{"</mark>", "</code>"} {
			if k := strings.Index(after[:end], stop); k >= 0 {
				end = k
			}
		}
		b.WriteString(after[:end])
		b.WriteString("</span>")
		s = after[end:]
	}
}
