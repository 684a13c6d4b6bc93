// Package corpus generates realistic synthetic datasets of error records, for
// tests and benchmarks, and writes them in the upstream export layout
// (repos/<owner>/<name>.json, repos.json, tags.json, info/, manifest.json).
//
// A dataset is deterministic for its seed: the same (n, seed) gives the same
// records and the same bytes on disk. Records are not held in memory: a
// Dataset is a plan (repos, their record counts and seeds), and each repo's
// records are made on demand, so 500,000 records need little memory.
//
// The shape follows the real dataset: about 150 records per repo on average
// with a Pareto tail (a few repos with thousands), seven languages with code
// to match, nulls where the schema allows them, documentation from one line
// to a few paragraphs of Markdown, ~60 error families, a few shared error
// codes and message patterns, and a small share of message patterns that a
// linear-time engine cannot compile (backreferences, lookahead) or that are
// slow on a backtracking one ((\w+)+).
package corpus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/errdocs/errdocs/generator/record"
)

// Dataset is a generated dataset: repos with their record counts. Records
// are made on demand by Repo, Each or WriteExport.
type Dataset struct {
	Seed int64
	// DatasetVersion is the dataset's ISO time, derived from the seed so the
	// output does not depend on the clock.
	DatasetVersion string

	repos []*repoPlan
	total int
	real  map[string][]realExcerpt // by language; nil: generated excerpts (UseRealCode)
	// realMsgs holds real message templates by language; nil: generated
	// messages (UseRealMessages).
	realMsgs map[string][]*parsedTemplate
}

type repoPlan struct {
	entry    record.Repo
	lang     string
	dom      *domain
	first    int // dataset-wide index of the repo's first record
	seed     uint64
	at       time.Time
	codeKind int // how this repo spells error codes
	pascal   string
	files    []string // source files, picked per record
	fileLang []string
}

// meanPerRepo is the average number of records per repo in the real data.
const meanPerRepo = 150

