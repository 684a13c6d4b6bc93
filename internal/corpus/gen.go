package corpus

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/errdocs/errdocs/generator/record"
)

// recGen makes the records of one repo. It is not shared between goroutines.
type recGen struct {
	d     *Dataset
	p     *repoPlan
	rng   *rand.Rand
	slugs map[string]bool
	last  *filledMsg
	lastT string // errorType of last, reused with it
	vars  map[string]string
}

// splitmix64 is a bijection on uint64: distinct record indexes give distinct
// ids, so ids are unique without a set.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func (d *Dataset) eachInRepo(i int, fn func(*record.Record) error) error {
	p := d.repos[i]
	g := &recGen{d: d, p: p, rng: rand.New(rand.NewPCG(p.seed, uint64(i))), slugs: make(map[string]bool, p.entry.ErrorCount), vars: map[string]string{}}
	var r record.Record
	for j := 0; j < p.entry.ErrorCount; j++ {
		g.make(&r, p.first+j, j)
		if err := fn(&r); err != nil {
			return err
		}
	}
	return nil
}

var sevWeights = []struct {
	s string
	w int
}{{"critical", 8}, {"error", 52}, {"warning", 27}, {"info", 13}}

var langTag = map[string]string{langPy: "python", langGo: "go", langTS: "typescript", langJS: "javascript", langRs: "rust", langJava: "java", langCpp: "cpp"}

var grpcCodes = map[string]string{
	"conn": "UNAVAILABLE", "timeout": "DEADLINE_EXCEEDED", "resource": "RESOURCE_EXHAUSTED", "perm": "PERMISSION_DENIED",
	"notfound": "NOT_FOUND", "arg": "INVALID_ARGUMENT", "type": "INVALID_ARGUMENT", "null": "INTERNAL", "index": "OUT_OF_RANGE",
	"key": "NOT_FOUND", "parse": "INVALID_ARGUMENT", "encoding": "DATA_LOSS", "auth": "UNAUTHENTICATED", "state": "FAILED_PRECONDITION",
	"unsupported": "UNIMPLEMENTED", "memory": "RESOURCE_EXHAUSTED", "io": "DATA_LOSS", "http": "UNKNOWN", "runtime": "INTERNAL",
}

var famStatus = map[string]int{
	"authentication-failed": 401, "authorization-denied": 403, "rate-limited": 429, "not-found": 404, "conflict": 409,
	"quota-exceeded": 429, "http-server-error": 503, "http-client-error": 400, "precondition-failed": 412, "invalid-argument": 422,
	"schema-violation": 422, "timeout": 504, "connection-refused": 502,
}

var situations = []string{
	"CI containers with a minimal base image", "local development right after a dependency upgrade", "production deploys under load",
	"Jupyter notebooks that keep state between cells", "serverless cold starts", "Kubernetes pods during a rolling update",
	"integration tests run in parallel", "long-running workers after days of uptime", "air-gapped or proxied corporate networks",
	"Windows machines with different path rules", "ARM laptops with native extensions", "batch jobs processing unusually large input",
}

