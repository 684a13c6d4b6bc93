package corpus

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
)

// TestRealMessages checks that UseRealMessages gives records real messages:
// every schema rule still holds, each message is a real one with its
// placeholders filled (its literal text kept, in order), its pattern
// matches it wherever Go can compile the pattern, the same seed gives the
// same records, and most records' messages differ.
func TestRealMessages(t *testing.T) {
	const n = 3000
	d := Generate(n, 7)
	if err := d.UseRealMessages(); err != nil {
		t.Fatal(err)
	}
	again := Generate(n, 7)
	if err := again.UseRealMessages(); err != nil {
		t.Fatal(err)
	}
	second := again.Records()
	// Literal skeletons of the real messages, by language.
	real := map[string]map[string]bool{}
	for lang, pool := range d.realMsgs {
		real[lang] = map[string]bool{}
		for _, pt := range pool {
			real[lang][literalSkeleton(pt)] = true
		}
	}
	c := newDatasetChecker()
	i, compiled, withValue := 0, 0, 0
	distinct := map[string]bool{}
	err := d.Each(func(r *record.Record) error {
		b, err := r.MarshalJSON()
		if err != nil {
			return err
		}
		if probs := append(checkRaw(b), c.add(r.ID, r)...); len(probs) > 0 {
			t.Errorf("record %d (id %s): %s", i, r.ID, strings.Join(probs, "; "))
		}
		if b2, _ := second[i].MarshalJSON(); !bytes.Equal(b, b2) {
			t.Errorf("record %d differs between two runs of the same seed", i)
		}
		distinct[r.ErrorMessage] = true
		if re, err := regexp.Compile(r.MessagePattern); err == nil {
			compiled++
			if !re.MatchString(r.ErrorMessage) {
				t.Errorf("record %d: pattern %q does not match %q", i, r.MessagePattern, r.ErrorMessage)
			}
			if !re.MatchString(regexp.QuoteMeta(r.ErrorMessage)) || strings.ContainsAny(r.MessagePattern, `\[`) {
				withValue++
			}
		}
		if !fitsRealMessage(r.ErrorMessage, real) {
			t.Errorf("record %d: message %q is no real message filled", i, r.ErrorMessage)
		}
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if i != n || compiled < n*9/10 || withValue < n/3 || len(distinct) < n/2 {
		t.Errorf("%d records, %d patterns compiled, %d with a generalised part, %d distinct messages", i, compiled, withValue, len(distinct))
	}
}

// literalSkeleton is a template's literal text with each variable part
// one "\x00".
func literalSkeleton(pt *parsedTemplate) string {
	var b strings.Builder
	for _, p := range pt.parts {
		if p.kind != "" {
			b.WriteByte(0)
		} else {
			b.WriteString(p.lit)
		}
	}
	return b.String()
}

// fitsRealMessage says whether msg is some real message's literal text
// with its variable parts filled: the skeleton's literal pieces in order,
// the first at the start and the last at the end.
func fitsRealMessage(msg string, real map[string]map[string]bool) bool {
	for _, sks := range real {
		for sk := range sks {
			pieces := strings.Split(sk, "\x00")
			if !strings.HasPrefix(msg, pieces[0]) || !strings.HasSuffix(msg, pieces[len(pieces)-1]) {
				continue
			}
			rest, ok := msg[len(pieces[0]):], true
			for _, p := range pieces[1:] {
				k := strings.Index(rest, p)
				if k < 0 {
					ok = false
					break
				}
				rest = rest[k+len(p):]
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// TestRealTemplatePlaceholders checks how a real message's placeholders
// become variable parts: printf verbs, format fields, ${} and concatenated
// names, each where its language formats it, escapes kept as text.
func TestRealTemplatePlaceholders(t *testing.T) {
	cases := []struct {
		lang, msg, want string // want: literal text, each kind in <>
	}{
		{"go", "open %s: %w", "open <name>: <err>"},
		{"go", "bad count %d for %q", `bad count <n> for "<qname>"`},
		{"go", "interface {} is nil, 100%% sure", "interface {} is nil, 100% sure"},
		{"go", "cannot read {filePath}", "cannot read <path>"},
		{"py", "Invalid url {url!r}: {exc}", "Invalid url <url>: <err>"},
		{"py", "%(port)d is {{taken}}", "<port> is {taken}"},
		{"rs", "expected {} items, got {:?}", "expected <name> items, got <word>"},
		{"rs", "100% wrong", "100% wrong"},
		{"js", "Module ${request} not found in {obj}", "Module <name> not found in {obj}"},
		{"java", "Bean '{getBeanName}' of type %s", "Bean '<name>' of type <name>"},
	}
	for _, c := range cases {
		pt := realTemplate(realMessage{Lang: c.lang, Message: c.msg}, 0)
		var b strings.Builder
		for _, p := range pt.parts {
			if p.kind != "" {
				b.WriteString("<" + p.kind + ">")
			} else {
				b.WriteString(p.lit)
			}
		}
		if b.String() != c.want {
			t.Errorf("%s %q: got %q, want %q", c.lang, c.msg, b.String(), c.want)
		}
	}
	if realTemplate(realMessage{Lang: "go", Message: "%s: %v"}, 0) != nil {
		t.Errorf("a message of placeholders only was kept")
	}
}
