package pattern

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// The tests in this file run static/search/pattern.js in Node and hold its
// answers to Go's regexp under the semantics of Match.

const patternJS = "../../static/search/pattern.js"

func requireNode(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is required under CI but was not found")
		}
		t.Skip("node not found: skipping the JavaScript matcher tests (install Node to run them; under CI=true they are required)")
	}
	return p
}

type nodeCase struct {
	P    int    `json:"p"`
	Text string `json:"text"`
	Bare bool   `json:"bare,omitempty"`
}

type timing struct {
	Program json.RawMessage `json:"program"`
	Repeat  string          `json:"repeat"`
	Count   int             `json:"count"`
	Suffix  string          `json:"suffix"`
	Bare    bool            `json:"bare"`
}

type nodeInput struct {
	Programs []json.RawMessage `json:"programs"`
	Cases    []nodeCase        `json:"cases"`
	Timing   *timing           `json:"timing,omitempty"`
}

type nodeOutput struct {
	Answers []bool `json:"answers"`
	Timing  *struct {
		MS     float64 `json:"ms"`
		Result bool    `json:"result"`
	} `json:"timing"`
}

func runNode(t *testing.T, in nodeInput) nodeOutput {
	t.Helper()
	node := requireNode(t)
	dir := t.TempDir()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cases := filepath.Join(dir, "cases.json")
	if err := os.WriteFile(cases, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "testdata/run.js", patternJS, cases)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var out nodeOutput
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("node output: %v", err)
	}
	if len(out.Answers) != len(in.Cases) {
		t.Fatalf("node answered %d cases of %d", len(out.Answers), len(in.Cases))
	}
	return out
}

// suite collects patterns and texts with Go's answers.
type suite struct {
	in    nodeInput
	want  []bool
	exprs []string
}

func (s *suite) add(expr string, texts []string, bare bool) bool {
	prog, err := Compile(expr)
	if err != nil {
		return false
	}
	re := regexp.MustCompile(expr)
	s.in.Programs = append(s.in.Programs, prog)
	s.exprs = append(s.exprs, expr)
	p := len(s.in.Programs) - 1
	for _, text := range texts {
		s.in.Cases = append(s.in.Cases, nodeCase{P: p, Text: text})
		s.want = append(s.want, MatchRegexp(re, text))
		if bare {
			s.in.Cases = append(s.in.Cases, nodeCase{P: p, Text: text, Bare: true})
			s.want = append(s.want, re.MatchString(text))
		}
	}
	return true
}

func (s *suite) check(t *testing.T) {
	out := runNode(t, s.in)
	bad := 0
	matched := 0
	for i, c := range s.in.Cases {
		if s.want[i] {
			matched++
		}
		if out.Answers[i] != s.want[i] {
			bad++
			if bad <= 20 {
				mode := "match"
				if c.Bare {
					mode = "search"
				}
				t.Errorf("%s(%q, %q): js %v, go %v; program %s", mode, s.exprs[c.P], c.Text, out.Answers[i], s.want[i], s.in.Programs[c.P])
			}
		}
	}
	t.Logf("%d patterns, %d cases (%d matching), %d disagreements", len(s.in.Programs), len(s.in.Cases), matched, bad)
}

func TestJSMatchesGoOnExamples(t *testing.T) {
	var s suite
	for _, e := range examples {
		texts := mutations(e.message)
		texts = append(texts, strings.Repeat("x", MaxInput)+e.message, e.message+strings.Repeat("\n", MaxInput),
			e.message+strings.Repeat("y", MaxInput/2)+"zz", "", "   ")
		if !s.add(e.pattern, texts, true) {
			t.Errorf("Compile(%q) failed", e.pattern)
		}
	}
	s.add(`\bfoo\b`, []string{"foo", "a foo b", "afoo", "foo_", "é foo é", "foo.bar"}, true)
	s.add(`(?m)^b$`, []string{"a\nb\nc", "ab", "b", "a\r\nb"}, true)
	s.add(`\Aab\z`, []string{"ab", " ab ", "ab\n", "x\nab"}, true)
	// the rest of a line after a prefix ending in ": ", up to MaxPrefixes
	s.add(`^value \d+ out of range$`, []string{"ValueError: value 3 out of range", "a: b: value 3 out of range",
		"a: b: c: value 3 out of range", "a: b: c: d: value 3 out of range", "x\nValueError:  value 3 out of range \ny",
		"ValueError:value 3 out of range", "é: value 3 out of range", "value 3 out of range: "}, true)
	s.check(t)
}

// TestJSMatchesGoRandom compares the bare VM and the full match with Go on
// random patterns and texts, including texts generated from each pattern.
func TestJSMatchesGoRandom(t *testing.T) {
	var s suite
	r := rand.New(rand.NewPCG(7, 11))
	n := 2500
	if testing.Short() {
		n = 300
	}
	for range n {
		expr := randomPattern(r, 4)
		var texts []string
		for range 6 {
			texts = append(texts, randomText(r))
		}
		if re, err := syntax.Parse(expr, syntax.Perl); err == nil {
			for range 6 {
				g := generate(r, re.Simplify(), 0)
				texts = append(texts, g, randomText(r)+g+randomText(r))
			}
		}
		s.add(expr, texts, true)
	}
	s.check(t)
}

// TestJSIsLinear runs the classic catastrophic pattern on a long text: a
// backtracking engine takes exponential time, the VM must be quick.
func TestJSIsLinear(t *testing.T) {
	for _, c := range []struct {
		expr string
		bare bool
	}{{`(a+)+$`, true}, {`(a+)+$`, false}, {`(x+x+)+y`, true}, {`(a|aa)+b`, false}} {
		prog, err := Compile(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		in := nodeInput{Programs: []json.RawMessage{prog}, Timing: &timing{Program: prog, Repeat: "a", Count: 10000, Suffix: "!", Bare: c.bare}}
		if strings.Contains(c.expr, "x") {
			in.Timing.Repeat = "x"
		}
		out := runNode(t, in)
		text := strings.Repeat(in.Timing.Repeat, 10000) + "!"
		want := regexp.MustCompile(c.expr).MatchString(text)
		if !c.bare {
			want = MatchRegexp(regexp.MustCompile(c.expr), text)
		}
		if out.Timing.Result != want {
			t.Errorf("%s on 10,000 characters: js %v, go %v", c.expr, out.Timing.Result, want)
		}
		if out.Timing.MS > 500 {
			t.Errorf("%s on 10,000 characters took %.0f ms in Node, want well under a second", c.expr, out.Timing.MS)
		}
		t.Logf("%s (bare %v): %.1f ms", c.expr, c.bare, out.Timing.MS)
	}
}
