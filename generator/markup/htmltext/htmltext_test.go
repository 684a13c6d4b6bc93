package htmltext

import "testing"

func TestForbidden(t *testing.T) {
	for _, c := range []struct {
		r               rune
		forbidden, code bool
	}{
		{'a', false, false}, {' ', false, false}, {'\t', false, false}, {'\n', false, false},
		{'\r', false, true}, {'\f', false, true},
		{0, true, true}, {0x1b, true, true}, {0x7f, true, true}, {0x85, true, true}, {0x9f, true, true},
		{0xa0, false, false}, {'é', false, false},
		{0xfdd0, true, true}, {0xfdef, true, true}, {0xfdf0, false, false},
		{0xfffe, true, true}, {0xffff, true, true}, {0x1fffe, true, true}, {0x10ffff, true, true},
		{0xfffd, false, false},
	} {
		if got := Forbidden(c.r); got != c.forbidden {
			t.Errorf("Forbidden(%U) = %v", c.r, got)
		}
		if got := NotInCode(c.r); got != c.code {
			t.Errorf("NotInCode(%U) = %v", c.r, got)
		}
	}
}
