package highlight

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"

	"github.com/errdocs/errdocs/internal/corpus"
)

// TestNoClockInThePackage checks that no file of the package imports
// "time": the highlighter has no time budget left to consult.
func TestNoClockInThePackage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no source files (%v)", err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
				t.Errorf("%s imports time", f)
			}
		}
		checked++
	}
	if checked < 5 {
		t.Errorf("only %d files checked", checked)
	}
}

// untimedRules reports the rules of rs that carry a regexp2 match
// timeout (regexp2 reads the clock for those).
func timedRules(rs map[string][]*chroma.CompiledRule) []string {
	var timed []string
	for state, rules := range rs {
		for _, r := range rules {
			if r.Regexp != nil && r.Regexp.MatchTimeout != regexp2.DefaultMatchTimeout {
				timed = append(timed, state+": "+r.Pattern)
			}
		}
	}
	return timed
}

// TestNoRuleConsultsTheClock checks every rule that can run: the fast
// lexers' own, the Go template lexer's (the Go lexer's raw strings reach
// it through chroma), and, once untimeAll has run (as it does before
// chroma lexes a language with no fast form), every registered lexer's.
func TestNoRuleConsultsTheClock(t *testing.T) {
	fast := 0
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		fl := fastLexerFor(l)
		if fl == nil {
			continue
		}
		fast++
		if timed := timedRules(fl.rules); len(timed) > 0 {
			t.Errorf("%s: fast rules with a timeout: %q", l.Config().Name, timed)
		}
		for _, rs := range fl.rules {
			for _, r := range rs {
				if usesLexerFunc(r.Type) && l.Config().Name != "Go" {
					t.Errorf("%s: a UsingLexer emitter outside the Go lexer; its lexer is not untimed", l.Config().Name)
				}
			}
		}
	}
	if fast < 250 {
		t.Errorf("only %d fast lexers", fast)
	}
	if timed := timedRules(compiledRules(lexers.GoTextTemplate.(*chroma.RegexLexer))); len(timed) > 0 {
		t.Errorf("Go template lexer: rules with a timeout after the Go lexer was compiled: %q", timed)
	}
	untimeAll()
	n := 0
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		if rl, ok := l.(*chroma.RegexLexer); ok {
			rs := compiledRules(rl)
			if rs == nil {
				t.Fatalf("%s: chroma's compiled rules not found", rl.Config().Name)
			}
			n++
			if timed := timedRules(rs); len(timed) > 0 {
				t.Errorf("%s: chroma rules with a timeout: %q", rl.Config().Name, timed)
			}
		}
	}
	t.Logf("%d fast lexers; %d chroma lexers untimed", fast, n)
}

// TestSameBytesOnASlowMachine highlights inputs once on a quiet machine and
// again with the process starved of CPU (one thread shared with three
// busy goroutines, so each input takes about four times as long), and
// checks the bytes are the same. With the old time budgets (1 s per
// input, 250 ms per regexp2 match) the Java input below, which lexes in a
// few hundred milliseconds, came out as plain text when slowed down. The
// JavaScript one makes a string rule backtrack exponentially; chroma's
// timeout stopped it, the match step limit stops it now.
func TestSameBytesOnASlowMachine(t *testing.T) {
	type input struct{ code, path string }
	inputs := []input{
		{strings.Repeat(strings.Repeat("if x ", 40)+"\n", 18), "Slow.java"},
		{"let s = '" + strings.Repeat("\\\\", 60) + "\nlet t = 1;\n", "unclosed.js"},
		{"package main\n\nvar tpl = `{{ .Name }} said {{ printf \"%q\" .Msg }}`\n", "raw.go"},
		{"<html><style>p { color: red }</style><script>let x = `${a}`;</script></html>\n", "page.html"},
	}
	d := corpus.Generate(120, 4)
	if err := d.UseRealCode(); err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Records() {
		inputs = append(inputs, input{r.SourceCode, r.FilePath})
	}
	render := func() ([]string, Stats) {
		h, err := New(Options{MemoryBytes: -1})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(inputs))
		for i, in := range inputs {
			s, err := h.Code(in.code, in.path)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = string(s)
		}
		return out, h.Stats()
	}
	quiet, st := render()
	if st.OverBudget != 0 || !strings.Contains(quiet[0], `<span class="k">if</span>`) {
		t.Fatalf("the Java input was not highlighted (stats %+v): %.200s", st, quiet[0])
	}
	var slow []string
	starved(func() { slow, _ = render() })
	for i := range inputs {
		if slow[i] != quiet[i] {
			t.Errorf("%s: output differs on a slow machine:\n%.300s\nvs\n%.300s", inputs[i].path, slow[i], quiet[i])
		}
	}
}

// starved runs f on one thread shared with three goroutines that spin.
func starved(f func()) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; !stop.Load(); n++ {
			}
		}()
	}
	f()
	stop.Store(true)
	wg.Wait()
}
