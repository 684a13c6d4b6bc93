package export

import (
	"sort"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/errdocs/errdocs/generator/index"
)

// typedOrderN is how many first results of a typed query typedOrder
// orders (engine.js ORDERED).
const typedOrderN = 10

// typedOrder is the twin of engine.js typedOrder: of the first
// typedOrderN hits of a typed query's words (ModeAll, not fuzzy, two
// query tokens or more), those whose message holds the typed tokens in
// the typed order come first, then those with more typed neighbours next
// to each other in it, then those whose message has the value shape of
// more of these hits; ties keep the score's order. title gives a hit's
// doc data title (its message, cut).
func typedOrder(m mapping.IndexMapping, text string, prefix bool, hits []Hit, title func(id string) string) []Hit {
	toks, open := typedTokens(m, text, prefix)
	if len(hits) < 2 || len(toks) < 2 {
		return hits
	}
	top := append([]Hit(nil), hits[:min(len(hits), typedOrderN)]...)
	type keyed struct {
		hit             Hit
		inOrder, adj, n int
	}
	shapes := make([]string, len(top))
	for i, h := range top {
		shapes[i] = valueShape(title(h.ID))
	}
	ks := make([]keyed, len(top))
	for i, h := range top {
		in, adj := holdsInOrder(Analyze(m, index.AnalyzerEN, title(h.ID)), toks, open)
		n := 0
		for _, s := range shapes {
			if s == shapes[i] {
				n++
			}
		}
		ks[i] = keyed{h, in, adj, n}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.inOrder != b.inOrder {
			return a.inOrder > b.inOrder
		}
		if a.adj != b.adj {
			return a.adj > b.adj
		}
		return a.n > b.n
	})
	out := make([]Hit, 0, len(hits))
	for _, k := range ks {
		out = append(out, k.hit)
	}
	return append(out, hits[len(top):]...)
}

// typedTokens are the English tokens of the query's words, in order, and
// whether the last one is still being typed (it then matches a message
// token it starts).
func typedTokens(m mapping.IndexMapping, text string, prefix bool) ([]string, bool) {
	ws := words(m, text)
	var toks []string
	for _, w := range ws {
		toks = append(toks, Analyze(m, index.AnalyzerEN, w.text)...)
	}
	open := prefix && LastWord(m, text) != "" && len(ws) > 0 && ws[len(ws)-1].end == len(text)
	return toks, open
}

// holdsInOrder is 1 when msg holds the tokens q in that order (not
// necessarily together), and how many neighbours of q stand next to each
// other, in that order, somewhere in msg.
func holdsInOrder(msg, q []string, open bool) (inOrder, adjacent int) {
	match := func(t string, j int) bool {
		return t == q[j] || open && j == len(q)-1 && strings.HasPrefix(t, q[j])
	}
	j := 0
	for _, t := range msg {
		if j < len(q) && match(t, j) {
			j++
		}
	}
	if j == len(q) {
		inOrder = 1
	}
	for p := 0; p+1 < len(q); p++ {
		for i := 0; i+1 < len(msg); i++ {
			if match(msg[i], p) && match(msg[i+1], p+1) {
				adjacent++
				break
			}
		}
	}
	return inOrder, adjacent
}

// valueShape is a message's words (split at ASCII white space, outer
// punctuation trimmed, ASCII lowercased), each word that looks like a
// value (a digit, a path or name character, a capital after a small
// letter: camelCase) as "*":
// "open /etc/app.yaml: permission denied" and "open ./x.db: permission
// denied" share one. engine.js valueShape is its twin.
func valueShape(msg string) string {
	var out []string
	for _, w := range strings.FieldsFunc(msg, func(r rune) bool { return strings.ContainsRune(" \t\n\r\f\v", r) }) {
		w = strings.Trim(w, ",:;()[]{}'\"!?")
		if w == "" {
			continue
		}
		value := false
		for i := 0; i < len(w) && !value; i++ {
			c := w[i]
			value = c >= '0' && c <= '9' || strings.IndexByte(`/\_-.=<>@#$%&*+~|`, c) >= 0 ||
				i > 0 && c >= 'A' && c <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z'
		}
		if value {
			w = "*"
		} else {
			w = asciiLower(w)
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func TestValueShape(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"open /etc/app.yaml: permission denied", "open * permission denied"},
		{"EACCES: permission denied, open '/tmp/x'", "eacces permission denied open *"},
		{"duplicate index isolation-level-prod: isolation-level-prod already registered", "duplicate index * * already registered"},
		{"unknown key userId in 'Config'", "unknown key * in config"},
		{"  (nothing)  ", "nothing"},
		{"", ""},
	} {
		if got := valueShape(c.msg); got != c.want {
			t.Errorf("valueShape(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

func TestHoldsInOrder(t *testing.T) {
	msg := []string{"eacc", "permiss", "deni", "open", "tmp"}
	for _, c := range []struct {
		q            []string
		open         bool
		in, adjacent int
	}{
		{[]string{"permiss", "deni", "open"}, false, 1, 2},
		{[]string{"open", "permiss", "deni"}, false, 0, 1},
		{[]string{"eacc", "open"}, false, 1, 0},
		{[]string{"permiss", "op"}, true, 1, 0},  // "op" being typed starts "open"
		{[]string{"permiss", "op"}, false, 0, 0}, // a whole word does not
	} {
		in, adj := holdsInOrder(msg, c.q, c.open)
		if in != c.in || adj != c.adjacent {
			t.Errorf("holdsInOrder(%v, open %v) = %d, %d; want %d, %d", c.q, c.open, in, adj, c.in, c.adjacent)
		}
	}
}
