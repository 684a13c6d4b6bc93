package export

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"time"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/errdocs/errdocs/generator/index"
)

// writeFilters is the phase filters: per field, the sorted values with
// their doc counts and where their doc lists are; doc lists packed into
// filter files. An incremental export keeps them when no changed record's
// filter values changed (FORMAT: the files depend on the values' doc lists
// alone, and the doc numbers are as before).
func (x *exportRun) writeFilters() error {
	fstart := time.Now()
	var filters *filterOut
	if x.inc != nil && x.ex.filtersSame(x.inc, x.ids) {
		filters = x.inc.prev.Filters
		for _, rel := range filters.Files {
			if err := x.w.keep(rel, x.opts.Keep); err != nil {
				return err
			}
		}
		x.st.FiltersKept = true
	} else {
		var err error
		if filters, err = exportFilters(x.r, x.w, x.docNum, len(x.docs), x.opts.FilterFileBytes); err != nil {
			return err
		}
	}
	maps.Copy(x.names, filters.Names)
	x.filterIndex = filters.Index
	x.next.Filters = filters
	x.st.FilterTime = time.Since(fstart)
	return nil
}

// filterOut is what the filter files of an export are, kept in the
// export state so that the next export can keep them.
type filterOut struct {
	Index map[string]string // filter field → key of its value list
	Names map[string]string // value list key → hash, for the manifest
	Files []string          // every file written (site paths)
	// sums: per doc number, FilterSum of its values, 8 bytes little-endian
	// each; in a section of the state file of its own (statefile.go),
	// where a kept export reads the changed records' alone
	sums []byte
}

// sum is doc's FilterSum.
func (f *filterOut) sum(doc int) uint64 {
	return binary.LittleEndian.Uint64(f.sums[8*doc:])
}

// filtersSame reports whether the filter files of the previous export
// hold for this one: every changed record has the filter values it had,
// and the files are in the published site.
func (ex *Exporter) filtersSame(inc *incremental, ids []string) bool {
	f := inc.prev.Filters
	if f == nil || len(f.sums) != 8*len(ids) || ex.ch.FilterSums == nil {
		return false
	}
	for _, d := range inc.changed {
		sum, ok := ex.ch.FilterSums[ids[d]]
		if !ok || sum != f.sum(int(d)) {
			return false
		}
	}
	for _, rel := range f.Files {
		if !inc.opts.Has(rel) {
			return false
		}
	}
	return true
}

