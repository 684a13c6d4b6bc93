package validate_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errdocs/errdocs/generator/validate"
)

// FuzzRecord: no input makes Record panic; a record is clean exactly when it
// has no problem, and every problem has a field and a rule on one line.
func FuzzRecord(f *testing.F) {
	f.Add(seed(f))
	for _, s := range []string{`{}`, `[]`, `null`, `{"id":1,"id":2}`, "{\"\xff\":1}", `{"tags":[1,"A",null]}`, `{"lineNumber":1e400}`,
		`{"record":{},"source":1}`, `{"record":{"id":7},"datasetVersion":[],"record":{}}`, `{"datasetVersion":null,"record":{"record":{}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, ps := validate.Record(raw)
		for _, p := range ps {
			if p.Field == "" || p.Rule == "" || strings.ContainsAny(p.Field+p.Rule, "\n\r") {
				t.Fatalf("bad problem %q", p)
			}
		}
	})
}

// FuzzRejectLine: whatever a record's bytes and id, its rejects-file line
// is one line of valid JSON in valid UTF-8, and its report lines carry no
// control character from the id.
func FuzzRejectLine(f *testing.F) {
	f.Add([]byte(`{"id":"\xff\xfe"}`), "\x1b[2J")
	f.Add([]byte(`{"a":"caf\xc3"}`), "e171781a76b49a91")
	f.Add([]byte(`[1,2]`), "")
	f.Add([]byte("{\"id\":{\"x\":\"\u202e\xff\"}}"), "")
	f.Add([]byte(`{"record":{"id":12345},"x":1}`), "")
	f.Fuzz(func(t *testing.T, raw []byte, id string) {
		_, ps := validate.Record(raw)
		if !json.Valid(raw) {
			raw = nil // the reader hands on only JSON values
		}
		rj := validate.Reject{ID: id, Problems: ps, Raw: raw}
		line, err := json.Marshal(rj)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if !json.Valid(line) || !utf8.Valid(line) || bytes.ContainsAny(line, "\n\r") {
			t.Fatalf("bad rejects line %q", line)
		}
		for _, l := range strings.Split(rj.Error(), "\n") {
			if strings.ContainsFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("control character in report line %q", l)
			}
		}
	})
}
