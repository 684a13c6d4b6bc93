// Package htmltext says which characters a page's text may not carry.
//
// Record fields are untrusted text. HTML forbids control characters other
// than ASCII whitespace, and noncharacters (a parse error: browsers differ
// in what they show), so the render and markup packages replace them.
package htmltext

// Forbidden reports whether HTML text may not hold r: a C0 control other
// than tab, line feed, form feed and carriage return, DEL, a C1 control,
// or a noncharacter (U+FDD0–U+FDEF and the last two code points of every
// plane).
func Forbidden(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || r == '\f':
		return false
	case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		return true
	case r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe:
		return true
	}
	return false
}

// NotInCode reports whether r may not stand in code or prose that is laid
// out by lines: what Forbidden says, and also form feed and carriage
// return (the callers turn a carriage return into a line feed first).
func NotInCode(r rune) bool {
	return r == '\r' || r == '\f' || Forbidden(r)
}
