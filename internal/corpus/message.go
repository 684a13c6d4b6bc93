package corpus

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// tpart is one piece of a parsed message template: literal text, or a
// placeholder of some kind (repeat: {=kind}, the first value again).
type tpart struct {
	lit    string
	kind   string
	repeat bool
}

type parsedTemplate struct {
	msgTemplate
	idx   int
	parts []tpart
	types []string
	fam   *family
	// code is an errno-style code the message itself names (ECONNREFUSED).
	code string
}

var (
	parsed []*parsedTemplate
	byLang = map[string][]*parsedTemplate{}
)

// literalKinds are placeholders whose value is fixed text of the repo, quoted
// in the pattern; all other kinds are variable parts.
var literalKinds = map[string]bool{
	"noun": true, "Noun": true, "op": true, "fn": true, "Type": true, "cond": true, "device": true, "verb": true,
}

var errnoCode = regexp.MustCompile(`\bE[A-Z]{4,}\b`)

func init() {
	famByTag := map[string]*family{}
	for i := range families {
		famByTag[families[i].tag] = &families[i]
	}
	for i, t := range templates {
		pt := &parsedTemplate{msgTemplate: t, idx: i, types: strings.Fields(t.types)}
		if len(pt.types) == 0 {
			pt.types = []string{"exception"}
		}
		if t.fam != "" {
			pt.fam = famByTag[t.fam]
			if pt.fam == nil {
				panic("corpus: template names unknown family " + t.fam) // a bug in the tables, found by any test
			}
		}
		s := t.msg
		for s != "" {
			i := strings.IndexByte(s, '{')
			j := strings.IndexByte(s, '}')
			if i < 0 || j < i {
				pt.parts = append(pt.parts, tpart{lit: s})
				break
			}
			if i > 0 {
				pt.parts = append(pt.parts, tpart{lit: s[:i]})
			}
			k := s[i+1 : j]
			rep := strings.HasPrefix(k, "=")
			pt.parts = append(pt.parts, tpart{kind: strings.TrimPrefix(k, "="), repeat: rep})
			s = s[j+1:]
		}
		pt.code = errnoCode.FindString(t.msg)
		parsed = append(parsed, pt)
		ls := strings.Fields(t.langs)
		if len(ls) == 0 {
			for _, l := range langs {
				ls = append(ls, l.code)
			}
		}
		for _, l := range ls {
			byLang[l] = append(byLang[l], pt)
		}
	}
	for _, res := range kindRes {
		for _, re := range res {
			if _, ok := anchored[re]; !ok {
				anchored[re] = regexp.MustCompile(`^(?:` + re + `)$`)
			}
		}
	}
}

// kindRes lists, per variable kind, the generalisations a model might write,
// from specific to loose. A record uses the first (of a random rotation)
// that matches its value, so the pattern always matches the message.
var kindRes = map[string][]string{
	"ip":       {`\d{1,3}(?:\.\d{1,3}){3}`, `[\d.]+`, `\S+`},
	"port":     {`\d+`, `\d{1,5}`},
	"host":     {`[\w.-]+`, `\S+`, `[^:/\s]+`},
	"path":     {`\S+`, `.+`, `/\S*`, `[^']+`},
	"url":      {`\S+`, `https?://\S+`, `.+`},
	"urlpath":  {`.+`, `\S+`, `/\S*`},
	"int":      {`-?\d+`, `\S+`},
	"n":        {`\d+`, `[0-9]+`},
	"size":     {`[\d.]+ [KMG]iB`, `.+?`, `\S+ \w+`},
	"dur":      {`[\w.]+`, `\S+`, `\d+(?:\.\d+)?(?:ms|s|m)`},
	"ms":       {`\d+`},
	"secs":     {`[\d.]+`, `\d+(?:\.\d+)?`},
	"errno":    {`-?\d+`, `\d+`},
	"name":     {`\w+`, `[A-Za-z_]\w*`, `\S+`, `.+`},
	"qname":    {`[^'"]+`, `.+?`, `\S+`, `[\w.-]+`},
	"type":     {`\S+`, `.+?`, `\w+`, `[^']+`},
	"jtype":    {`[\w.$]+`, `\S+`},
	"version":  {`v?\d+(?:\.\d+)*`, `\S+`, `[\w.-]+`},
	"hex":      {`[0-9a-f]+`, `\w+`, `[0-9a-fA-F]{8,}`},
	"hex2":     {`[0-9a-f]{2}`, `[0-9a-fA-F]+`},
	"hex8":     {`[0-9a-f]{8}`, `[0-9a-fA-F]+`},
	"char":     {`.`, `\S`},
	"module":   {`\S+`, `[\w./@:-]+`, `[^']+`},
	"env":      {`[A-Z][A-Z0-9_]*`, `\w+`},
	"method":   {`[A-Z]+`, `\w+`, `GET|POST|PUT|PATCH|DELETE`},
	"status4":  {`4\d\d`, `\d{3}`},
	"status5":  {`5\d\d`, `\d{3}`},
	"reason":   {`.+`, `[\w ]+`},
	"time":     {`\S+`, `[0-9TZ:-]+`},
	"user":     {`\S+`, `[\w.:-]+`},
	"word":     {`\S+`, `[\w.-]+`, `.+`},
	"state":    {`\w+`},
	"redacted": {`\S+`, `sk-\S+`},
	"date":     {`[^']+`, `.+`},
	"err":      {`.+`, `.*`, `.+?`},
}

