package export

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/errdocs/errdocs/internal/browsertest"

	"github.com/errdocs/errdocs/generator/index"
)

// TestAnalyzerParityChromium runs analyzer.js in headless Chromium, whose
// ICU segments words differently from Node's (it splits "out.bin" at the
// dot), over the edge texts and the messages and identifiers of generated
// records, and requires bleve's terms for each.
func TestAnalyzerParityChromium(t *testing.T) {
	ctx := browsertest.New(t)
	recs := genRecords(300, 3)
	var texts []string
	texts = append(texts, edgeTexts...)
	for i := range recs {
		doc, _ := index.BuildDoc(&recs[i])
		for _, name := range []string{"errorMessage", "identifiers", "errorClass"} {
			if s, ok := doc[name].(string); ok {
				texts = append(texts, s)
			}
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/static/", http.FileServer(http.Dir(moduleRoot(t))))
	mux.HandleFunc("/a.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "script-src 'self'")
		fmt.Fprint(w, `<!doctype html><meta charset="utf-8"><title>a</title><script src="/static/search/analyzer.js"></script>`)
	})
	base := browsertest.ServeHandler(t, mux)
	browsertest.Navigate(t, ctx, base+"a.html")
	tj, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := index.NewMapping()
	if err != nil {
		t.Fatal(err)
	}
	mismatches := 0
	for _, a := range []string{index.AnalyzerEN, index.AnalyzerIdent} {
		got := browsertest.Eval[[][]string](t, ctx, fmt.Sprintf(`%s.map(s => ErrdocsAnalyzer.terms(%q, s))`, tj, a))
		if len(got) != len(texts) {
			t.Fatalf("%s: %d results for %d texts", a, len(got), len(texts))
		}
		for i, text := range texts {
			want := Analyze(m, a, text)
			for k := range want {
				want[k] = jsonString(want[k])
			}
			if fmt.Sprint(want) != fmt.Sprint(got[i]) {
				mismatches++
				if mismatches <= 10 {
					t.Errorf("%s %q:\n  bleve %q\n  js    %q", a, text, want, got[i])
				}
			}
		}
	}
	if mismatches > 0 {
		t.Errorf("%d of %d texts analyzed differently in Chromium", mismatches, 2*len(texts))
	}
}