// make fills r with record j of the repo (dataset index idx).
func (g *recGen) make(r *record.Record, idx, j int) {
	rng, p := g.rng, g.p
	*r = record.Record{}
	fileIdx := rng.IntN(len(p.files))
	file, lang := p.files[fileIdx], p.fileLang[fileIdx]

	// About 3% of records raise the same message from another place, as
	// libraries do; they share message, pattern and code with the last one.
	var f *filledMsg
	etype := ""
	if g.last != nil && rng.IntN(100) < 3 {
		f, etype = g.last, g.lastT
		lang = g.lastLang(f, lang)
	} else {
		ts := byLang[lang]
		if g.d.realMsgs != nil {
			ts = g.d.realMsgs[lang]
		}
		f = g.fill(ts[rng.IntN(len(ts))], lang)
		etype = g.errorType(f.t, lang)
	}
	g.last, g.lastT = f, etype
	t := f.t
	kit := kits[lang]

	r.ID = fmt.Sprintf("%016x", splitmix64(uint64(idx)+splitmix64(uint64(g.d.Seed))))
	r.Repo = p.entry.Repo
	r.ErrorMessage = f.msg
	r.MessagePattern = f.pattern
	r.ErrorType = etype
	r.SchemaVersion = record.SchemaVersion
	r.AnalyzedSha = p.entry.AnalyzedSha
	r.AnalyzedAt = isoTime(p.at.Add(-time.Duration(j)*1700*time.Millisecond - time.Duration(rng.IntN(900))*time.Millisecond))
	r.FilePath = file

	fam := t.fam
	if fam != nil && rng.IntN(100) < 82 {
		r.BackgroundTag = fam.tag
	}
	cat := "runtime"
	if fam != nil {
		cat = fam.cat
	}

	// errorCode: ~70% of records; the same template in the same repo keeps
	// the same code, so codes repeat across records.
	if etype == "error_code" || g.hashN(t.idx, 100) < 68 {
		r.ErrorCode = g.errorCode(t, cat, lang)
	}
	// errorClass: ~80%.
	classPct := 88
	if etype == "console" {
		classPct = 35
	}
	if g.hashN(t.idx+7777, 100) < classPct {
		if g.hashN(t.idx+31, 100) < 15 {
			r.ErrorClass = p.pascal + "Error"
			if lang == langGo {
				r.ErrorClass = "*" + strings.ToLower(p.pascal) + ".Error"
			}
		} else {
			r.ErrorClass = pickStable(kit.classes[cat], g.hashN(t.idx, 1000))
		}
	}
	if etype == "http" {
		r.HTTPStatus = f.status
		if r.HTTPStatus == 0 {
			r.HTTPStatus = famStatus[t.fam.tagOr("")]
		}
		if r.HTTPStatus == 0 {
			r.HTTPStatus = pick(rng, []int{400, 500, 502})
		}
	} else if f.status != 0 && rng.IntN(2) == 0 {
		r.HTTPStatus = f.status
	}
	r.Severity = t.sev
	if rng.IntN(100) >= 60 {
		x := rng.IntN(100)
		for _, s := range sevWeights {
			if x < s.w {
				r.Severity = s.s
				break
			}
			x -= s.w
		}
	}

	// Names used by the code and the prose of this record.
	fn := g.fnName(lang)
	fields := p.dom.fields
	a := styled(lang, pick(rng, fields))
	b := styled(lang, pick(rng, fields))
	for b == a {
		b = styled(lang, pick(rng, fields))
	}
	noun := pick(rng, p.dom.nouns)
	class := r.ErrorClass
	if class == "" {
		class = pickStable(kit.classes[cat], 0)
	}
	g.setVars(lang, f, fn, a, b, noun, class, r.ErrorCode, r.HTTPStatus)

	// Source excerpt: ~90% of records.
	if rng.IntN(100) < 90 {
		lines, raise := g.excerpt(lang, kit, etype)
		start := 1 + rng.IntN(1800)
		if g.d.real != nil {
			lines, raise, start = g.d.realExcerptFor(lang, idx)
		}
		// No trailing newline: upstream counts the lines of an excerpt by
		// splitting on "\n", so a final "\n" would add an empty line.
		r.SourceCode = strings.Join(lines, "\n")
		r.SourceCodeStart = start
		r.SourceCodeEnd = start + len(lines) - 1
		r.LineNumber = start + raise
		r.GithubURL = fmt.Sprintf("https://github.com/%s/blob/%s/%s#L%d-L%d", p.entry.Repo, p.entry.AnalyzedSha, file, r.SourceCodeStart, r.SourceCodeEnd)
	} else {
		r.GithubURL = fmt.Sprintf("https://github.com/%s/blob/%s/%s", p.entry.Repo, p.entry.AnalyzedSha, file)
		if rng.IntN(100) < 70 {
			r.LineNumber = 1 + rng.IntN(3000)
			r.GithubURL += fmt.Sprintf("#L%d", r.LineNumber)
		}
	}

	thin := rng.IntN(100) < 5
	r.Documentation = g.documentation(f, lang, fn, a, noun, class, file, thin)
	r.TriggerScenarios, r.CommonSituations = g.scenarios(f, fn, a, noun)
	if !thin {
		r.Solutions = g.solutions(f, a, noun)
	}
	if rng.IntN(100) < 75 {
		r.ExampleFix = g.expand(pick(rng, kit.fix))
	}
	if rng.IntN(100) < 85 {
		r.HandlingStrategy = strategyFor(cat, rng)
	}
	if rng.IntN(100) < 55 {
		r.ValidationCode = g.expand(pick(rng, kit.validate))
	}
	if rng.IntN(100) < 60 {
		r.TypeGuard = g.expand(pick(rng, kit.guard))
	}
	if rng.IntN(100) < 70 {
		r.TryCatchPattern = g.expand(pick(rng, kit.try))
	}
	r.PreventionTips = g.tips(f)
	r.Tags = g.tags(f, lang)
	r.Slug = g.slug(f, file)
}