var anchored = map[string]*regexp.Regexp{}

var wordValues = []string{"localhost:8080", "example.com", "v2beta1", "fastjson", "eu-west-1", "dry-run", "verbose", "jsonl",
	"api.internal", "staging", "legacy-mode", "no-cache", "gzip", "arm64", "wasm32", "ndjson", "cpu", "strict", "nightly", "zstd"}

var users = []string{"alice", "svc-deploy", "ci-bot", "jdoe", "system:serviceaccount:default:builder", "admin@example.com", "readonly", "batch-worker"}

var varNames = map[string][]string{
	"ip": {"host", "remote_addr"}, "port": {"port", "remote_port"}, "host": {"host", "server_name"}, "path": {"path", "filename"},
	"url": {"url", "target"}, "urlpath": {"url", "path"}, "int": {"value", "given"}, "n": {"n", "limit", "got", "want", "idx"},
	"size": {"requested", "capacity"}, "dur": {"elapsed", "delay"}, "ms": {"timeout_ms"}, "secs": {"timeout"}, "errno": {"errno"},
	"name": {"name", "key", "attr"}, "qname": {"name", "other"}, "type": {"expected", "actual"}, "jtype": {"cls", "target_cls"},
	"version": {"want", "got"}, "hex": {"want_sum", "got_sum"}, "hex2": {"byte"}, "hex8": {"magic"}, "char": {"ch"},
	"module": {"module", "dep"}, "env": {"var_name"}, "method": {"method"}, "status4": {"status"}, "status5": {"status"},
	"reason": {"reason"}, "time": {"now", "not_after"}, "user": {"user"}, "word": {"value", "option", "hint"},
	"state": {"state"}, "redacted": {"redacted_key"}, "date": {"value"}, "err": {"err", "cause"},
}

// errValues are what a wrapped error prints (a real message's %w, or a
// last placeholder after ": ").
var errValues = []string{"connection reset by peer", "EOF", "context canceled", "unexpected EOF", "permission denied",
	"i/o timeout", "invalid argument", "no such file or directory", "context deadline exceeded", "broken pipe"}

// codeSeg is a piece of the message as the source code spells it.
type codeSeg struct {
	text string
	v    string // variable name, when the piece is a variable
	verb string // printf verb for it
}

// filledMsg is a template made concrete for one record.
type filledMsg struct {
	t       *parsedTemplate
	msg     string
	pattern string
	slugTxt string // the literal words, for the slug
	segs    []codeSeg
	status  int
	special int // 0, or which deliberate pattern trouble it carries
}

const (
	specialBackref = 1 + iota
	specialLookahead
	specialCatastrophic
)

