package highlight

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

// Two chroma styles give the token colours: GitHub's light and dark themes
// read well and are familiar to the people who land on these pages. Their
// colours are then adjusted (see fixContrast) because the pages are checked
// for WCAG AA contrast, which some of the stock colours fail on the
// backgrounds used here (the marked line in particular).
const (
	lightStyleName = "github"
	darkStyleName  = "github-dark"
	// minContrast is WCAG AA for normal text plus a small margin, so that a
	// checker rounding differently never sees 4.49.
	minContrast = 4.6
)

// rgb is a colour as 0xRRGGBB.
type rgb uint32

func (c rgb) String() string { return fmt.Sprintf("#%06x", uint32(c)) }

func fromChroma(c chroma.Colour) rgb {
	return rgb(uint32(c.Red())<<16 | uint32(c.Green())<<8 | uint32(c.Blue()))
}

// luminance is the WCAG 2 relative luminance.
func (c rgb) luminance() float64 {
	ch := func(v uint32) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(uint32(c)>>16&0xff) + 0.7152*ch(uint32(c)>>8&0xff) + 0.0722*ch(uint32(c)&0xff)
}

// contrast is the WCAG 2 contrast ratio of two colours (1 to 21).
func contrast(a, b rgb) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// mix moves c towards target by t (0..1).
func mix(c, target rgb, t float64) rgb {
	m := func(shift uint) uint32 {
		a := float64(uint32(c) >> shift & 0xff)
		b := float64(uint32(target) >> shift & 0xff)
		return uint32(math.Round(a+(b-a)*t)) << shift
	}
	return rgb(m(16) | m(8) | m(0))
}

// fixContrast returns c, moved towards black (light theme) or white (dark
// theme) in small steps until it reaches minContrast against every
// background it can be drawn on. Moving along one axis keeps the hue
// recognisable, which matters more to readers than the exact stock shade.
func fixContrast(c rgb, dark bool, bgs ...rgb) rgb {
	target := rgb(0x000000)
	if dark {
		target = 0xffffff
	}
	ok := func(c rgb) bool {
		for _, bg := range bgs {
			if contrast(c, bg) < minContrast {
				return false
			}
		}
		return true
	}
	for i := 0; i <= 40 && !ok(c); i++ {
		c = mix(c, target, 0.05)
	}
	return c
}

// theme holds the colours of one colour scheme besides the token colours.
type theme struct {
	dark   bool
	style  string
	bg, fg rgb
	// markBg is the background of the marked (raising) line; markFg its
	// border and ▶ glyph.
	markBg, markFg rgb
	// muted is for line numbers and cut markers.
	muted rgb
}

var (
	lightTheme = theme{
		style: lightStyleName, bg: 0xf6f8fa, fg: 0x1f2328,
		markBg: 0xfff8c5, markFg: 0x9a6700, muted: 0x6e7781,
	}
	darkTheme = theme{
		dark: true, style: darkStyleName, bg: 0x0d1117, fg: 0xe6edf3,
		markBg: 0x2e2810, markFg: 0xd29922, muted: 0x8b949e,
	}
)

// tokenStyle is one class's look in one theme.
type tokenStyle struct {
	fg, bg                  rgb
	hasBg                   bool
	bold, italic, underline bool
}

// styleTable maps chroma token types to the CSS class the formatter writes,
// and holds the per-class rules of both themes. It is derived once from the
// chroma styles and is the same in every build with the same chroma.
type styleTable struct {
	// classOf gives the class of a token type; "" means the token is written
	// as bare text, because it looks like plain text in both themes.
	classOf map[chroma.TokenType]string
	// classes in output order, with their look in each theme.
	classes []string
	light   map[string]tokenStyle
	dark    map[string]tokenStyle
	css     string
	digest  [32]byte
}

var table = sync.OnceValue(buildTable)

func resolve(th theme, st *chroma.Style, tt chroma.TokenType) tokenStyle {
	bg := st.Get(chroma.Background)
	e := st.Get(tt).Sub(bg)
	ts := tokenStyle{fg: th.fg}
	if e.Colour.IsSet() {
		ts.fg = fromChroma(e.Colour)
	}
	if e.Background.IsSet() {
		ts.bg, ts.hasBg = fromChroma(e.Background), true
	}
	ts.bold = e.Bold == chroma.Yes
	ts.italic = e.Italic == chroma.Yes
	ts.underline = e.Underline == chroma.Yes
	if ts.hasBg {
		ts.fg = fixContrast(ts.fg, th.dark, ts.bg)
	} else {
		ts.fg = fixContrast(ts.fg, th.dark, th.bg, th.markBg)
	}
	return ts
}

func (ts tokenStyle) plain(th theme) bool {
	return ts == tokenStyle{fg: th.fg}
}