func (f *family) tagOr(def string) string {
	if f == nil {
		return def
	}
	return f.tag
}

// lastLang keeps a reused message in a language its template fits.
func (g *recGen) lastLang(f *filledMsg, lang string) string {
	if g.d.realMsgs != nil {
		return f.t.langs // a real message keeps the language that raised it
	}
	for _, t := range byLang[lang] {
		if t == f.t {
			return lang
		}
	}
	return g.p.lang
}

func pickStable(xs []string, h int) string {
	if len(xs) == 0 {
		return "Error"
	}
	return xs[h%len(xs)]
}

// hashN is a stable function of (repo, key) in [0, n): the same template in
// the same repo gets the same code and class.
func (g *recGen) hashN(key, n int) int {
	h := fnv.New64a()
	var b [16]byte
	for i := range 8 {
		b[i] = byte(g.p.seed >> (8 * i))
		b[8+i] = byte(uint64(key) >> (8 * i))
	}
	h.Write(b[:])
	return int(h.Sum64() % uint64(n))
}

func (g *recGen) errorType(t *parsedTemplate, lang string) string {
	types := t.types
	et := types[0]
	if len(types) > 1 && g.rng.IntN(100) >= 60 {
		et = types[1+g.rng.IntN(len(types)-1)]
	}
	if et == "panic" && lang != langGo && lang != langRs && lang != langCpp {
		et = "exception"
	}
	return et
}

func (g *recGen) errorCode(t *parsedTemplate, cat, lang string) string {
	if t.code != "" && (lang == langJS || lang == langTS) {
		return t.code
	}
	ws := words(strings.ToUpper(t.tagOrWords()))
	switch g.p.codeKind {
	case 0:
		return fmt.Sprintf("E%04d", 1000+g.hashN(t.idx, 9000))
	case 1:
		return "ERR_" + strings.Join(ws, "_")
	case 2:
		return grpcCodes[cat]
	case 3:
		return strings.ToLower(g.p.pascal) + "." + strings.ToLower(strings.Join(ws, "_"))
	default:
		return fmt.Sprintf("%sK%03d", g.p.pascal[:1], g.hashN(t.idx, 1000))
	}
}

func (t *parsedTemplate) tagOrWords() string {
	if t.fam != nil {
		return t.fam.tag
	}
	return "internal"
}

func strategyFor(cat string, rng *rand.Rand) string {
	switch cat {
	case "conn", "timeout", "http":
		return pick(rng, []string{"retry", "retry", "try-catch", "fallback"})
	case "arg", "parse", "key", "encoding":
		return pick(rng, []string{"validation", "validation", "try-catch"})
	case "type", "null":
		return pick(rng, []string{"type-guard", "type-guard", "validation"})
	case "resource", "memory":
		return pick(rng, []string{"fallback", "retry", "try-catch"})
	}
	return pick(rng, []string{"try-catch", "try-catch", "fallback", "validation"})
}

// slug names the record from the message's fixed words, kept unique in the
// repo by the file's stem and then a counter.
func (g *recGen) slug(f *filledMsg, file string) string {
	base := kebab(f.slugTxt, 8, 64)
	if base == "" {
		base = "error"
	}
	if !g.slugs[base] {
		g.slugs[base] = true
		return base
	}
	stem := file[strings.LastIndexByte(file, '/')+1:]
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	s := kebab(base+" in "+stem, 12, 90)
	for n := 2; g.slugs[s]; n++ {
		s = kebab(base+" in "+stem, 12, 90) + "-" + strconv.Itoa(n)
	}
	g.slugs[s] = true
	return s
}

