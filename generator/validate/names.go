package validate

import (
	"fmt"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// A record's repo becomes folders of the site (owner/name/slug/), so a
// repo must also be a path every file system the site is copied to can
// hold, distinct from every other record's and from the site's own files.
// The rules, checked before anything is written (a record that breaks one
// is rejected with the rule, like any other):
//   - the owner is not a name the site uses at its top level (search,
//     static, repos, tags, families, sitemaps, the feed and page files,
//     the marker) and does not begin with a dot;
//   - each part is at most maxNameBytes bytes (file systems hold 255);
//   - each part is a file name on Windows: none of < > : " \ | ? * or a
//     control character, no trailing dot or space, and not a reserved
//     device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with or without an
//     extension, in any case);
//   - two repos whose paths differ only in case or in Unicode normalisation
//     (NFC against NFD "café") are one folder on macOS and Windows: the
//     second repo's records are rejected (checked by Set).

// maxNameBytes is the longest repo part accepted.
const maxNameBytes = 200

// siteNames are the top-level names the site uses for itself.
var siteNames = map[string]bool{
	"search": true, "static": true, "repos": true, "tags": true, "families": true, "sitemaps": true,
	"index.html": true, "404.html": true, "feed.xml": true, "robots.txt": true, "opensearch.xml": true,
	"sitemap.xml": true, "page": true,
}

// repoPathProblems returns what keeps repo from being a safe path.
func repoPathProblems(repo string) []Problem {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok {
		return nil // the schema rule reports it
	}
	var ps []Problem
	if siteNames[strings.ToLower(owner)] || strings.HasPrefix(owner, ".") {
		ps = append(ps, Problem{"repo", fmt.Sprintf("owner %q is a name the site uses for its own files", owner)})
	}
	for _, part := range []string{owner, name} {
		if len(part) > maxNameBytes {
			ps = append(ps, Problem{"repo", fmt.Sprintf("a part is %d bytes, over the %d-byte limit for a folder name", len(part), maxNameBytes)})
		}
		if why := windowsProblem(part); why != "" {
			ps = append(ps, Problem{"repo", fmt.Sprintf("%.60q is not a file name on Windows: %s", part, why)})
		}
	}
	return ps
}

// windowsProblem says why part cannot be a Windows file name, "" when it can.
func windowsProblem(part string) string {
	if i := strings.IndexFunc(part, func(r rune) bool { return r < 0x20 || strings.ContainsRune(`<>:"\|?*`, r) }); i >= 0 {
		return fmt.Sprintf("it holds %q", part[i:i+1])
	}
	if strings.HasSuffix(part, ".") || strings.HasSuffix(part, " ") {
		return "it ends in a dot or a space"
	}
	base, _, _ := strings.Cut(strings.ToLower(part), ".")
	switch base {
	case "con", "prn", "aux", "nul":
		return "a reserved device name"
	}
	if len(base) == 4 && (strings.HasPrefix(base, "com") || strings.HasPrefix(base, "lpt")) && base[3] >= '1' && base[3] <= '9' {
		return "a reserved device name"
	}
	return ""
}

// foldedRepo is the folder a repo lands in on a file system that folds
// case and normalises Unicode.
func foldedRepo(repo string) string { return strings.ToLower(norm.NFC.String(repo)) }