// fill makes a message and its pattern from t for a record in lang.
func (g *recGen) fill(t *parsedTemplate, lang string) *filledMsg {
	rng := g.rng
	f := &filledMsg{t: t}
	hasRepeat := false
	for _, p := range t.parts {
		hasRepeat = hasRepeat || p.repeat
	}
	x := rng.IntN(10000)
	switch {
	case hasRepeat && x < 2500:
		f.special = specialBackref
	case x < 15:
		f.special = specialLookahead
	case x < 45:
		f.special = specialCatastrophic
	}
	var msg, pat, slug strings.Builder
	type firstVal struct{ val, re, v string }
	firsts := map[string]firstVal{}
	usedNames := map[string]int{}
	catastrophicDone := false
	lookWord := ""
	for _, p := range t.parts {
		if p.kind == "" {
			msg.WriteString(p.lit)
			pat.WriteString(regexp.QuoteMeta(p.lit))
			slug.WriteString(p.lit)
			f.segs = append(f.segs, codeSeg{text: p.lit})
			if lookWord == "" {
				for _, w := range strings.Fields(p.lit) {
					if len(w) >= 5 && isAlpha(w) {
						lookWord = w
						break
					}
				}
			}
			continue
		}
		if literalKinds[p.kind] {
			v := g.literal(p.kind, lang)
			msg.WriteString(v)
			pat.WriteString(regexp.QuoteMeta(v))
			slug.WriteString(" " + v + " ")
			f.segs = append(f.segs, codeSeg{text: v})
			continue
		}
		if p.repeat {
			fv, ok := firsts[p.kind]
			if !ok { // a template that repeats before the first use: treat as new
				fv.val = g.value(p.kind, lang, f)
				fv.re = g.chooseRe(p.kind, fv.val)
			}
			msg.WriteString(fv.val)
			if f.special == specialBackref {
				pat.WriteString(`\1`)
			} else {
				pat.WriteString(fv.re)
			}
			f.segs = append(f.segs, codeSeg{v: fv.v, verb: verbFor(p.kind)})
			continue
		}
		val := g.value(p.kind, lang, f)
		re := g.chooseRe(p.kind, val)
		base := pick(rng, varNames[p.kind])
		if usedNames[base] > 0 {
			base += strconv.Itoa(usedNames[base] + 1)
		}
		usedNames[base]++
		v := styled(lang, base)
		if _, seen := firsts[p.kind]; !seen {
			firsts[p.kind] = firstVal{val, re, v}
			if f.special == specialBackref && hasRepeatOf(t, p.kind) {
				re = "(" + re + ")"
			}
		}
		if f.special == specialCatastrophic && !catastrophicDone {
			if anchored[`\w+`].MatchString(val) {
				re = `(\w+)+`
			} else {
				re = `(.+)+`
			}
			catastrophicDone = true
		}
		msg.WriteString(val)
		pat.WriteString(re)
		f.segs = append(f.segs, codeSeg{v: v, verb: verbFor(p.kind)})
	}
	if f.special == specialCatastrophic && !catastrophicDone {
		f.special = 0
	}
	if f.special == specialLookahead && lookWord == "" {
		f.special = 0
	}
	f.msg = msg.String()
	p := pat.String()
	switch {
	case f.special == specialLookahead:
		p = "(?=.*" + regexp.QuoteMeta(lookWord) + ")" + p
	case f.special == specialCatastrophic:
		p += "$"
	case rng.IntN(4) == 0:
		p = "^" + p + "$"
	}
	f.pattern = p
	f.slugTxt = slug.String()
	return f
}

