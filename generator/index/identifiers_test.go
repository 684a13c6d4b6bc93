package index

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/errdocs/errdocs/internal/corpus"
)

// realCodePath is the real source excerpts internal/corpus embeds.
const realCodePath = "../../internal/corpus/testdata/realcode.jsonl.gz"

// realCodeExcerpts reads every excerpt of realCodePath whole.
func realCodeExcerpts(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(realCodePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<22)
	var out []string
	for sc.Scan() {
		var e struct {
			Code string `json:"code"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e.Code)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 1000 {
		t.Fatalf("%d real excerpts, want the whole file", len(out))
	}
	return out
}

// realRecordExcerpts is the source excerpts of generated records with
// real code: 40-line windows of the real excerpts, as a build sees them.
func realRecordExcerpts(t testing.TB, n int, seed int64) []string {
	t.Helper()
	d := corpus.Generate(n, seed)
	if err := d.UseRealCode(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range d.Records() {
		if r.SourceCode != "" {
			out = append(out, r.SourceCode)
		}
	}
	return out
}

// identifierSnippets are hand-written cases: each language's comments,
// strings and escapes, unicode identifiers, invalid UTF-8, chains.
var identifierSnippets = []string{
	"",
	" ",
	"a",
	"_",
	"$",
	"$_$",
	"__init__",
	"_private_name_",
	"$scope.$apply()",
	"jQuery.$el",
	".",
	"..",
	"a.",
	".a",
	"a..b",
	"a.b.C",
	"a.b.c",
	"this.x.Y",
	"this.fooBar self.X os.PathError",
	"self.z",
	"self.conn.Close()",
	"java.lang.NullPointerException",
	"*java.lang.NullPointerException",
	"fmt.Errorf(\"open %s: %w\", name, err)",
	"errors.New(\"bad\")",
	"os.PathError{Op: \"open\"}",
	"HTTPServerError parse_url2 XMLHttpRequest getHTTPResponseCode iOS IOError ABCDef A1B2c3 a1B",
	"// line comment with CamelCase\nfunc parseURLString() error { return nil }",
	"/* block CamelCase */ realName /* unterminated",
	"/**/x/*a*/y",
	"# python comment FooBar\nclass FooBarError(ValueError):\n    pass",
	"x = 'it\\'s' + \"say \\\"hi\\\"\" + `raw\nline` + y",
	"s = \"unterminated\nnextLine = 1",
	"s = \"ends with backslash\\",
	"'",
	"\\",
	"a--b --comment\n-- sql comment\nSELECT user_id FROM Users",
	"i--; j-- ;--k\n x --> y",
	"raise ValueError(f\"bad {value!r}\") from exc",
	"throw new IllegalArgumentException(\"x\");",
	"panic!(\"oops {}\", self.inner.kind())",
	"return Err(anyhow!(\"missing {}\", key_name));",
	"if err != nil { return fmt.Errorf(\"read: %w\", err) }",
	"const parseURLString = new HTTPServerError('some message');\nitem.forEach(x)",
	"std::io::ErrorKind::NotFound => Err(MyError::Missing)",
	"template<typename T> std::vector<T> v; throw std::runtime_error(\"x\");",
	"café.Crème = naïveValue; ÉcoleNormale.Ω",
	"ΩmegaValue αβγ.ΔΕΖ ωΩ",
	"変数名 = 中文.类型Error + 日本語のIdentifier",
	"x١٢٣ = ١٢٣٤ + ۱۲ + x٣Y",
	"a²b = ⅫValue + x\u0301y",
	"ǅemal ǈubljana ᾈ ﬃx",
	"\u212Awargs \u212AWARGS brea\u212A İf İmport ßtraße STRASSE",
	"\xff\xfe abc\xc3 dEf\xe2\x82 gHi \xc3\xa9Tre",
	"a\x00b\tC\rD",
	"\ufffdName x\ufffdY",
	"1234 0x1F 12ab ab12 3.14 1e10 _123_ $1",
	"NaN Infinity undefined None True False",
	"String Error Errors Args KWARGS Self This",
	strings.Repeat("veryLongIdentifierName", 200),
	strings.Repeat("a.", 500) + "Z",
	strings.Repeat("Ab", 1000),
	strings.Repeat("é", 300) + "X",
	strings.Repeat("fooBar_baz QuxQuux.Zed ", 40),
	strings.Repeat("x", 4) + " " + strings.Repeat("y", 40),
}

// randomIdentifierInput is a string of pieces chosen to meet every branch:
// identifier runes of several scripts and cases, dots, quotes, comment
// marks, escapes, keywords, invalid UTF-8.
func randomIdentifierInput(rng *rand.Rand, pieces int) string {
	alphabet := [...]string{
		"a", "b", "z", "A", "Q", "Z", "_", "$", "0", "7", "9",
		".", ".", ".", " ", " ", "\n", "\t", "(", ")", ",", ";", "=", "*",
		"\"", "'", "`", "\\", "/", "/", "#", "-", "-",
		"é", "É", "Ω", "ω", "中", "١", "²", "ǅ", "\u212A", "İ", "ß", "\u0301", "Ⅻ",
		"\xff", "\xc3", "\xe2\x82", "\ufffd",
		"this.", "self.", "Error", "error", "kwargs", "String", "new", "HTTPServer", "x_y", "__", "$$",
		"ID", "iOS", "a1B", "URL", "parse", "Value", "os.", "Path",
	}
	var b strings.Builder
	for range pieces {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// identifierInputs is every input the equivalence tests try: the real
// excerpts whole and in windows, records' excerpts real and generated,
// the snippets, and random strings.
func identifierInputs(t testing.TB) []string {
	t.Helper()
	ins := append([]string(nil), identifierSnippets...)
	for _, code := range realCodeExcerpts(t) {
		ins = append(ins, code)
		lines := strings.Split(code, "\n")
		for lo := 0; lo < len(lines); lo += 23 {
			ins = append(ins, strings.Join(lines[lo:min(len(lines), lo+40)], "\n"))
		}
	}
	ins = append(ins, realRecordExcerpts(t, 3000, 7)...)
	for _, r := range corpus.Generate(1500, 11).Records() {
		ins = append(ins, r.SourceCode, r.TryCatchPattern, r.ExampleFix, r.ErrorClass, r.ErrorMessage)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		n := rng.IntN(40)
		if i%500 == 0 {
			n = 3000 // many distinct words
		}
		ins = append(ins, randomIdentifierInput(rng, n))
	}
	return ins
}

// TestIdentifiersMatchOracle holds SourceIdentifiers, IdentifierText and
// stripCommentsAndStrings to the output of their frozen copies.
func TestIdentifiersMatchOracle(t *testing.T) {
	bigSets := 0 // inputs whose wordSet outgrows its array
	for _, in := range identifierInputs(t) {
		if got, want := SourceIdentifiers(in), oracleSourceIdentifiers(in); got != want {
			t.Fatalf("SourceIdentifiers(%q)\n got %q\nwant %q", in, got, want)
		}
		stripped := stripCommentsAndStrings(in)
		if want := oracleStripCommentsAndStrings(in); stripped != want {
			t.Fatalf("stripCommentsAndStrings(%q)\n got %q\nwant %q", in, stripped, want)
		}
		minLens := []int{0, 2, 4}
		if len(in) < 200 {
			minLens = append(minLens, -1, 1, 3, 5) // cheap on short inputs
		}
		for _, minLen := range minLens {
			got, want := IdentifierText(in, minLen), oracleIdentifierText(in, minLen)
			if got != want {
				t.Fatalf("IdentifierText(%q, %d)\n got %q\nwant %q", in, minLen, got, want)
			}
			if minLen == 0 && strings.Count(got, " ") >= wordSetScan {
				bigSets++
			}
		}
		if got, want := IdentifierText(stripped, 4), oracleIdentifierText(stripped, 4); got != want {
			t.Fatalf("IdentifierText(%q, 4)\n got %q\nwant %q", stripped, got, want)
		}
	}
	if bigSets < 100 {
		t.Errorf("%d inputs with more than %d identifier words: the map of wordSet is hardly tried", bigSets, wordSetScan)
	}
}

// TestIdentifierHelpersMatchOracle holds the helpers to their frozen
// copies on each word and identifier run of random inputs and the snippets.
func TestIdentifierHelpersMatchOracle(t *testing.T) {
	words := append([]string{"", "_", "$", "__", "x", "Ab", "ABc", "aB", "a1B", "HTTPServerError", "parse_url2", "ǅx", "xǅY"}, identifierSnippets...)
	for w := range oracleCommonKeywords {
		words = append(words, w, strings.ToUpper(w), strings.ToUpper(w[:1])+w[1:], w+"s", "x"+w)
	}
	words = append(words, "\u212Awargs", "brea\u212A", "\u212AWARGS", "İf", "İmport", "ſelf", "ſtr")
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		in := randomIdentifierInput(rng, rng.IntN(30))
		words = append(words, in)
		// identifier runs, as splitIdentifier and the keyword test get them
		for i := 0; i < len(in); {
			n := runOf(in[i:], true)
			if n == 0 {
				_, w := utf8.DecodeRuneInString(in[i:])
				i += w
				continue
			}
			words = append(words, in[i:i+n], trimUnderscoreDollar(in[i:i+n]))
			i += n
		}
	}
	for _, w := range words {
		if got, want := hasStructure(w), oracleHasStructure(w); got != want {
			t.Fatalf("hasStructure(%q) = %v, want %v", w, got, want)
		}
		if got, want := isCommonKeyword(w), oracleIsCommonKeyword(w); got != want {
			t.Fatalf("isCommonKeyword(%q) = %v, want %v", w, got, want)
		}
		if got, want := trimUnderscoreDollar(w), strings.Trim(w, "_$"); got != want {
			t.Fatalf("trimUnderscoreDollar(%q) = %q, want %q", w, got, want)
		}
		for _, n := range []int{-1, 0, 1, 2, 3, 4, 5, 8, 17} {
			if got, want := atLeastRunes(w, n), utf8.RuneCountInString(w) >= n; got != want {
				t.Fatalf("atLeastRunes(%q, %d) = %v, want %v", w, n, got, want)
			}
		}
		if !utf8.ValidString(w) || runOf(w, true) != len(w) {
			continue // splitIdentifier gets identifier runs only
		}
		got := splitIdentifier(nil, w)
		if want := oracleSplitIdentifier(w); !slices.Equal(got, want) {
			t.Fatalf("splitIdentifier(%q) = %q, want %q", w, got, want)
		}
	}
}

// BenchmarkSourceIdentifiers runs SourceIdentifiers (and its frozen
// former version) over real excerpts as records hold them, one excerpt
// an op.
func BenchmarkSourceIdentifiers(b *testing.B) {
	srcs := realRecordExcerpts(b, 2000, 3)
	for _, bc := range []struct {
		name string
		fn   func(string) string
	}{{"new", SourceIdentifiers}, {"oracle", oracleSourceIdentifiers}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				bc.fn(srcs[i%len(srcs)])
				i++
			}
		})
	}
}
