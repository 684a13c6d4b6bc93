package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFromTree runs the extractor over a small source tree of each
// language and checks the messages it takes: literals, concatenations,
// f-strings and template literals with their placeholders kept, adjacent
// literals joined; and what it leaves: comments, messages built
// elsewhere, tests, duplicates, one-word messages.
func TestFromTree(t *testing.T) {
	files := map[string]string{
		"app/views.py": `def f(x, path):
    raise ValueError("invalid value for %s" % x)
    raise KeyError(f"missing key {x!r} in {path}")
    raise TypeError(
        "expected a mapping, "
        "got " + type(x).__name__)
    raise RuntimeError(msg)
    # raise ValueError("commented out message")
    raise ValueError("invalid value for %s" % x)
`,
		"cmd/serve.go": "package main\n" +
			"func f() error {\n" +
			"\tif x { return fmt.Errorf(\"cannot open %s: %w\", p, err) }\n" +
			"\tif y { return errors.New(\"connection pool is closed\") }\n" +
			"\tif z { return status.Errorf(codes.Internal, \"grpc: failed to unmarshal %v\", m) }\n" +
			"\tpanic(\"unreachable code: \" + name)\n" +
			"\treturn errors.New(`raw string message here`)\n" +
			"}\n",
		"src/index.ts": "export function g(id: string) {\n" +
			"  throw new Error(`Module ${id} was not found`);\n" +
			"  throw new TypeError('Expected a string but received ' + typeof id);\n" +
			"  // throw new Error('commented out message')\n" +
			"}\n",
		"src/lib.rs": "fn h() -> Result<()> {\n" +
			"    bail!(\"failed to read manifest at {}\", path.display());\n" +
			"    return Err(anyhow!(\"invalid feature name `{name}`\"));\n" +
			"    panic!(r#\"unexpected \"quoted\" token\"#);\n" +
			"}\n",
		"src/main/java/Foo.java": "class Foo { void f() {\n" +
			"  throw new IllegalArgumentException(\"Bean name '\" + beanName + \"' must not be empty\");\n" +
			"  throw new IllegalStateException(String.format(\"No handler for %s found\", key));\n" +
			"}}\n",
		"src/db.cpp":            "void f() {\n  throw std::runtime_error(\"database file is locked\");\n}\n",
		"tests/test_views.py":   "raise ValueError(\"a message from a test file\")\n",
		"app/one.py":            "raise ValueError(\"oops\")\n",
		"node_modules/x/a.js":   "throw new Error('vendored message here')\n",
		"src/views_test.go":     "panic(\"a test panic message\")\n",
		"docs/example_usage.py": "raise ValueError(\"an example message\")\n",
	}
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := fromTree("owner/name", root, 100, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"invalid value for %s":                     "py",
		"missing key {x!r} in {path}":              "py",
		"expected a mapping, got {__name__}":       "py",
		"cannot open %s: %w":                       "go",
		"connection pool is closed":                "go",
		"grpc: failed to unmarshal %v":             "go",
		"unreachable code: {name}":                 "go",
		"raw string message here":                  "go",
		"Module ${id} was not found":               "ts",
		"Expected a string but received ${id}":     "ts",
		"failed to read manifest at {}":            "rs",
		"invalid feature name `{name}`":            "rs",
		`unexpected "quoted" token`:                "rs",
		"Bean name '{beanName}' must not be empty": "java",
		"No handler for %s found":                  "java",
		"database file is locked":                  "cpp",
	}
	got := map[string]string{}
	for _, m := range ms {
		if _, dup := got[m.Message]; dup {
			t.Errorf("message %q taken twice", m.Message)
		}
		got[m.Message] = m.Lang
		if m.Repo != "owner/name" || m.Line < 1 || m.Path == "" {
			t.Errorf("message %q: repo %q, path %q, line %d", m.Message, m.Repo, m.Path, m.Line)
		}
	}
	for msg, lang := range want {
		if got[msg] != lang {
			t.Errorf("missing %s message %q", lang, msg)
		}
	}
	for msg := range got {
		if _, ok := want[msg]; !ok {
			t.Errorf("unexpected message %q", msg)
		}
	}
}
