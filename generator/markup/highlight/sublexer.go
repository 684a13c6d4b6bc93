package highlight

import (
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// fastRef is a registered chroma lexer as the fast lexer's emitters see
// it: Tokenise runs its fast form when it has one, so that text a rule
// hands to another lexer (Using, UsingByGroup) or to its own lexer in
// another state (UsingSelf) is lexed without chroma's timed rules. A
// lexer without a fast form is lexed by chroma, its rules untimed first.
type fastRef struct{ l chroma.Lexer }

func (r fastRef) Config() *chroma.Config                         { return r.l.Config() }
func (r fastRef) AnalyseText(text string) float32                { return r.l.AnalyseText(text) }
func (r fastRef) SetRegistry(*chroma.LexerRegistry) chroma.Lexer { return r }
func (r fastRef) SetAnalyser(func(string) float32) chroma.Lexer  { return r }

func (r fastRef) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	if fl := fastLexerFor(r.l); fl != nil {
		return fl.iterator(options, text, DefaultMaxLexWork).next, nil
	}
	untimeAll()
	return r.l.Tokenise(options, text)
}

// tokenise is Tokenise as chroma's emitters use it: an error is a panic,
// which the highlighter turns into plain text.
func (r fastRef) tokenise(options *chroma.TokeniseOptions, text string) chroma.Iterator {
	it, err := r.Tokenise(options, text)
	if err != nil {
		panic(err)
	}
	return it
}

var (
	fastRegOnce sync.Once
	fastReg     *chroma.LexerRegistry
)

// fastRegistry is chroma's global registry with each lexer a fastRef.
func fastRegistry() *chroma.LexerRegistry {
	fastRegOnce.Do(func() {
		fastReg = chroma.NewLexerRegistry()
		for _, l := range lexers.GlobalLexerRegistry.Lexers {
			fastReg.Register(fastRef{l})
		}
	})
	return fastReg
}

// fastEmitter is e with each UsingSelf in it (alone, or in ByGroups or
// UsingByGroup) made a usingSelfFast: chroma's lexes with
// LexerState.Lexer, which must be chroma's RegexLexer. It reports false
// for a UsingSelf, ByGroups or UsingByGroup it cannot read.
func fastEmitter(e chroma.Emitter) (chroma.Emitter, bool) {
	se, ok := e.(chroma.SerialisableEmitter)
	if !ok {
		return e, true
	}
	switch se.EmitterKind() {
	case "usingself":
		state, ok := field[string](se, "State")
		return usingSelfFast{state}, ok
	case "bygroups", "usingbygroup":
		subs, ok := field[chroma.Emitters](se, "Emitters")
		if !ok {
			return nil, false
		}
		fast := make([]chroma.Emitter, len(subs))
		for i, sub := range subs {
			if fast[i], ok = fastEmitter(sub); !ok {
				return nil, false
			}
		}
		if se.EmitterKind() == "bygroups" {
			if g := groupTokensOf(fast); g != nil {
				return g, true
			}
			return chroma.ByGroups(fast...), true
		}
		name, ok1 := field[int](se, "SublexerNameGroup")
		code, ok2 := field[int](se, "CodeGroup")
		return chroma.UsingByGroup(name, code, fast...), ok1 && ok2
	}
	return e, true
}

// usingSelfFast is chroma's UsingSelf emitter, lexing with the fast form
// of the lexer in use.
type usingSelfFast struct{ state string }

func (u usingSelfFast) Emit(groups []string, state *chroma.LexerState) chroma.Iterator {
	return fastRef{state.Lexer}.tokenise(&chroma.TokeniseOptions{State: u.state, Nested: true}, groups[0])
}

// groupTokens is ByGroups of token types (and nils), the most common
// emitter after a single token type: the fast lexer makes its tokens
// itself (fastIterator.emit).
type groupTokens struct {
	types []chroma.TokenType
	emits []bool // false: the group's emitter is nil
	chroma.Emitter
}

func groupTokensOf(subs []chroma.Emitter) *groupTokens {
	g := &groupTokens{Emitter: chroma.ByGroups(subs...)}
	for _, sub := range subs {
		tt, ok := sub.(chroma.TokenType)
		if sub != nil && !ok {
			return nil
		}
		g.types = append(g.types, tt)
		g.emits = append(g.emits, sub != nil)
	}
	return g
}