func buildTable() *styleTable {
	light, dark := styles.Get(lightTheme.style), styles.Get(darkTheme.style)
	t := &styleTable{
		classOf: map[chroma.TokenType]string{},
		light:   map[string]tokenStyle{},
		dark:    map[string]tokenStyle{},
	}
	type look struct{ l, d tokenStyle }
	type member struct {
		tt    chroma.TokenType
		class string
	}
	groups := map[look][]member{}
	for tt, class := range chroma.StandardTypes {
		// Negative types are formatter parts (background, line numbers),
		// not tokens. Whitespace and lexing errors are written as plain
		// text: errors are common in cut excerpts and a red box there
		// tells a reader nothing.
		if tt <= 0 || class == "" || tt == chroma.TextWhitespace || tt == chroma.Error {
			continue
		}
		lk := look{resolve(lightTheme, light, tt), resolve(darkTheme, dark, tt)}
		if lk.l.plain(lightTheme) && lk.d.plain(darkTheme) {
			continue
		}
		groups[lk] = append(groups[lk], member{tt, class})
	}
	// Token types that look the same in both themes share one class, that
	// of the most general type of the group (Keyword's "k" for all its
	// kinds): fewer rules and more uniform markup.
	for lk, ms := range groups {
		rep := slices.MinFunc(ms, func(a, b member) int {
			return cmp.Or(cmp.Compare(depth(a.tt), depth(b.tt)),
				cmp.Compare(len(a.class), len(b.class)), cmp.Compare(a.class, b.class))
		}).class
		for _, m := range ms {
			t.classOf[m.tt] = rep
		}
		t.classes = append(t.classes, rep)
		t.light[rep], t.dark[rep] = lk.l, lk.d
	}
	slices.Sort(t.classes)
	t.css = buildCSS(t)
	h := sha256.New()
	fmt.Fprintln(h, t.css)
	tts := make([]int, 0, len(t.classOf))
	for tt := range t.classOf {
		tts = append(tts, int(tt))
	}
	slices.Sort(tts)
	for _, tt := range tts {
		fmt.Fprintf(h, "%d=%s\n", tt, t.classOf[chroma.TokenType(tt)])
	}
	copy(t.digest[:], h.Sum(nil))
	return t
}

// depth counts a token type's ancestors: 0 for a category like Keyword.
func depth(tt chroma.TokenType) int {
	d := 0
	for p := tt.Parent(); p > 0; p = p.Parent() {
		d++
	}
	return d
}

// class returns the CSS class of a token type, walking up to the nearest
// standard parent type for types a lexer defines beyond the standard set.
func (t *styleTable) class(tt chroma.TokenType) string {
	for {
		if c, ok := t.classOf[tt]; ok {
			return c
		}
		if _, std := chroma.StandardTypes[tt]; std || tt <= 0 {
			return ""
		}
		tt = tt.Parent()
	}
}

// decl writes the declarations of one class in one theme. Every property
// either theme sets is written in both, so the dark rules fully replace the
// light ones instead of inheriting a stray bold or background.
func decl(ts, other tokenStyle) string {
	var b strings.Builder
	b.WriteString("color:" + ts.fg.String())
	switch {
	case ts.hasBg:
		b.WriteString(";background:" + ts.bg.String())
	case other.hasBg:
		b.WriteString(";background:none")
	}
	switch {
	case ts.bold:
		b.WriteString(";font-weight:bold")
	case other.bold:
		b.WriteString(";font-weight:normal")
	}
	switch {
	case ts.italic:
		b.WriteString(";font-style:italic")
	case other.italic:
		b.WriteString(";font-style:normal")
	}
	switch {
	case ts.underline:
		b.WriteString(";text-decoration:underline")
	case other.underline:
		b.WriteString(";text-decoration:none")
	}
	return b.String()
}

// themeCSS is the part of the stylesheet that changes with the colour
// scheme: backgrounds, text, line numbers, the marked line and tokens.
func themeCSS(b *strings.Builder, th theme, t *styleTable) {
	muted := fixContrast(th.muted, th.dark, th.bg, th.markBg)
	markFg := fixContrast(th.markFg, th.dark, th.markBg)
	fmt.Fprintf(b, ".hl{background:%s;color:%s}\n", th.bg, th.fg)
	fmt.Fprintf(b, ".hl .hll{background:%s;color:inherit;box-shadow:inset 3px 0 0 %s}\n", th.markBg, markFg)
	fmt.Fprintf(b, ".hl .hll .ln::after{color:%s}\n", markFg)
	fmt.Fprintf(b, ".hl .ln::before,.hl .cut{color:%s}\n", muted)
	for _, c := range t.classes {
		ts, other := t.light[c], t.dark[c]
		if th.dark {
			ts, other = other, ts
		}
		fmt.Fprintf(b, ".hl .%s{%s}\n", c, decl(ts, other))
	}
}

// layoutCSS does not depend on the colour scheme.
const layoutCSS = `.hl{margin:0;padding:.75rem 0;overflow-x:auto;font-size:.875rem;line-height:1.5;tab-size:4;border-radius:6px}
.hl code{display:inline-block;min-width:100%;box-sizing:border-box;padding:0 1rem;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:inherit;white-space:pre;background:none;color:inherit}
.hl-n code{padding-left:0}
.hl .ln{-webkit-user-select:none;user-select:none}
.hl .ln::before{content:attr(data-n);padding:0 0 0 1rem}
.hl .ln::after{content:"";display:inline-block;width:3ch;text-align:center}
.hl .hll{display:block;margin:0 -1rem 0 0;padding:0 1rem 0 0}
.hl .hll .ln::after{content:"\25B6";content:"\25B6"/"raising line";font-weight:bold}
.hl .cut{font-style:italic}
`

func buildCSS(t *styleTable) string {
	var b strings.Builder
	b.WriteString("/* errdocs code highlighting: chroma " + lightStyleName + " / " + darkStyleName + ", contrast-adjusted */\n")
	b.WriteString(layoutCSS)
	themeCSS(&b, lightTheme, t)
	b.WriteString("@media (prefers-color-scheme:dark){\n")
	themeCSS(&b, darkTheme, t)
	b.WriteString("}\n")
	return b.String()
}

// CSS returns the stylesheet for the markup Excerpt and Code write: layout,
// line numbers, the marked line, and token colours for a light theme and,
// under prefers-color-scheme: dark, a dark one. Every colour meets WCAG AA
// contrast (4.5:1) on the backgrounds it is drawn on.
func CSS() string { return table().css }
