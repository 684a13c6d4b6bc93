package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The functions below are a frozen copy of SourceIdentifiers, IdentifierText
// and their helpers as they were before their fast paths: the tests hold
// the package's versions to exactly their output.

func oracleIdentifierText(code string, minLen int) string {
	var out []string
	oracleWalkIdentifiers(code, minLen, func(s string) bool {
		out = append(out, s)
		return true
	})
	return strings.Join(out, " ")
}

func oracleWalkIdentifiers(code string, minLen int, yield func(string) bool) {
	seen := map[string]bool{}
	stopped := false
	emit := func(s string) {
		if stopped || s == "" || seen[s] {
			return
		}
		seen[s] = true
		stopped = !yield(s)
	}
	isIdent := func(r rune) bool {
		return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	i := 0
	for i < len(code) && !stopped {
		r, w := utf8.DecodeRuneInString(code[i:])
		if !isIdent(r) {
			i += w
			continue
		}
		start := i
		var parts []string
		for i < len(code) {
			j := i
			for j < len(code) {
				r2, w2 := utf8.DecodeRuneInString(code[j:])
				if !isIdent(r2) {
					break
				}
				j += w2
			}
			parts = append(parts, code[i:j])
			i = j
			if i+1 < len(code) && code[i] == '.' {
				r3, _ := utf8.DecodeRuneInString(code[i+1:])
				if isIdent(r3) {
					i++
					continue
				}
			}
			break
		}
		chain := code[start:i]
		if len(parts) > 1 && utf8.RuneCountInString(chain) >= minLen {
			emit(chain)
		}
		for _, p := range parts {
			p = strings.Trim(p, "_$")
			if utf8.RuneCountInString(p) < minLen || oracleIsCommonKeyword(p) || oracleAllDigits(p) {
				continue
			}
			emit(p)
			if subs := oracleSplitIdentifier(p); len(subs) > 1 {
				for _, s := range subs {
					if utf8.RuneCountInString(s) >= 2 {
						emit(s)
					}
				}
			}
		}
	}
}

func oracleSourceIdentifiers(code string) string {
	code = oracleStripCommentsAndStrings(code)
	var keep []string
	oracleWalkIdentifiers(code, 4, func(w string) bool {
		if strings.Contains(w, ".") {
			last := w[strings.LastIndexByte(w, '.')+1:]
			r, _ := utf8.DecodeRuneInString(last)
			first := w[:strings.IndexByte(w, '.')]
			if !unicode.IsUpper(r) || first == "this" || first == "self" {
				return true
			}
		} else if !oracleHasStructure(w) {
			return true
		}
		keep = append(keep, w)
		return len(keep) < maxSourceIdentifiers
	})
	return oracleIdentifierText(strings.Join(keep, " "), 0)
}

func oracleHasStructure(w string) bool {
	if strings.ContainsRune(w, '_') {
		return true
	}
	for i, r := range w {
		if unicode.IsUpper(r) {
			return true
		}
		_ = i
	}
	return false
}

func oracleStripCommentsAndStrings(code string) string {
	b := []byte(code)
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '/' && i+1 < len(b) && b[i+1] == '/', c == '#', c == '-' && i+1 < len(b) && b[i+1] == '-' && (i == 0 || b[i-1] == ' ' || b[i-1] == '\n'):
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := strings.Index(code[i+2:], "*/")
			if j < 0 {
				i = len(b)
			} else {
				i += j + 4
			}
			out = append(out, ' ')
		case c == '"' || c == '\'' || c == '`':
			i++
			for i < len(b) && b[i] != c && b[i] != '\n' {
				if b[i] == '\\' {
					i++
				}
				i++
			}
			i++
			out = append(out, ' ')
		default:
			out = append(out, c)
			i++
		}
	}
	return string(out)
}

func oracleAllDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

func oracleSplitIdentifier(s string) []string {
	var out []string
	for _, chunk := range strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '$' }) {
		rs := []rune(chunk)
		start := 0
		for k := 1; k < len(rs); k++ {
			prev, cur := rs[k-1], rs[k]
			boundary := unicode.IsLower(prev) && unicode.IsUpper(cur) ||
				unicode.IsDigit(prev) && unicode.IsUpper(cur) ||
				unicode.IsUpper(prev) && unicode.IsUpper(cur) && k+1 < len(rs) && unicode.IsLower(rs[k+1])
			if boundary {
				out = append(out, string(rs[start:k]))
				start = k
			}
		}
		out = append(out, string(rs[start:]))
	}
	return out
}

// oracleCommonKeywords is a copy of commonKeywords' word list, so that the
// oracle does not move if the package's table does.
var oracleCommonKeywords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`and as assert async await break case catch class const continue def default
	del do elif else enum except export extends false final finally fn for from func function go goto if impl
	import in instanceof interface is lambda let match mod mut new nil none not null or package pass pub raise
	return self static struct super switch this throw throws true try type typeof use var void while with yield
	string int bool err error errors fmt args kwargs str len print println printf`) {
		m[w] = struct{}{}
	}
	return m
}()

func oracleIsCommonKeyword(s string) bool {
	_, ok := oracleCommonKeywords[strings.ToLower(s)]
	return ok
}
