package render

import "strings"

// The escapers of html/template, as the record page writer (recordwrite.go)
// needs them: each appends what html/template writes for a plain string
// (or an int) in one context of the record page's templates, byte for
// byte. escape_test.go holds each to html/template's own output.

// htmlEscapes[c] is what html/template writes for the ASCII byte c in text,
// in RCDATA (<title>) and in a quoted attribute value ("" when c is written
// as is). A byte of a multi-byte or invalid UTF-8 sequence is never one of
// them, so a byte-wise scan is its rune-wise one.
var htmlEscapes = [128]string{
	0:    "\uFFFD",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'+':  "&#43;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// appendHTML appends s as html/template writes a string in text, RCDATA or
// a quoted attribute value ({{.}} in <p>, <title> or class="…").
func appendHTML(dst []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 128 || htmlEscapes[c] == "" {
			continue
		}
		dst = append(append(dst, s[last:i]...), htmlEscapes[c]...)
		last = i + 1
	}
	return append(dst, s[last:]...)
}

// appendURLAttr appends s as html/template writes a string that is a whole
// URL attribute (href="{{.}}"): a URL of another scheme than http, https
// or mailto becomes "#ZgotmplZ", bytes a URL may not hold are
// percent-encoded (a well-formed escape already there is kept), and the result is
// escaped for the attribute.
func appendURLAttr(dst []byte, s string) []byte {
	if !safeURL(s) {
		return append(dst, "#ZgotmplZ"...)
	}
	return appendURL(dst, s, true)
}

// appendURLPartAttr appends s as html/template writes a string in the
// fragment of a URL attribute (href="#{{.}}"): every byte but letters,
// digits and "-._~" percent-encoded.
func appendURLPartAttr(dst []byte, s string) []byte {
	return appendURL(dst, s, false)
}

// safeURL reports whether html/template lets s be a URL: s has no scheme
// (no colon before the first slash) or its scheme is http, https or
// mailto.
func safeURL(s string) bool {
	scheme, _, ok := strings.Cut(s, ":")
	if !ok || strings.Contains(scheme, "/") {
		return true
	}
	return strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https") || strings.EqualFold(scheme, "mailto")
}

// appendURL percent-encodes the bytes of s a URL (norm) or a part of one
// (!norm) may not hold, with html/template's lower-case hex digits, then
// escapes '&' and '+' for the attribute (the only bytes left that the
// attribute escaper changes).
func appendURL(dst []byte, s string, norm bool) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~':
			dst = append(dst, c)
		case norm && strings.IndexByte("!#$*,/:;=?@[]", c) >= 0,
			norm && c == '%' && i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]):
			dst = append(dst, c)
		case norm && c == '&':
			dst = append(dst, "&amp;"...)
		case norm && c == '+':
			dst = append(dst, "&#43;"...)
		default:
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		}
	}
	return dst
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
