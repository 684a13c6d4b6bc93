package pattern

import (
	"regexp"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
)

// corpusRecords returns the generated dataset's records, the realistic
// source of messagePatterns.
func corpusRecords(t *testing.T, n int) []record.Record {
	t.Helper()
	if testing.Short() {
		n /= 5
	}
	return corpus.Generate(n, 42).Records()
}

// TestCorpusPatterns compiles every generated pattern: those RE2 accepts
// must compile (the instruction cap aside) and match their own message;
// the rejected ones must say why.
func TestCorpusPatterns(t *testing.T) {
	rs := corpusRecords(t, 5000)
	reasons := map[string]int{}
	compiled, selfMiss, bytes, patBytes := 0, 0, 0, 0
	for _, r := range rs {
		prog, err := Compile(r.MessagePattern)
		bytes += len(prog)
		if err != nil {
			e, ok := err.(*Error)
			if !ok || e.Reason == "" {
				t.Errorf("Compile(%q): %v", r.MessagePattern, err)
				continue
			}
			reason, _, _ := strings.Cut(e.Reason, " `")
			reasons[reason]++
			if _, rerr := regexp.Compile(r.MessagePattern); rerr == nil && !strings.Contains(e.Reason, "empty text") && !strings.Contains(e.Reason, "instructions") {
				t.Errorf("Compile(%q) refused a pattern Go's regexp accepts: %v", r.MessagePattern, err)
			}
			continue
		}
		compiled++
		patBytes += len(r.MessagePattern)
		if ok, _ := Match(r.MessagePattern, r.ErrorMessage); !ok {
			selfMiss++
			if selfMiss <= 5 {
				t.Logf("pattern %q does not match its own message %q", r.MessagePattern, r.ErrorMessage)
			}
		}
	}
	t.Logf("%d records: %d compiled, %d refused %v; %d patterns miss their own message", len(rs), compiled, len(rs)-compiled, reasons, selfMiss)
	if compiled > 0 {
		t.Logf("program JSON: %d bytes on average, for patterns of %d bytes", bytes/compiled, patBytes/compiled)
	}
	if compiled < len(rs)*8/10 {
		t.Errorf("only %d of %d corpus patterns compiled", compiled, len(rs))
	}
}

// TestJSMatchesGoOnCorpus holds pattern.js to Go's regexp over the corpus:
// each record's message, the message with the reader's own values, pasted
// context around it, and mutations that should not match.
func TestJSMatchesGoOnCorpus(t *testing.T) {
	rs := corpusRecords(t, 2000)
	var s suite
	for _, r := range rs {
		texts := mutations(r.ErrorMessage)
		for _, o := range rs[:3] {
			texts = append(texts, o.ErrorMessage)
		}
		s.add(r.MessagePattern, texts, false)
	}
	s.check(t)
}

// BenchmarkCompile measures Compile over generated patterns (the build
// runs it once per distinct pattern).
func BenchmarkCompile(b *testing.B) {
	rs := corpus.Generate(2000, 9).Records()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Compile(rs[i%len(rs)].MessagePattern)
	}
}

// BenchmarkParse is the share of Compile spent in regexp/syntax parsing,
// for comparison.
func BenchmarkParse(b *testing.B) {
	rs := corpus.Generate(2000, 9).Records()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Parse(rs[i%len(rs)].MessagePattern)
	}
}
