package export

import (
	"bytes"
	"maps"
	"slices"
	"testing"

	"github.com/errdocs/errdocs/generator/pattern"
)

// TestExportLeavesMappedPartsInTurn exports one index twice, without and
// with Options.Expect: the files are the same bytes, and the export
// announces bleve's files once the records are numbered, then the side
// store's once bleve is read, each by its size on disk.
func TestExportLeavesMappedPartsInTurn(t *testing.T) {
	f := buildFixture(t, 3000, 21, Options{Pattern: pattern.Compile})
	plain := memWriter{}
	if _, err := New(f.ix).Export(plain, Options{Pattern: pattern.Compile}); err != nil {
		t.Fatal(err)
	}
	var announced []int64
	told := memWriter{}
	opts := Options{Pattern: pattern.Compile, Expect: func(n int64) { announced = append(announced, n) }}
	if _, err := New(f.ix).Export(told, opts); err != nil {
		t.Fatal(err)
	}
	want := []int64{f.ix.BleveBytes(), f.ix.SideBytes()}
	if !slices.Equal(announced, want) || want[0] <= 0 || want[1] <= 0 {
		t.Errorf("the export announced %v, want bleve's then the side store's bytes, %v", announced, want)
	}
	if len(plain) == 0 || !maps.EqualFunc(plain, told, bytes.Equal) {
		t.Errorf("the export told what it reads wrote %d files, without %d, or other bytes", len(told), len(plain))
	}
}