// kebab lowercases s into at most maxWords words of [a-z0-9] joined by
// hyphens, cut at a word boundary to at most maxLen bytes.
func kebab(s string, maxWords, maxLen int) string {
	var b strings.Builder
	n := 0
	word := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			if !word {
				if n == maxWords {
					break
				}
				if b.Len() > 0 {
					b.WriteByte('-')
				}
				n++
				word = true
			}
			b.WriteByte(c)
			continue
		}
		word = false
	}
	out := b.String()
	for len(out) > maxLen {
		i := strings.LastIndexByte(out, '-')
		if i <= 0 {
			out = out[:maxLen]
			break
		}
		out = out[:i]
	}
	return strings.Trim(out, "-")
}

func (g *recGen) tags(f *filledMsg, lang string) []string {
	rng := g.rng
	out := make([]string, 0, 6)
	add := func(t string) {
		for _, x := range out {
			if x == t {
				return
			}
		}
		out = append(out, t)
	}
	add(pick(rng, g.p.dom.tags))
	if rng.IntN(2) == 0 {
		add(pick(rng, g.p.dom.tags))
	}
	for range 1 + rng.IntN(2) {
		add(pick(rng, genericTags))
	}
	if rng.IntN(2) == 0 {
		add(langTag[lang])
	}
	if f.t.fam != nil && rng.IntN(100) < 30 {
		add(f.t.fam.tag)
	}
	return out
}

func (g *recGen) tips(f *filledMsg) []string {
	rng := g.rng
	if rng.IntN(100) < 8 {
		return nil
	}
	src := []string{"Log the full error with its cause chain", "Add a regression test that reproduces the failure", "Pin dependency versions in CI"}
	if f.t.fam != nil {
		src = f.t.fam.tips
	}
	n := 1 + rng.IntN(len(src))
	out := make([]string, 0, n+1)
	off := rng.IntN(len(src))
	for i := range n {
		out = append(out, src[(off+i)%len(src)])
	}
	if rng.IntN(4) == 0 {
		out = append(out, "Read the "+g.p.entry.Repo+" changelog before upgrading")
	}
	return out
}

func (g *recGen) solutions(f *filledMsg, a, noun string) []string {
	rng := g.rng
	src := []string{"Check the arguments passed to the failing call", "Upgrade to the latest release", "Open an issue with a minimal reproducer"}
	if f.t.fam != nil {
		src = f.t.fam.fixes
	}
	n := 1 + rng.IntN(len(src))
	out := make([]string, 0, n+1)
	for i := range n {
		out = append(out, src[i])
	}
	if rng.IntN(3) == 0 {
		out = append(out, fmt.Sprintf("Set `%s` explicitly when creating the %s instead of relying on the default", a, noun))
	}
	return out
}

func (g *recGen) scenarios(f *filledMsg, fn, a, noun string) (string, string) {
	rng := g.rng
	causes := []string{"the " + noun + " is in an unexpected state", "an argument is out of range", "an internal invariant is broken"}
	if f.t.fam != nil {
		causes = f.t.fam.causes
	}
	c1, c2 := causes[rng.IntN(len(causes))], causes[rng.IntN(len(causes))]
	trig := fmt.Sprintf("Calling `%s` where %s", fn, c1)
	if c2 != c1 {
		trig += "; or where " + c2
	}
	trig += "."
	if rng.IntN(2) == 0 {
		trig += fmt.Sprintf(" It also shows up when `%s` comes from user input without validation.", a)
	}
	s1, s2 := pick(rng, situations), pick(rng, situations)
	com := "Seen in " + s1
	if s2 != s1 {
		com += " and " + s2
	}
	com += "; often because " + causes[rng.IntN(len(causes))] + "."
	return trig, com
}

var fences = map[string]string{langPy: "python", langGo: "go", langTS: "ts", langJS: "js", langRs: "rust", langJava: "java", langCpp: "cpp"}