func exportFilters(r bindex.IndexReader, w *exportWriter, docNum *docNumbers, nDocs, target int) (*filterOut, error) {
	out := &filterOut{Names: map[string]string{}, Index: map[string]string{}}
	ff := &filterFiles{w: w, out: out, target: target, sums: make([]uint64, nDocs)}
	var lists []valueList
	for _, name := range index.FilterFields {
		l, err := ff.field(r, docNum, name, nDocs)
		if err != nil {
			return nil, err
		}
		lists = append(lists, l)
		out.Index[name] = l.name
	}
	if err := ff.flush(); err != nil {
		return nil, err
	}
	out.sums = make([]byte, 0, 8*nDocs)
	for _, sum := range ff.sums {
		out.sums = binary.LittleEndian.AppendUint64(out.sums, sum)
	}
	// Value lists are written once every filter file has its hashed name.
	for _, l := range lists {
		if err := ff.writeValueList(l); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// valueList is one filter field's values: each [value, count, file,
// offset, length, kind]; kind 0 is a gap list, kind 1 a bitmap (smaller
// for common values). files: the filter files its doc lists are in.
type valueList struct {
	name    string
	entries [][]interface{}
	files   map[int]bool
}

// filterFiles writes the doc lists of every filter value into f/NNNN
// files with content-defined boundaries, as for postings files.
type filterFiles struct {
	w      *exportWriter
	out    *filterOut
	target int
	sums   []uint64 // per doc number: FilterSum of its values
	file   cvWriter
	fileNo int
	cut    bool
	hashes []string
}

// field writes the doc lists of the values of filter field name.
func (ff *filterFiles) field(r bindex.IndexReader, docNum *docNumbers, name string, nDocs int) (valueList, error) {
	field := index.FilterFieldPrefix + name
	l := valueList{name: "f/" + name, files: map[int]bool{}}
	vals, err := dictTerms(r, field)
	if err != nil {
		return l, err
	}
	for _, v := range vals {
		list, err := filterDocs(r, field, v, docNum)
		if err != nil {
			return l, err
		}
		if len(list) == 0 {
			continue
		}
		sum := index.FilterSum(name, v)
		for _, d := range list {
			if int(d) < len(ff.sums) {
				ff.sums[d] += sum
			}
		}
		s, kind := encodeDocList(list, nDocs)
		if ff.file.len() > 0 && (ff.cut || ff.file.len()+len(s) > 2*ff.target) {
			if err := ff.flush(); err != nil {
				return l, err
			}
		}
		l.entries = append(l.entries, []interface{}{v, len(list), ff.fileNo, ff.file.len(), len(s), kind})
		l.files[ff.fileNo] = true
		ff.file.b = append(ff.file.b, s...)
		if !ff.cut {
			ff.cut = cdcCut(name+"\x00"+v, len(s), ff.file.len(), ff.target)
		}
	}
	return l, nil
}

// filterDocs returns the doc numbers of the records whose field holds v,
// in order.
func filterDocs(r bindex.IndexReader, field, v string, docNum *docNumbers) ([]uint32, error) {
	tfr, err := r.TermFieldReader(context.Background(), []byte(v), field, false, false, false)
	if err != nil {
		return nil, err
	}
	defer tfr.Close()
	var list []uint32
	var tfd bindex.TermFieldDoc
	for {
		d, err := tfr.Next(&tfd)
		if err != nil {
			return nil, err
		}
		if d == nil {
			break
		}
		if n, ok := docNum.get(d.ID); ok {
			list = append(list, n)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
	return list, nil
}

// encodeDocList is a sorted doc list as a gap list (kind 0) or, when
// smaller, a bitmap (kind 1).
func encodeDocList(list []uint32, nDocs int) (string, int) {
	var enc cvWriter
	prev := uint32(0)
	for _, d := range list {
		enc.put(uint64(d - prev))
		prev = d
	}
	// A bitmap's length depends on nDocs alone: it is made only when it
	// is the smaller. Made for every value, a filter field of many rare
	// values (the repos, the tags) cost a bitmap of the whole index each.
	if bitmapLen(nDocs) < enc.len() {
		return bitmapChars(list, nDocs), 1
	}
	return enc.String(), 0
}

// flush writes the filter file being filled, if it holds anything.
func (ff *filterFiles) flush() error {
	ff.cut = false
	if ff.file.len() == 0 {
		return nil
	}
	key := fmt.Sprintf("f/%04d", ff.fileNo)
	h, err := ff.w.script("f", key, jsString(ff.file.String()))
	if err != nil {
		return err
	}
	ff.out.Files = append(ff.out.Files, ff.w.dir+"/"+key+"."+h+".js")
	ff.hashes = append(ff.hashes, h)
	ff.file = cvWriter{}
	ff.fileNo++
	return nil
}

// writeValueList writes f/<field>: its values and the hashed names of the
// filter files they point into.
func (ff *filterFiles) writeValueList(l valueList) error {
	fn := map[string]string{}
	for f := range l.files {
		fn[fmt.Sprintf("f/%04d", f)] = ff.hashes[f]
	}
	if l.entries == nil {
		l.entries = [][]interface{}{}
	}
	b, err := json.Marshal(struct {
		V [][]interface{}   `json:"v"`
		N map[string]string `json:"n"`
	}{l.entries, fn})
	if err != nil {
		return err
	}
	h, err := ff.w.script("f", l.name, string(b))
	if err != nil {
		return err
	}
	ff.out.Names[l.name] = h
	ff.out.Files = append(ff.out.Files, ff.w.dir+"/"+l.name+"."+h+".js")
	return nil
}
