package index

import (
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
)

// A record's bleve document is made here from BuildDoc's map, field by
// field as the index mapping makes it (mapping.MapDocument): the same
// names, array positions, options and analyzers, read from the mapping
// itself. Made by the mapping, each document also cost a walk over the
// map by reflection and a reckoning of its size, which a batch counted by
// operations does not use; a cold build makes one document a record.

// docMaker makes the bleve documents of one index mapping.
type docMaker struct {
	names  []string // the mapped fields, in the order documents get them
	fields map[string]fieldMaker
}

// fieldMaker is how the mapping indexes one field.
type fieldMaker struct {
	analyzer analysis.Analyzer
	options  bindex.FieldIndexingOptions
}

// newDocMaker reads the fields of m's default mapping, which must map
// each of them as text, once.
func newDocMaker(m mapping.IndexMapping) (*docMaker, error) {
	im, ok := m.(*mapping.IndexMappingImpl)
	if !ok || im.DefaultMapping == nil {
		return nil, fmt.Errorf("index: a mapping of type %T has no default document mapping", m)
	}
	dm := &docMaker{fields: map[string]fieldMaker{}}
	for name, sub := range im.DefaultMapping.Properties {
		if !sub.Enabled {
			continue // "_all", which no field goes into
		}
		if len(sub.Fields) != 1 || sub.Fields[0].Type != "text" || sub.Fields[0].Name != "" {
			return nil, fmt.Errorf("index: field %s is not mapped as one text field", name)
		}
		fm := sub.Fields[0]
		a := im.AnalyzerNamed(fm.Analyzer)
		if a == nil {
			return nil, fmt.Errorf("index: field %s: no analyzer %q", name, fm.Analyzer)
		}
		dm.fields[name] = fieldMaker{a, fm.Options()}
		dm.names = append(dm.names, name)
	}
	slices.Sort(dm.names)
	return dm, nil
}

// document returns the document of id whose fields doc holds (BuildDoc's
// map): a string is one field, a list one field per string, each with
// its place in the list, as the mapping would; a key the mapping does not
// map is left out, as the mapping (static) leaves it.
func (dm *docMaker) document(id string, doc map[string]interface{}) (*document.Document, error) {
	d := document.NewDocument(id)
	for _, name := range dm.names {
		v, ok := doc[name]
		if !ok {
			continue
		}
		fm := dm.fields[name]
		switch v := v.(type) {
		case string:
			d.AddField(document.NewTextFieldCustom(name, []uint64{}, []byte(v), fm.options, fm.analyzer))
		case []interface{}:
			for i, x := range v {
				s, ok := x.(string)
				if !ok {
					return nil, fmt.Errorf("index: record %s: field %s holds a %T", id, name, x)
				}
				d.AddField(document.NewTextFieldCustom(name, []uint64{uint64(i)}, []byte(s), fm.options, fm.analyzer))
			}
		default:
			return nil, fmt.Errorf("index: record %s: field %s holds a %T", id, name, v)
		}
	}
	d.SetIndexed()
	return d, nil
}
