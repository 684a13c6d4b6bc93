package highlight

import "regexp"

// A body read from the disk cache is used only if it is markup the
// formatter writes (format.go): its own tags with its own attributes, and
// escaped text between them. The stored sha256 catches a damaged pack but
// not a patched one, whose writer recomputes it; anyone who can write the
// cache could otherwise put any markup (a form posting to another site)
// into every page that shows that code. A body that fails is a miss, and
// the code is highlighted again.
var (
	formatterTag = regexp.MustCompile(`^(?:<span class="[a-z0-9 -]*">|<span class="ln" data-n=" *[0-9]+">|</span>|<mark class="hll">|</mark>|<pre class="hl(?: hl-n)?" tabindex="0">|<code>|</code>|</pre>)$`)
	anyTag       = regexp.MustCompile(`<[^>]*>?`)
)

// formatterMarkup reports whether body holds only the formatter's tags.
func formatterMarkup(body string) bool {
	for _, loc := range anyTag.FindAllStringIndex(body, -1) {
		if !formatterTag.MatchString(body[loc[0]:loc[1]]) {
			return false
		}
	}
	return true
}
