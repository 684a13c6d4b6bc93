package validate

import (
	"bytes"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// wrapperRule says what a record wrapper may hold, for its problems.
const wrapperRule = `a wrapper holds only "record" and "datasetVersion"`

// wrapped recognises a record wrapper that the reader could not unwrap
// because something in it is wrong ({"record": {...}, "source": "x"}): an
// object with a "record" member that is an object and no member that is a
// record field. It returns the record inside and the wrapper's own
// problems, one per wrong member, so that a wrapper with one stray key is
// one problem, not every record field "required field missing".
func wrapped(raw []byte) (inner []byte, ps []Problem, ok bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, nil, false
	}
	records, versions := 0, 0
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, nil, false
		}
		name := tok.String() // before the next read, which voids the token
		if _, field := fieldIndex[name]; field {
			return nil, nil, false // a bare record, reported field by field
		}
		v, err := dec.ReadValue()
		if err != nil {
			return nil, nil, false
		}
		switch name {
		case "record":
			if records++; records == 1 {
				if v.Kind() != '{' {
					return nil, nil, false
				}
				end := int(dec.InputOffset())
				inner = raw[end-len(v) : end : end]
			}
		case "datasetVersion":
			versions++
			if k := v.Kind(); k != '"' && k != 'n' && versions == 1 {
				ps = append(ps, Problem{"wrapper", "datasetVersion must be a string or null, not " + KindName(byte(k))})
			}
		default:
			ps = append(ps, Problem{"wrapper", "unknown key " + quoted(name) + "; " + wrapperRule})
		}
	}
	if records > 1 {
		ps = append(ps, Problem{"wrapper", `"record" appears more than once`})
	}
	if versions > 1 {
		ps = append(ps, Problem{"wrapper", `"datasetVersion" appears more than once`})
	}
	return inner, ps, inner != nil && len(ps) > 0
}

// quoted is a member name as a problem shows it: in quotes, escaped and
// cut where it has to be (see printable).
func quoted(name string) string {
	p := printable(name)
	if !strings.HasPrefix(p, `"`) {
		p = `"` + p + `"`
	}
	return p
}
