package export

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/errdocs/errdocs/generator/record"
	"github.com/errdocs/errdocs/internal/corpus"
	"github.com/errdocs/errdocs/internal/testtools"

	"github.com/errdocs/errdocs/generator/index"
)

// dirWriter writes exported files below a folder.
type dirWriter struct{ root string }

func (w dirWriter) WriteFile(rel string, data []byte) error {
	p := filepath.Join(w.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// memWriter keeps exported files in memory.
type memWriter map[string][]byte

func (m memWriter) WriteFile(rel string, data []byte) error {
	m[rel] = append([]byte(nil), data...)
	return nil
}

func moduleRoot(t testing.TB) string {
	return testtools.ModuleRoot(t)
}

func genRecords(n int, seed int64) []record.Record {
	return corpus.Generate(n, seed).Records()
}

// fixture is an index of generated records and its export.
type fixture struct {
	ix   *index.Index
	recs []record.Record
	site string
	st   Stats
}

func buildFixture(t testing.TB, n int, seed int64, opts Options) *fixture {
	t.Helper()
	dir := t.TempDir()
	ix, err := index.Open(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	recs := genRecords(n, seed)
	if _, err := ix.Sync(index.Records(recs)); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(dir, "site")
	st, err := New(ix).Export(dirWriter{site}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{ix: ix, recs: recs, site: site, st: st}
}

// runNode runs js_test/harness.js with req and decodes its answer into resp.
// Without node the test is skipped, unless CI=true (then it fails).
func runNode(t testing.TB, req map[string]interface{}, resp interface{}) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is required in CI (CI=true) for the JS parity tests")
		}
		t.Skip("node not found: skipping the JavaScript parity test (install Node 18+ to run it)")
	}
	root := moduleRoot(t)
	req["root"] = root
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "req.json")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(root, "generator", "index", "export", "js_test", "harness.js"), f)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node harness: %v", err)
	}
	if err := json.Unmarshal(out, resp); err != nil {
		t.Fatalf("node harness output: %v", err)
	}
}