// documentation writes Markdown from one line (thin records) to a few
// paragraphs with a list, inline code, sometimes a table, a link or a code
// block.
func (g *recGen) documentation(f *filledMsg, lang, fn, a, noun, class, file string, thin bool) string {
	rng := g.rng
	fam := f.t.fam
	meaning := fmt.Sprintf("The library rejected the %s because it is not in a usable state.", noun)
	causes := []string{"the " + noun + " was configured incorrectly", "the call order is wrong", "an upstream component failed"}
	if fam != nil {
		meaning, causes = fam.meaning, fam.causes
	}
	if thin {
		if rng.IntN(2) == 0 {
			return meaning
		}
		return fmt.Sprintf("Raised by `%s`. Usual cause: %s.", fn, causes[0])
	}
	var b strings.Builder
	b.WriteString(meaning)
	fmt.Fprintf(&b, " In `%s` it is raised by `%s` (in `%s`); the usual cause: %s.", g.p.entry.Repo, fn, file, pick(rng, causes))
	x := rng.IntN(100)
	if x < 30 {
		return b.String()
	}
	fmt.Fprintf(&b, "\n\nThe error is a `%s`. Common causes:\n\n", class)
	for _, c := range causes {
		b.WriteString("- " + upperFirst(c) + "\n")
	}
	if x < 70 {
		return strings.TrimSuffix(b.String(), "\n")
	}
	fmt.Fprintf(&b, "\nThe check exists because continuing with a bad %s would fail later with a far less helpful message. ", noun)
	fmt.Fprintf(&b, "The `%s` setting controls this behaviour; most users never need to change it.\n", a)
	if rng.IntN(100) < 35 {
		fmt.Fprintf(&b, "\n| Setting | Default | Effect |\n| --- | --- | --- |\n| `%s` | `%d` | upper bound checked before the error |\n| `%s` | `none` | disables the check when set to `0` |\n",
			a, pick(rng, []int{8, 30, 100, 1024, 65535}), styled(lang, pick(rng, g.p.dom.fields)))
	}
	if rng.IntN(100) < 40 {
		fmt.Fprintf(&b, "\nSee [the %s guide](https://github.com/%s/blob/%s/docs/%s.md) and ~~the old FAQ~~ for details.\n",
			noun, g.p.entry.Repo, g.p.entry.DefaultBranch, strings.ReplaceAll(snakeC(noun), "_", "-"))
	}
	if rng.IntN(100) < 30 {
		fmt.Fprintf(&b, "\n```%s\n%s\n```\n", fences[lang], g.expand(kits[lang].validate[0]))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// setVars sets the values the code templates of kit are expanded with for
// one record (see langs.go for the names).
func (g *recGen) setVars(lang string, f *filledMsg, fn, a, b, noun, class, code string, status int) {
	rng := g.rng
	dom := g.p.dom
	v := g.vars
	clear(v)
	if status == 0 {
		status = 500
	}
	if code == "" {
		code = "E_" + strings.ToUpper(snakeC(noun))
	}
	msg, msgf, errorf := renderMsg(lang, f.segs, rng)
	cond := g.literal("cond", lang)
	v["fn"], v["Fn"], v["fn2"], v["fn3"] = fn, pascal(fn), g.fnName(lang), g.fnName(lang)
	v["a"], v["b"], v["Class"] = a, b, class
	v["msg"], v["msgf"], v["errorf"] = msg, msgf, errorf
	v["cond"], v["cond2"] = cond, negate(cond)
	v["noun"], v["noun_"], v["Noun"], v["NOUN"], v["Type"] = noun, snakeC(noun), pascalC(noun), strings.ToUpper(snakeC(noun)), pascalC(noun)
	v["sub"], v["code"], v["status"] = substr(f.msg), code, strconv.Itoa(status)
	v["op"], v["Op"] = pick(rng, dom.ops), upperFirst(pick(rng, dom.ops))
	v["Doc"] = g.expand(pick(rng, docSentences))
	d := g.expand(pick(rng, docSentences))
	v["doc"] = strings.ToLower(d[:1]) + d[1:]
	v["Comment"] = g.expand(pick(rng, comments))
}

// expand fills {name} placeholders of s from g.vars; braces that do not
// name a known value (code such as "{}" or "{{") are kept as they are.
func (g *recGen) expand(s string) string {
	return expand(s, func(k string) (string, bool) { v, ok := g.vars[k]; return v, ok })
}

func expand(s string, get func(string) (string, bool)) string {
	if strings.IndexByte(s, '{') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := 1
		for j < len(s) && isIdent(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '}' && j > 1 {
			if v, ok := get(s[1:j]); ok {
				b.WriteString(v)
				s = s[j+1:]
				continue
			}
		}
		b.WriteByte('{')
		s = s[1:]
	}
}

func isIdent(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

var (
	escC      = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	escPyF    = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "{", "{{", "}", "}}")
	escJSq    = strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	escJSt    = strings.NewReplacer(`\`, `\\`, "`", "\\`", "${", "\\${")
	escBraces = strings.NewReplacer("{", "{{", "}", "}}")
	wordSeps  = strings.NewReplacer("-", " ", ".", " ", "+", " ")
)

// negate turns a guard condition into the invariant a CHECK asserts.
func negate(c string) string {
	if strings.HasPrefix(c, "!") {
		return c[1:]
	}
	return "!(" + c + ")"
}

// substr is a short fixed part of the message that handlers match on.
func substr(msg string) string {
	best := ""
	for _, w := range strings.Fields(msg) {
		w = strings.Trim(w, ".,:;'\"()[]`")
		if len(w) > len(best) && isAlpha(w) {
			best = w
		}
	}
	if best == "" {
		best = "error"
	}
	return best
}

// quoteC escapes s for a double-quoted string literal of a C-like language.
func quoteC(s string) string {
	return escC.Replace(s)
}

// renderMsg spells the message as source code: msg is an expression, msgf
// the arguments of a printf-like call, errorf (Go) an error value.
func renderMsg(lang string, segs []codeSeg, rng *rand.Rand) (msg, msgf, errorf string) {
	var vars []string
	for _, s := range segs {
		if s.v != "" {
			vars = append(vars, s.v)
		}
	}
	var b strings.Builder
	switch lang {
	case langPy:
		for _, s := range segs {
			if s.v != "" {
				b.WriteString("{" + s.v + "}")
			} else {
				b.WriteString(escPyF.Replace(s.text))
			}
		}
		if len(vars) == 0 {
			msg = `"` + quoteC(joinText(segs)) + `"`
		} else {
			msg = `f"` + b.String() + `"`
		}
		return msg, msg, msg
	case langGo:
		for _, s := range segs {
			if s.v != "" {
				b.WriteString(s.verb)
			} else {
				b.WriteString(strings.ReplaceAll(quoteC(s.text), "%", "%%"))
			}
		}
		args := ""
		if len(vars) > 0 {
			args = ", " + strings.Join(vars, ", ")
		}
		msgf = `"` + b.String() + `"` + args
		if len(vars) == 0 {
			msg = `"` + quoteC(joinText(segs)) + `"`
			return msg, msgf, "errors.New(" + msg + ")"
		}
		return "fmt.Sprintf(" + msgf + ")", msgf, "fmt.Errorf(" + msgf + ")"
	case langTS, langJS:
		if len(vars) == 0 {
			msg = "'" + escJSq.Replace(joinText(segs)) + "'"
			return msg, msg, msg
		}
		for _, s := range segs {
			if s.v != "" {
				b.WriteString("${" + s.v + "}")
			} else {
				b.WriteString(escJSt.Replace(s.text))
			}
		}
		msg = "`" + b.String() + "`"
		return msg, msg, msg
	case langRs:
		for _, s := range segs {
			if s.v != "" {
				b.WriteString("{}")
			} else {
				b.WriteString(escBraces.Replace(quoteC(s.text)))
			}
		}
		args := ""
		if len(vars) > 0 {
			args = ", " + strings.Join(vars, ", ")
		}
		msgf = `"` + b.String() + `"` + args
		if len(vars) == 0 {
			msg = `"` + quoteC(joinText(segs)) + `".to_string()`
		} else {
			msg = "format!(" + msgf + ")"
		}
		return msg, msgf, msg
	case langJava:
		if len(vars) == 0 {
			msg = `"` + quoteC(joinText(segs)) + `"`
			return msg, msg, msg
		}
		if rng.IntN(2) == 0 {
			for _, s := range segs {
				if s.v != "" {
					b.WriteString("%s")
				} else {
					b.WriteString(strings.ReplaceAll(quoteC(s.text), "%", "%%"))
				}
			}
			msg = `String.format("` + b.String() + `", ` + strings.Join(vars, ", ") + ")"
			return msg, msg, msg
		}
		var parts []string
		for _, s := range segs {
			if s.v != "" {
				parts = append(parts, s.v)
			} else if s.text != "" {
				parts = append(parts, `"`+quoteC(s.text)+`"`)
			}
		}
		msg = strings.Join(parts, " + ")
		return msg, msg, msg
	default: // C++
		if len(vars) == 0 {
			msg = `"` + quoteC(joinText(segs)) + `"`
			return msg, msg, msg
		}
		var parts []string
		for _, s := range segs {
			if s.v != "" {
				parts = append(parts, s.v)
			} else if s.text != "" {
				parts = append(parts, `"`+quoteC(s.text)+`"`)
			}
		}
		msg = "absl::StrCat(" + strings.Join(parts, ", ") + ")"
		return msg, msg, msg
	}
}

func joinText(segs []codeSeg) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteString(s.text)
	}
	return b.String()
}