// Generate plans a dataset of n records for seed. It does no I/O and makes no
// records yet; n <= 0 gives an empty dataset.
func Generate(n int, seed int64) *Dataset {
	if n < 0 {
		n = 0
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	d := &Dataset{Seed: seed, total: n}
	if n == 0 {
		d.DatasetVersion = isoTime(baseTime)
		return d
	}
	counts := repoCounts(rng, n)
	used := map[string]bool{}
	latest := baseTime
	first := 0
	for _, c := range counts {
		p := newRepoPlan(rng, c, used)
		p.first = first
		first += c
		if p.at.After(latest) {
			latest = p.at
		}
		d.repos = append(d.repos, p)
	}
	d.DatasetVersion = isoTime(latest.Add(3*time.Hour + 17*time.Minute + 12746*time.Millisecond))
	return d
}

// Len is the number of records in the dataset.
func (d *Dataset) Len() int { return d.total }

// NumRepos is the number of repos.
func (d *Dataset) NumRepos() int { return len(d.repos) }

// RepoEntries returns the repos.json entries, in generation order.
// SourceFiles is -1 and Description "" where the entry holds null.
func (d *Dataset) RepoEntries() []record.Repo {
	out := make([]record.Repo, len(d.repos))
	for i, p := range d.repos {
		out[i] = p.entry
	}
	return out
}

// Repo makes the records of the i-th repo.
func (d *Dataset) Repo(i int) ([]record.Record, error) {
	if i < 0 || i >= len(d.repos) {
		return nil, fmt.Errorf("corpus: repo index %d out of range [0, %d)", i, len(d.repos))
	}
	out := make([]record.Record, 0, d.repos[i].entry.ErrorCount)
	err := d.eachInRepo(i, func(r *record.Record) error {
		out = append(out, *r)
		return nil
	})
	return out, err
}

// Each calls fn for every record, repo by repo, stopping at fn's first
// error. The record passed to fn is reused after fn returns.
func (d *Dataset) Each(fn func(*record.Record) error) error {
	for i := range d.repos {
		if err := d.eachInRepo(i, fn); err != nil {
			return err
		}
	}
	return nil
}

// Records makes every record in memory; meant for small datasets.
func (d *Dataset) Records() []record.Record {
	out := make([]record.Record, 0, d.total)
	_ = d.Each(func(r *record.Record) error { out = append(out, *r); return nil })
	return out
}

// baseTime is the start of the analysis window; repos are analysed over the
// following eight months.
var baseTime = time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// repoCounts splits n records over about n/150 repos with Pareto weights
// (alpha 1.16, the 80/20 shape), every repo getting at least one record.
func repoCounts(rng *rand.Rand, n int) []int {
	k := int(math.Round(float64(n) / meanPerRepo))
	k = max(1, min(k, n))
	w := make([]float64, k)
	sum := 0.0
	for i := range w {
		u := 1 - rng.Float64() // (0, 1]
		w[i] = math.Pow(u, -1/1.16)
		sum += w[i]
	}
	// Cap one repo at 5% of the records (a quarter for a handful of repos):
	// the real data's largest repo held a few percent of it, and an uncapped
	// Pareto draw now and then gives one repo a quarter of everything.
	if k > 1 {
		capW := sum / 20
		if k < 20 {
			capW = sum / 4
		}
		sum = 0
		for i := range w {
			w[i] = min(w[i], capW)
			sum += w[i]
		}
	}
	rest := n - k
	counts := make([]int, k)
	type rem struct {
		i int
		f float64
	}
	rems := make([]rem, k)
	given := 0
	for i := range w {
		share := float64(rest) * w[i] / sum
		counts[i] = 1 + int(share)
		given += int(share)
		rems[i] = rem{i, share - math.Floor(share)}
	}
	// Largest remainder, ties by index, so the split is exact and stable.
	slices.SortFunc(rems, func(a, b rem) int {
		if a.f != b.f {
			if a.f > b.f {
				return -1
			}
			return 1
		}
		return a.i - b.i
	})
	for j := 0; given < rest; j++ {
		counts[rems[j%k].i]++
		given++
	}
	return counts
}

var nameSuffix = map[string][]string{
	langPy:   {"", "", "-py", "py", "-python", "lib"},
	langGo:   {"", "", "-go", "go", "d", "ctl"},
	langTS:   {"", "", "-ts", ".js", "-client", "-kit"},
	langJS:   {"", "", "-js", ".js", "-node", "kit"},
	langRs:   {"", "", "-rs", "-rust", "-core", "rs"},
	langJava: {"", "", "-java", "-spring", "4j", "-boot"},
	langCpp:  {"", "", "-cpp", "++", "-native", "lib"},
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

func pickLang(rng *rand.Rand) string {
	total := 0
	for _, l := range langs {
		total += l.weight
	}
	x := rng.IntN(total)
	for _, l := range langs {
		if x < l.weight {
			return l.code
		}
		x -= l.weight
	}
	return langPy
}

func langName(code string) string {
	for _, l := range langs {
		if l.code == code {
			return l.name
		}
	}
	return ""
}

func langExts(code string) []string {
	for _, l := range langs {
		if l.code == code {
			return l.exts
		}
	}
	return []string{"txt"}
}

func newRepoPlan(rng *rand.Rand, count int, used map[string]bool) *repoPlan {
	p := &repoPlan{lang: pickLang(rng), dom: &domains[rng.IntN(len(domains))], seed: rng.Uint64()}
	owner := pick(rng, owners)
	name := pick(rng, p.dom.roots) + pick(rng, nameSuffix[p.lang])
	repo := owner + "/" + name
	for i := 2; used[repo]; i++ {
		repo = fmt.Sprintf("%s/%s-%d", owner, name, i)
	}
	used[repo] = true
	_, name, _ = strings.Cut(repo, "/")
	p.pascal = pascal(wordSeps.Replace(name))
	p.at = baseTime.Add(time.Duration(rng.Int64N(int64(240*24*time.Hour/time.Millisecond))) * time.Millisecond)
	sha := make([]byte, 0, 40)
	for range 5 {
		sha = fmt.Appendf(sha, "%08x", rng.Uint32())
	}
	stars := int(15 * math.Pow(1-rng.Float64(), -1/0.9))
	desc := fmt.Sprintf(p.dom.blurb, name)
	if rng.IntN(100) < 8 {
		desc = ""
	}
	branch := "main"
	switch x := rng.IntN(100); {
	case x < 20:
		branch = "master"
	case x < 25:
		branch = "develop"
	}
	sourceFiles := -1
	if rng.IntN(100) >= 10 {
		sourceFiles = count/2 + 20 + rng.IntN(count*3+400)
	}
	p.entry = record.Repo{
		Repo: repo, Description: desc, Language: langName(p.lang), Stars: min(stars, 250000),
		SourceFiles: sourceFiles, DefaultBranch: branch, AnalyzedSha: string(sha),
		AnalyzedAt: isoTime(p.at), ErrorCount: count,
	}
	if rng.IntN(100) < 5 {
		p.entry.Language = "" // upstream sometimes has no language
	}
	p.codeKind = rng.IntN(5)
	p.makeFiles(rng, count)
	return p
}

// makeFiles lays out the repo's source files: a pool sized to the repo, in
// the repo's language with a tenth in a second one (bindings, tooling).
func (p *repoPlan) makeFiles(rng *rand.Rand, count int) {
	n := min(400, 3+count/6)
	_, name, _ := strings.Cut(p.entry.Repo, "/")
	pkg := snake(wordSeps.Replace(name))
	if pkg == "" || pkg[0] < 'a' || pkg[0] > 'z' {
		pkg = "lib" + pkg
	}
	seen := map[string]bool{}
	for i := 0; len(p.files) < n && i < n*4; i++ {
		lang := p.lang
		if rng.IntN(10) == 0 {
			lang = pickLang(rng)
		}
		f := sourcePath(rng, lang, pkg, p.dom)
		if seen[f] {
			continue
		}
		seen[f] = true
		p.files = append(p.files, f)
		p.fileLang = append(p.fileLang, lang)
	}
}

var modWords = []string{"client", "core", "errors", "session", "config", "utils", "pool", "io", "api", "internal", "backend", "runtime", "transport", "codec", "registry", "loader", "manager", "handler", "server", "store"}

func sourcePath(rng *rand.Rand, lang, pkg string, dom *domain) string {
	mod := snake(pick(rng, dom.nouns))
	if rng.IntN(2) == 0 {
		mod = pick(rng, modWords)
	}
	sub := pick(rng, modWords)
	ext := pick(rng, langExts(lang))
	switch lang {
	case langPy:
		if rng.IntN(3) == 0 {
			return fmt.Sprintf("%s/_src/%s/%s.%s", pkg, sub, mod, ext)
		}
		return fmt.Sprintf("%s/%s.%s", pkg, mod, ext)
	case langGo:
		if rng.IntN(2) == 0 {
			return fmt.Sprintf("internal/%s/%s.go", sub, mod)
		}
		return fmt.Sprintf("%s/%s.go", sub, mod)
	case langTS, langJS:
		dir := "src"
		if lang == langJS && rng.IntN(2) == 0 {
			dir = "lib"
		}
		return fmt.Sprintf("%s/%s/%s.%s", dir, sub, camel(mod), ext)
	case langRs:
		if rng.IntN(3) == 0 {
			return fmt.Sprintf("%s-%s/src/%s.rs", pkg, sub, mod)
		}
		return fmt.Sprintf("src/%s/%s.rs", sub, mod)
	case langJava:
		return fmt.Sprintf("src/main/java/org/%s/%s/%s.java", pkg, sub, pascal(strings.ReplaceAll(mod, "_", " ")))
	default:
		return fmt.Sprintf("src/%s/%s.%s", sub, mod, ext)
	}
}

// Word-case helpers. They take words separated by spaces or underscores.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '_' || r == '-' })
}

func snake(s string) string { return strings.ToLower(strings.Join(words(s), "_")) }

func camel(s string) string {
	b := make([]byte, 0, len(s))
	up := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '_' || c == '-' {
			up = len(b) > 0
			continue
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if up && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b = append(b, c)
	}
	return string(b)
}

func pascal(s string) string {
	if !strings.ContainsAny(s, " _-") {
		return upperFirst(s) // already one word or camelCase: keep its humps
	}
	return upperFirst(camel(s))
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// styled spells a snake_case identifier the way lang would.
func styled(lang, ident string) string {
	if v, ok := styledCache[lang+"\x00"+ident]; ok {
		return v
	}
	return styledSlow(lang, ident)
}

func styledSlow(lang, ident string) string {
	switch lang {
	case langGo, langTS, langJS, langJava:
		return camel(ident)
	}
	return snake(ident)
}

// caseCache holds pascal, snake and styled forms of every vocabulary word,
// computed once: they are asked for many times per record.
var (
	styledCache = map[string]string{}
	pascalCache = map[string]string{}
	snakeCache  = map[string]string{}
)

func init() {
	for _, d := range domains {
		for _, w := range append(append([]string{}, d.fields...), d.nouns...) {
			pascalCache[w] = pascal(w)
			snakeCache[w] = snake(w)
			for _, l := range langs {
				styledCache[l.code+"\x00"+w] = styledSlow(l.code, w)
			}
		}
	}
}

func pascalC(s string) string {
	if v, ok := pascalCache[s]; ok {
		return v
	}
	return pascal(s)
}

func snakeC(s string) string {
	if v, ok := snakeCache[s]; ok {
		return v
	}
	return snake(s)
}
