package markdown

import (
	"testing"

	"github.com/errdocs/errdocs/internal/corpus"
)

// firstSentenceOfBlocks is FirstSentence as the list of all blocks
// defines it.
func firstSentenceOfBlocks(src string, max int) string {
	bs := blocks(src)
	if len(bs) == 0 {
		return ""
	}
	t := bs[0].text
	for _, b := range bs {
		if b.prose {
			t = b.text
			break
		}
	}
	return truncate(firstSentence(t), max)
}

// TestFirstSentenceEarlyStop checks FirstSentence and RenderFirstSentence
// against the definition by blocks, and the HTML against Render.
func TestFirstSentenceEarlyStop(t *testing.T) {
	srcs := []string{
		"", "   ", "# Only a heading", "# Heading\n\nThen prose. More.",
		"```\ncode first\n```\n\nProse after. Yes.", "    indented code\n\n# h\n",
		"| a | b |\n|---|---|\n| c | d |\n\nText. Here.", "> quoted. text\n\nnext",
		"- item one. two\n- item", "`code` span. then", "*emph* e.g. this. That",
		"![img alt](x.png) caption. more", "<b>raw</b> html. text", "a\\. b. C",
	}
	for _, r := range corpus.Generate(400, 5).Records() {
		srcs = append(srcs, r.Documentation, r.TriggerScenarios, r.CommonSituations)
		srcs = append(srcs, r.Solutions...)
	}
	md := New()
	for _, src := range srcs {
		for _, max := range []int{0, 40, 160} {
			want := firstSentenceOfBlocks(src, max)
			if got := FirstSentence(src, max); got != want {
				t.Fatalf("FirstSentence(%q, %d) = %q, want %q", src, max, got, want)
			}
			h, s, err := md.RenderFirstSentence(src, max)
			if err != nil {
				t.Fatal(err)
			}
			wantH, err := md.Render(src)
			if err != nil {
				t.Fatal(err)
			}
			if s != want || h != wantH {
				t.Fatalf("RenderFirstSentence(%q, %d) = %q, %q; want %q, %q", src, max, h, s, wantH, want)
			}
		}
	}
}
