package highlight

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
)

// chroma compiles every rule with a 250 ms regexp2 match timeout
// (RegexLexer.maybeCompile), and a rule whose match times out counts as
// not matching: the tokens, and so the page, would then depend on how busy
// the machine was. The fast lexer compiles its own rules without one and
// hands the text its emitters pass on to fast lexers too (sublexer.go).
// chroma's own rules still run in two places: the Go lexer's raw strings,
// which a UsingLexer emitter hands straight to chroma's Go template lexer,
// and the few lexers that have no fast form (not plain RegexLexers). The
// rules of those lexers are untimed before they first run, so no lexing
// consults the clock; the work is bounded instead by the input's size
// (prepare) and the step budget (lex.go charge, backtrack.go search.step).
//
// Compiling every lexer takes seconds, so untimeAll runs only when a lexer
// without a fast form is needed (rare languages); the Go template lexer is
// untimed alone, when a lexer that reaches it is compiled.
func untimeAll() { untimeAllOnce.Do(func() { untimeLexers(lexers.GlobalLexerRegistry.Lexers...) }) }

var (
	untimeAllOnce sync.Once
	untimeMu      sync.Mutex
	untimed       = map[*chroma.RegexLexer]bool{}
)

// untimeLexers untimes each lexer's rules once: a lexer's rules are only
// written before its first use here, never while another goroutine may
// be running them.
func untimeLexers(ls ...chroma.Lexer) {
	untimeMu.Lock()
	defer untimeMu.Unlock()
	for _, l := range ls {
		untimeLexer(l, 0)
	}
}

var lexerType = reflect.TypeFor[chroma.Lexer]()

// untimeLexer untimes l's rules, or those of the lexers a wrapper lexer
// (remapping, delegating, coalescing) holds in its fields.
func untimeLexer(l chroma.Lexer, depth int) {
	if l == nil || depth > 4 {
		return
	}
	if rl, ok := l.(*chroma.RegexLexer); ok {
		if untimed[rl] {
			return
		}
		untimed[rl] = true
		if _, err := rl.Rules(); err != nil { // compiles the rules
			return
		}
		for _, rules := range compiledRules(rl) {
			for _, r := range rules {
				if r.Regexp != nil {
					r.Regexp.MatchTimeout = regexp2.DefaultMatchTimeout
				}
			}
		}
		return
	}
	v := reflect.ValueOf(l)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	s := v.Elem()
	for i := range s.NumField() {
		f := s.Field(i)
		if f.Type() == lexerType {
			inner := reflect.NewAt(lexerType, unsafe.Pointer(f.UnsafeAddr())).Elem().Interface()
			if il, ok := inner.(chroma.Lexer); ok {
				untimeLexer(il, depth+1)
			}
		}
	}
}

// compiledRules is rl's unexported compiled rule set (nil if chroma's
// RegexLexer no longer has one of this type; TestNoRuleConsultsTheClock
// would then fail).
func compiledRules(rl *chroma.RegexLexer) map[string][]*chroma.CompiledRule {
	f := reflect.ValueOf(rl).Elem().FieldByName("rules")
	want := reflect.TypeFor[map[string][]*chroma.CompiledRule]()
	if !f.IsValid() || f.Type() != want {
		return nil
	}
	return *(*map[string][]*chroma.CompiledRule)(unsafe.Pointer(f.UnsafeAddr()))
}