func hasRepeatOf(t *parsedTemplate, kind string) bool {
	for _, p := range t.parts {
		if p.repeat && p.kind == kind {
			return true
		}
	}
	return false
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

func verbFor(kind string) string {
	switch kind {
	case "n", "int", "port", "ms", "errno", "status4", "status5":
		return "%d"
	case "ip", "host", "path", "url", "urlpath", "name", "qname", "module", "env", "method", "reason", "user", "word", "state", "date", "jtype", "redacted":
		return "%s"
	}
	return "%v"
}

// chooseRe picks a generalisation for kind that matches val, starting at a
// random one so patterns vary between records.
func (g *recGen) chooseRe(kind, val string) string {
	res := kindRes[kind]
	if len(res) == 0 {
		return regexp.QuoteMeta(val)
	}
	// Favour the first (most specific) alternative, as a model usually does.
	start := 0
	if g.rng.IntN(3) == 0 {
		start = g.rng.IntN(len(res))
	}
	for i := range res {
		re := res[(start+i)%len(res)]
		if anchored[re].MatchString(val) {
			return re
		}
	}
	return regexp.QuoteMeta(val)
}

// literal gives the fixed text of a literal placeholder for this repo.
func (g *recGen) literal(kind, lang string) string {
	rng, dom := g.rng, g.p.dom
	switch kind {
	case "noun":
		return pick(rng, dom.nouns)
	case "Noun":
		return upperFirst(pick(rng, dom.nouns))
	case "op":
		return pick(rng, dom.ops)
	case "verb":
		return pick(rng, verbs)
	case "fn":
		return g.fnName(lang)
	case "Type":
		return pascalC(pick(rng, dom.nouns))
	case "device":
		return pick(rng, []string{"GPU", "TPU", "CUDA", "Metal", "ROCm"})
	case "cond":
		c := pick(rng, kits[lang].conds)
		return expand(c, func(k string) (string, bool) {
			switch k {
			case "a", "b":
				return styled(lang, pick(rng, dom.fields)), true
			case "Noun":
				return pascalC(pick(rng, dom.nouns)), true
			case "NOUN":
				return strings.ToUpper(snakeC(pick(rng, dom.nouns))), true
			}
			return "", false
		})
	}
	return kind
}

func (g *recGen) fnName(lang string) string {
	rng := g.rng
	verb := pick(rng, fnVerbs)
	name := verb + "_" + snakeC(pick(rng, g.p.dom.nouns))
	switch lang {
	case langGo, langCpp:
		if rng.IntN(2) == 0 {
			return pascal(name)
		}
		return camel(name)
	case langTS, langJS, langJava:
		return camel(name)
	}
	return name
}

var fnVerbs = []string{"load", "open", "send", "resolve", "parse", "apply", "build", "fetch", "register", "commit", "encode", "decode", "acquire", "validate", "connect", "compile"}

// value makes a value for a variable placeholder.
func (g *recGen) value(kind, lang string, f *filledMsg) string {
	rng, dom := g.rng, g.p.dom
	switch kind {
	case "ip":
		return fmt.Sprintf("%d.%d.%d.%d", pick(rng, []int{10, 127, 172, 192, 34, 52}), rng.IntN(256), rng.IntN(256), 1+rng.IntN(254))
	case "port":
		if rng.IntN(2) == 0 {
			return strconv.Itoa(pick(rng, []int{80, 443, 5432, 6379, 8080, 8443, 9092, 2379, 3306, 27017, 50051, 9200}))
		}
		return strconv.Itoa(1024 + rng.IntN(64000))
	case "host":
		h := pick(rng, []string{"localhost", "api.example.com", "db-%d.prod.internal", "registry.npmjs.org", "%s.svc.cluster.local", "storage.googleapis.com", "10.0.%d.12"})
		h = strings.Replace(h, "%d", strconv.Itoa(rng.IntN(16)), 1)
		return strings.Replace(h, "%s", strings.ReplaceAll(snakeC(pick(rng, dom.nouns)), "_", "-"), 1)
	case "path":
		_, name, _ := strings.Cut(g.p.entry.Repo, "/")
		return pick(rng, []string{
			"/var/lib/" + name + "/data/" + snakeC(pick(rng, dom.nouns)) + ".db",
			"/etc/" + name + "/config.yaml",
			"/home/runner/work/" + name + "/" + name + "/" + pick(rng, []string{"build", "dist", "target"}) + "/out.bin",
			"/tmp/" + name + "-" + strconv.Itoa(rng.IntN(99999)) + "/" + snakeC(pick(rng, dom.nouns)),
			"./" + pick(rng, []string{"models", "certs", "fixtures", "migrations"}) + "/" + snakeC(pick(rng, dom.nouns)) + pick(rng, []string{".json", ".pem", ".sql", ".bin", ".ckpt"}),
			"C:\\Users\\dev\\" + name + "\\cache\\index.lock",
		})
	case "url":
		return "https://" + pick(rng, []string{"api.example.com", "registry.example.org", "hooks.internal:8443", "127.0.0.1:8000"}) +
			"/v" + strconv.Itoa(1+rng.IntN(3)) + "/" + strings.ReplaceAll(snakeC(pick(rng, dom.nouns)), "_", "-") + "s/" + strconv.Itoa(rng.IntN(100000))
	case "urlpath":
		return "/v" + strconv.Itoa(1+rng.IntN(3)) + "/" + strings.ReplaceAll(snakeC(pick(rng, dom.nouns)), "_", "-") + "s/" +
			strconv.Itoa(rng.IntN(100000)) + pick(rng, []string{"", "?page=2", "?limit=100&offset=200", " (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3a2c1e5d90>: Failed to establish a new connection'))"})
	case "int":
		return strconv.Itoa(rng.IntN(20000) - 5000)
	case "n":
		return strconv.Itoa(pick(rng, []int{0, 1, 2, 3, 8, 16, 64, 100, 128, 256, 1024, 4096, 65535, 1 << 20}) + rng.IntN(3))
	case "size":
		return fmt.Sprintf("%d.%02d %s", 1+rng.IntN(900), rng.IntN(100), pick(rng, []string{"MiB", "GiB", "KiB"}))
	case "dur":
		return pick(rng, []string{"30s", "1.5s", "250ms", "2m30s", "10s", "5m0s", "100ms"})
	case "ms":
		return strconv.Itoa(pick(rng, []int{1000, 5000, 10000, 30000, 60000}))
	case "secs":
		return pick(rng, []string{"30", "10", "5.0", "60", "2.5"})
	case "errno":
		return pick(rng, []string{"111", "110", "104", "-2"})
	case "name", "qname":
		fld := pick(rng, dom.fields)
		if kind == "qname" && rng.IntN(2) == 0 {
			return strings.ReplaceAll(fld, "_", "-") + pick(rng, []string{"", "-v2", "-prod", "/default", ".staging"})
		}
		return styled(lang, fld)
	case "type":
		return pick(rng, kits[lang].types)
	case "jtype":
		return pick(rng, []string{"java.lang.String", "java.lang.Integer", "java.util.Map", "org." + snake(g.p.pascal) + "." + pascalC(pick(rng, dom.nouns))})
	case "version":
		return fmt.Sprintf("%s%d.%d.%d%s", pick(rng, []string{"", "v"}), rng.IntN(5), rng.IntN(30), rng.IntN(20), pick(rng, []string{"", "", "-rc.1", "-beta"}))
	case "hex":
		return fmt.Sprintf("%016x", rng.Uint64())[:8+rng.IntN(9)]
	case "hex2":
		return fmt.Sprintf("%02x", 0x80+rng.IntN(0x80))
	case "hex8":
		return fmt.Sprintf("%08x", rng.Uint32())
	case "char":
		return pick(rng, []string{"<", "}", "u", "N", "]", "o", "\\"})
	case "module":
		_, name, _ := strings.Cut(g.p.entry.Repo, "/")
		n := snakeC(pick(rng, dom.nouns))
		switch lang {
		case langPy:
			return pick(rng, []string{snake(name) + "." + n, "numpy", "yaml", "google.protobuf", "torch._C"})
		case langTS, langJS:
			return pick(rng, []string{"./" + n, "@" + strings.Split(g.p.entry.Repo, "/")[0] + "/" + name, "lodash/merge", "node:fs/promises"})
		case langRs:
			return snake(name) + "::" + n
		default:
			return name + "/" + n
		}
	case "env":
		_, name, _ := strings.Cut(g.p.entry.Repo, "/")
		e := strings.ToUpper(snake(wordSeps.Replace(name)) + "_" + pick(rng, dom.fields))
		if e == "" || e[0] < 'A' || e[0] > 'Z' {
			e = "APP_" + e
		}
		return e
	case "method":
		return pick(rng, []string{"GET", "POST", "PUT", "PATCH", "DELETE"})
	case "status4":
		f.status = pick(rng, status4)
		return strconv.Itoa(f.status)
	case "status5":
		f.status = pick(rng, status5)
		return strconv.Itoa(f.status)
	case "reason":
		if r, ok := reasons[f.status]; ok {
			return r
		}
		return "Internal Server Error"
	case "time":
		return isoTime(g.p.at.Add(time.Duration(rng.IntN(1000)) * time.Hour))[:19] + "Z"
	case "user":
		return pick(rng, users)
	case "word":
		return pick(rng, wordValues)
	case "state":
		return pick(rng, states)
	case "redacted":
		return fmt.Sprintf("sk-****%04x", rng.IntN(1<<16))
	case "date":
		return fmt.Sprintf("%02d/%02d/2026", 1+rng.IntN(12), 1+rng.IntN(28))
	case "err":
		return pick(rng, errValues)
	}
	return kind
}
