package main

import (
	"regexp"
	"strings"
)

// maxArgs bounds how far past a site a message is looked for.
const maxArgs = 1200

// messageAt reads the message whose argument list starts at src[at:]: the
// first string literal, if only message-building calls come before it,
// and what is joined to it by adjacency or "+".
func messageAt(src string, at int, lang string) (string, bool) {
	end := min(len(src), at+maxArgs)
	i := at
	for i < end && !isQuoteStart(src, i, lang) {
		if c := src[i]; c == ')' || c == ';' || c == '"' || c == '\'' || c == '`' {
			return "", false
		}
		i++
	}
	if i >= end || !leadRE.MatchString(src[at:i]) {
		return "", false
	}
	var b strings.Builder
	for {
		text, next, ok := literal(src, i, lang)
		if !ok {
			return "", false
		}
		b.WriteString(text)
		j := skipSpace(src, next, lang)
		if j < len(src) && isQuoteStart(src, j, lang) && lang != "go" && lang != "js" && lang != "ts" && lang != "java" {
			i = j // adjacent literals: Python, C++ and Rust's concat! join them
			continue
		}
		if j >= len(src) || src[j] != '+' || (j+1 < len(src) && src[j+1] == '=') {
			break
		}
		j = skipSpace(src, j+1, lang)
		if j < len(src) && isQuoteStart(src, j, lang) {
			i = j
			continue
		}
		name, after, ok := operand(src, j)
		if !ok {
			break
		}
		if lang == "js" || lang == "ts" {
			b.WriteString("${" + name + "}")
		} else {
			b.WriteString("{" + name + "}")
		}
		j = skipSpace(src, after, lang)
		if j >= len(src) || src[j] != '+' {
			break
		}
		j = skipSpace(src, j+1, lang)
		if j < len(src) && isQuoteStart(src, j, lang) {
			i = j
			continue
		}
		// "..." + a + b: one more operand, then stop looking.
		if name2, _, ok := operand(src, j); ok {
			b.WriteString(placeholder(name2, lang))
		}
		break
	}
	return strings.TrimSpace(b.String()), true
}

func placeholder(name, lang string) string {
	if lang == "js" || lang == "ts" {
		return "${" + name + "}"
	}
	return "{" + name + "}"
}

func skipSpace(src string, i int, lang string) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\\' && lang == "py" && i+1 < len(src) && src[i+1] == '\n':
			i += 2
		default:
			return i
		}
	}
	return i
}

// isQuoteStart reports a string literal starting at src[i], with the
// language's prefixes (Python f"", r"", b""; Rust r#""#; C++ u8"").
func isQuoteStart(src string, i int, lang string) bool {
	c := src[i]
	if c == '"' {
		return true
	}
	if c == '\'' && (lang == "py" || lang == "js" || lang == "ts") {
		return true
	}
	if c == '`' && (lang == "js" || lang == "ts" || lang == "go") {
		return true
	}
	if i > 0 && isWord(src[i-1]) {
		return false
	}
	switch lang {
	case "py":
		j := i
		for j < len(src) && j < i+2 && strings.IndexByte("rRbBuUfF", src[j]) >= 0 {
			j++
		}
		return j > i && j < len(src) && (src[j] == '"' || src[j] == '\'')
	case "rs":
		if c == 'r' {
			j := i + 1
			for j < len(src) && src[j] == '#' {
				j++
			}
			return j < len(src) && src[j] == '"'
		}
	}
	return false
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// literal decodes the string literal at src[i]: its text with the usual
// escapes undone (placeholders and f-string fields kept as written) and
// the index after it.
func literal(src string, i int, lang string) (string, int, bool) {
	raw := false
	if lang == "py" {
		for i < len(src) && strings.IndexByte("rRbBuUfF", src[i]) >= 0 {
			raw = raw || src[i] == 'r' || src[i] == 'R'
			i++
		}
	}
	if lang == "rs" && src[i] == 'r' {
		j := i + 1
		for j < len(src) && src[j] == '#' {
			j++
		}
		closer := "\"" + src[i+1:j]
		k := strings.Index(src[j+1:], closer)
		if k < 0 {
			return "", 0, false
		}
		return src[j+1 : j+1+k], j + 1 + k + len(closer), true
	}
	q := src[i]
	if q == '`' && lang == "go" {
		k := strings.IndexByte(src[i+1:], '`')
		if k < 0 {
			return "", 0, false
		}
		return src[i+1 : i+1+k], i + 2 + k, true
	}
	if lang == "py" && strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)) {
		k := strings.Index(src[i+3:], strings.Repeat(string(q), 3))
		if k < 0 {
			return "", 0, false
		}
		return src[i+3 : i+3+k], i + 6 + k, true
	}
	var b strings.Builder
	for j := i + 1; j < len(src); j++ {
		c := src[j]
		switch {
		case c == q:
			return b.String(), j + 1, true
		case c == '\n' && q != '`':
			return "", 0, false
		case c == '\\' && !raw && j+1 < len(src):
			j++
			b.WriteString(unescape(src[j]))
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

func unescape(c byte) string {
	switch c {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case '\n':
		return ""
	case '"', '\'', '\\', '`', '$', '{', '}':
		return string(c)
	}
	return "\\" + string(c)
}

var (
	operandRE = regexp.MustCompile(`^(?:(?:new|typeof|await)\s+)?[\w$]+(?:\s*(?:\.|::|->|\?\.)\s*[\w$]+|\s*\((?:[^()]|\([^()]*\))*\)|\s*\[[^\[\]]*\])*`)
	identRE   = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
)

// converters are calls whose argument names the value better than they do.
var converters = map[string]bool{
	"String": true, "str": true, "repr": true, "stringify": true, "toString": true, "valueOf": true,
	"inspect": true, "format": true, "getName": false, "type": true, "to_string": true, "len": false,
}

// operand reads a variable, member chain or call at src[i] and names it by
// its last identifier (the argument's, for a conversion like String(x)).
func operand(src string, i int) (string, int, bool) {
	m := operandRE.FindString(src[i:min(len(src), i+300)])
	if m == "" {
		return "", 0, false
	}
	text := m
	if k := strings.IndexByte(text, '('); k >= 0 {
		callee := identRE.FindAllString(text[:k], -1)
		if len(callee) > 0 && converters[callee[len(callee)-1]] {
			if args := identRE.FindAllString(text[k:], -1); len(args) > 0 {
				return args[len(args)-1], i + len(m), true
			}
		}
		text = text[:k]
	}
	ids := identRE.FindAllString(text, -1)
	if len(ids) == 0 {
		return "", 0, false
	}
	name := ids[len(ids)-1]
	if name == "this" || name == "self" {
		return "", 0, false
	}
	return name, i + len(m), true
}
