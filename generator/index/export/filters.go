package export

import (
	"context"
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
	Sums  []uint64          // per doc number: FilterSum of its values
}

// filtersSame reports whether the filter files of the previous export
// hold for this one: every changed record has the filter values it had,
// and the files are in the published site.
func (ex *Exporter) filtersSame(inc *incremental, ids []string) bool {
	f := inc.prev.Filters
	if f == nil || len(f.Sums) != len(ids) || ex.ch.FilterSums == nil {
		return false
	}
	for _, d := range inc.changed {
		sum, ok := ex.ch.FilterSums[ids[d]]
		if !ok || sum != f.Sums[d] {
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
	out := &filterOut{Names: map[string]string{}, Sums: make([]uint64, nDocs)}
	names := out.Names
	byField := map[string]string{}
	var file cvWriter
	fileNo := 0
	cut := false
	var hashes []string
	flush := func() error {
		cut = false
		if file.len() == 0 {
			return nil
		}
		key := fmt.Sprintf("f/%04d", fileNo)
		h, err := w.script("f", key, jsString(file.String()))
		if err != nil {
			return err
		}
		out.Files = append(out.Files, w.dir+"/"+key+"."+h+".js")
		hashes = append(hashes, h)
		file = cvWriter{}
		fileNo++
		return nil
	}
	// Value lists are written once every filter file has its hashed name.
	type valueList struct {
		name    string
		entries [][]interface{}
		files   map[int]bool
	}
	var lists []valueList
	ctx := context.Background()
	for _, name := range index.FilterFields {
		field := index.FilterFieldPrefix + name
		vals, err := dictTerms(r, field)
		if err != nil {
			return nil, err
		}
		// Each value: [value, count, file, offset, length, kind]; kind 0
		// is a gap list, kind 1 a bitmap (smaller for common values).
		var entries [][]interface{}
		files := map[int]bool{}
		var tfd bindex.TermFieldDoc
		for _, v := range vals {
			tfr, err := r.TermFieldReader(ctx, []byte(v), field, false, false, false)
			if err != nil {
				return nil, err
			}
			var list []uint32
			for {
				d, err := tfr.Next(&tfd)
				if err != nil {
					tfr.Close()
					return nil, err
				}
				if d == nil {
					break
				}
				if n, ok := docNum.get(d.ID); ok {
					list = append(list, n)
				}
			}
			tfr.Close()
			if len(list) == 0 {
				continue
			}
			sum := index.FilterSum(name, v)
			for _, d := range list {
				if int(d) < len(out.Sums) {
					out.Sums[d] += sum
				}
			}
			sort.Slice(list, func(i, j int) bool { return list[i] < list[j] })
			var enc cvWriter
			prev := uint32(0)
			for _, d := range list {
				enc.put(uint64(d - prev))
				prev = d
			}
			s, kind := enc.String(), 0
			if bm := bitmapChars(list, nDocs); len(bm) < len(s) {
				s, kind = bm, 1
			}
			// Content-defined file boundaries, as for postings files.
			if file.len() > 0 && (cut || file.len()+len(s) > 2*target) {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			entries = append(entries, []interface{}{v, len(list), fileNo, file.len(), len(s), kind})
			files[fileNo] = true
			file.b = append(file.b, s...)
			if !cut {
				cut = cdcCut(name+"\x00"+v, len(s), file.len(), target)
			}
		}
		lists = append(lists, valueList{"f/" + name, entries, files})
		byField[name] = "f/" + name
	}
	if err := flush(); err != nil {
		return nil, err
	}
	for _, l := range lists {
		fn := map[string]string{}
		for f := range l.files {
			fn[fmt.Sprintf("f/%04d", f)] = hashes[f]
		}
		if l.entries == nil {
			l.entries = [][]interface{}{}
		}
		b, err := json.Marshal(struct {
			V [][]interface{}   `json:"v"`
			N map[string]string `json:"n"`
		}{l.entries, fn})
		if err != nil {
			return nil, err
		}
		h, err := w.script("f", l.name, string(b))
		if err != nil {
			return nil, err
		}
		names[l.name] = h
		out.Files = append(out.Files, w.dir+"/"+l.name+"."+h+".js")
	}
	out.Index = byField
	return out, nil
}
