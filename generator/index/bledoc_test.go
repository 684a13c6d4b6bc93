package index

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/document"

	"github.com/errdocs/errdocs/internal/corpus"
)

// TestDocMakerMakesTheMappingsDocuments checks that the documents Apply
// makes are those the index mapping makes of the same records: the same
// fields, with the same array positions and options, analyzed to the
// same tokens and lengths.
func TestDocMakerMakesTheMappingsDocuments(t *testing.T) {
	im, err := NewMapping()
	if err != nil {
		t.Fatal(err)
	}
	dm, err := newDocMaker(im)
	if err != nil {
		t.Fatal(err)
	}
	recs := corpus.Generate(300, 11).Records()
	odd := recs[0]
	odd.ID, odd.Tags, odd.Solutions, odd.ErrorCode, odd.ErrorClass, odd.BackgroundTag = "00000000000000ff", nil, []string{}, "", "", ""
	recs = append(recs, odd)
	for i := range recs {
		r := &recs[i]
		doc, _ := BuildDoc(r)
		want := document.NewDocument(r.ID)
		if err := im.MapDocument(want, doc); err != nil {
			t.Fatal(err)
		}
		got, err := dm.document(r.ID, doc)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := fieldsOf(got), fieldsOf(want); !reflect.DeepEqual(g, w) {
			t.Fatalf("record %s: made\n%v\nthe mapping makes\n%v", r.ID, g, w)
		}
	}
}

// fieldsOf describes each field of d, analyzed, in name and position
// order.
func fieldsOf(d *document.Document) []string {
	var out []string
	for _, f := range d.Fields {
		f.Analyze()
		var terms []string
		for term, tf := range f.AnalyzedTokenFrequencies() {
			locs := ""
			for _, l := range tf.Locations {
				locs += fmt.Sprintf(" %s%v@%d:%d-%d", l.Field, l.ArrayPositions, l.Position, l.Start, l.End)
			}
			terms = append(terms, fmt.Sprintf("%q×%d%s", term, tf.Frequency(), locs))
		}
		slices.Sort(terms)
		out = append(out, fmt.Sprintf("%s %v %v %d %v", f.Name(), f.ArrayPositions(), f.Options(), f.AnalyzedLength(), terms))
	}
	slices.SortFunc(out, cmp.Compare)
	return out
}
