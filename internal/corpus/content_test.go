package corpus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
)

// contentDir is the sample dataset errdocs builds by default.
var contentDir = filepath.Join("..", "..", "content")

// TestContent checks the hand-written sample in content/ with the same
// rules as generated data: every record valid, ids and slugs unique,
// repos.json, tags.json, info/ and the manifest consistent with the files.
func TestContent(t *testing.T) {
	n := checkExport(t, contentDir)
	if n < 30 {
		t.Errorf("content/ has %d records, want about 30", n)
	}
	var types, sevs, langs = map[string]bool{}, map[string]bool{}, map[string]bool{}
	repos := map[string]bool{}
	walkContent(t, func(r record.Record) {
		types[r.ErrorType], sevs[r.Severity], repos[r.Repo] = true, true, true
		langs[record.Language(r.FilePath)] = true
	})
	for _, et := range record.ErrorTypes {
		if !types[et] {
			t.Errorf("content/ has no record of errorType %s", et)
		}
	}
	for _, s := range record.Severities {
		if !sevs[s] {
			t.Errorf("content/ has no record of severity %s", s)
		}
	}
	for _, l := range []string{"Python", "Go", "TypeScript", "Rust", "Java", "C++"} {
		if !langs[l] {
			t.Errorf("content/ has no %s record", l)
		}
	}
	if len(repos) < 6 {
		t.Errorf("content/ has %d repos, want 6 to 8", len(repos))
	}
}

// TestContentHoldsSeed: the seed record is in content/ unchanged.
func TestContentHoldsSeed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "seeds", "000_33473d402918119e.json"))
	if err != nil {
		t.Skip("seed not available:", err)
	}
	var seed struct {
		Record map[string]any `json:"record"`
	}
	if err := json.Unmarshal(b, &seed); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join(contentDir, "repos", "jax-ml", "jax.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r["id"] == seed.Record["id"] {
			if !reflect.DeepEqual(r, seed.Record) {
				t.Errorf("content/ holds the seed record changed")
			}
			return
		}
	}
	t.Errorf("content/repos/jax-ml/jax.json lacks the seed record %v", seed.Record["id"])
}

func walkContent(t *testing.T, fn func(record.Record)) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(contentDir, "repos", "*", "*.json"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var recs []record.Record
		if err := json.Unmarshal(b, &recs); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, r := range recs {
			fn(r)
		}
	}
}
