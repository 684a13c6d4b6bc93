package knownitem

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/errdocs/errdocs/generator/pattern"
	"github.com/errdocs/errdocs/generator/record"
)

// Likelihood says how likely Paste is to make a given paste for a record:
// the generator's own model, for oracles that bound what any ranker can
// reach on pastes (the posterior of each record given a paste is its
// likelihood over the sum of all records', each record as likely a target
// as any other). It caches per message and pattern what refill accepts.
type Likelihood struct {
	accept map[[2]string]float64
	spans  map[[2]string][]span
	progs  map[string]*regexp.Regexp
}

// NewLikelihood returns an empty cache.
func NewLikelihood() *Likelihood {
	return &Likelihood{accept: map[[2]string]float64{}, spans: map[[2]string][]span{}, progs: map[string]*regexp.Regexp{}}
}

// Of is the probability that Paste(rng, r) returns raw, over rng.
func (l *Likelihood) Of(r *record.Record, raw string) float64 {
	p := 0.0
	for _, f := range forms(r) {
		if len(raw) < len(f.before)+len(f.after) || !strings.HasPrefix(raw, f.before) || !strings.HasSuffix(raw, f.after) {
			continue
		}
		p += f.p * l.message(r.ErrorMessage, r.MessagePattern, raw[len(f.before):len(raw)-len(f.after)])
	}
	return p
}

// message is the probability that refill(msg, expr) returns m: a filling
// of the spans tried (each value as likely) is kept when the pattern
// matches it and it is not msg; after refillTries rejected fillings msg
// itself is kept.
func (l *Likelihood) message(msg, expr, m string) float64 {
	key := [2]string{msg, expr}
	sp, ok := l.spans[key]
	if !ok {
		sp = spans(msg, expr)
		l.spans[key] = sp
	}
	if sp == nil {
		return b2f(m == msg)
	}
	a := l.acceptance(msg, expr, sp)
	kept := math.Pow(1-a, refillTries)
	if m == msg {
		return kept
	}
	if a == 0 || !l.matches(expr, m) {
		return 0
	}
	// each try is accepted with probability a; a filling's share of the
	// accepted ones is its own probability over a
	return fillMass(msg, sp, m, 0, 0) * (1 - kept) / a
}

// fillMass is the probability that spans from i on, filled at random,
// with msg's text between them, spell m from pos on.
func fillMass(msg string, sp []span, m string, i, pos int) float64 {
	from := 0
	if i > 0 {
		from = sp[i-1].end
	}
	if i == len(sp) {
		return b2f(m[pos:] == msg[from:])
	}
	lit := msg[from:sp[i].start]
	if !strings.HasPrefix(m[pos:], lit) {
		return 0
	}
	pos += len(lit)
	c := choices(msg[sp[i].start:sp[i].end])
	sum := 0.0
	for _, v := range c {
		if strings.HasPrefix(m[pos:], v) {
			sum += fillMass(msg, sp, m, i+1, pos+len(v)) / float64(len(c))
		}
	}
	return sum
}

// acceptance is the probability that one random filling of msg's spans is
// kept: exact over every filling when they are few, else over a fixed
// sample of them.
func (l *Likelihood) acceptance(msg, expr string, sp []span) float64 {
	key := [2]string{msg, expr}
	if a, ok := l.accept[key]; ok {
		return a
	}
	total := 1
	for _, s := range sp {
		total *= len(choices(msg[s.start:s.end]))
		if total > maxEnumerate {
			break
		}
	}
	fill := func(pick func(c []string, i int) string, k int) string {
		var b strings.Builder
		at := 0
		for _, s := range sp {
			c := choices(msg[s.start:s.end])
			b.WriteString(msg[at:s.start])
			b.WriteString(pick(c, k))
			k /= len(c)
			at = s.end
		}
		b.WriteString(msg[at:])
		return b.String()
	}
	ok, n := 0, 0
	if total <= maxEnumerate {
		for k := 0; k < total; k++ {
			if out := fill(func(c []string, k int) string { return c[k%len(c)] }, k); out != msg && l.matches(expr, out) {
				ok++
			}
			n++
		}
	} else {
		rng := rand.New(rand.NewPCG(1, 2))
		for ; n < maxEnumerate; n++ {
			if out := fill(func(c []string, _ int) string { return c[rng.IntN(len(c))] }, 0); out != msg && l.matches(expr, out) {
				ok++
			}
		}
	}
	a := float64(ok) / float64(n)
	l.accept[key] = a
	return a
}

// maxEnumerate bounds the fillings acceptance tries.
const maxEnumerate = 4000

func (l *Likelihood) matches(expr, text string) bool {
	re, ok := l.progs[expr]
	if !ok {
		if _, err := pattern.Parse(expr); err == nil {
			re, _ = regexp.Compile(expr)
		}
		l.progs[expr] = re
	}
	return re != nil && pattern.MatchRegexp(re, text)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