// excerpt lays out 10 to 40 lines of code around the raise and says which
// line raises.
func (g *recGen) excerpt(lang string, kit *langKit, etype string) ([]string, int) {
	rng := g.rng
	target := 10 + rng.IntN(31)
	var lines []string
	add := func(block string) { lines = append(lines, strings.Split(g.expand(block), "\n")...) }
	// Fillers come in a shuffled round so an excerpt rarely repeats a line.
	order := rng.Perm(len(kit.fillers))
	next := 0
	filler := func() {
		f := kit.fillers[order[next%len(order)]]
		next++
		c := pick(rng, g.p.dom.fields)
		g.vars["c"], g.vars["C"] = styled(lang, c), pascalC(c)
		add(f)
	}
	if rng.IntN(2) == 0 {
		add(pick(rng, kit.tails))
		lines = append(lines, "")
	}
	add(pick(rng, kit.headers))
	raises := kit.raises[etype]
	if len(raises) == 0 {
		raises = kit.raises["exception"]
	}
	raiseBlock := strings.Split(g.expand(pick(rng, raises)), "\n")
	tail := strings.Split(g.expand(pick(rng, kit.tails)), "\n")
	room := target - len(lines) - len(raiseBlock) - len(tail)
	pre := room * (4 + rng.IntN(4)) / 10
	for n := 0; n < pre; {
		before := len(lines)
		if rng.IntN(200) == 0 {
			lines = append(lines, longLine(kit.longLine, rng))
		} else {
			filler()
		}
		n += len(lines) - before
	}
	raise := -1
	for _, l := range raiseBlock {
		if strings.HasPrefix(l, "@") {
			raise = len(lines)
			l = l[1:]
		}
		lines = append(lines, l)
	}
	if raise < 0 {
		raise = len(lines) - len(raiseBlock) // blocks without a marker raise on their first line
	}
	for len(lines)+len(tail) < target {
		filler()
	}
	lines = append(lines, tail...)
	if len(lines)+3 <= target {
		lines = append(lines, "")
		add(pick(rng, kit.headers))
	}
	for len(lines) < target {
		filler()
	}
	if len(lines) > 40 {
		lines = lines[:40]
	}
	return lines, raise
}

// longLine is a generated table on one line, thousands of characters wide,
// as minified or generated sources have.
func longLine(prefix string, rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := range 200 + rng.IntN(400) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "0x%08x", rng.Uint32())
	}
	switch prefix[len(prefix)-1] {
	case '[':
		b.WriteString("]")
	default:
		b.WriteString("}")
	}
	if strings.HasSuffix(prefix, "= {") || strings.HasSuffix(prefix, "= [") && !strings.HasPrefix(strings.TrimSpace(prefix), "_") {
		b.WriteString(";")
	}
	return b.String()
}
