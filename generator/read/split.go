package read

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/errdocs/errdocs/generator/record"
)

// The reader only splits files into values; judging the values is the
// validator's job. So invalid UTF-8 and duplicate member names are let
// through here, to be reported against the record that holds them rather
// than failing the whole file.
var lenient = []jsontext.Options{jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)}

// layout is how a file holds its records.
type layout int

const (
	layoutValues layout = iota // one object, or several concatenated
	layoutArray                // a JSON array of records
	layoutLines                // JSON Lines: one record per line
)

// splitRecords cuts a file's (decompressed) content into records. It returns
// the records in file order and the file's problems. A syntax fault in a JSON
// array or object file voids the whole file, since what follows the fault
// cannot be trusted; in JSON Lines it voids only its line.
func splitRecords(file string, data []byte, lines bool) ([]Item, []error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM is common in files saved on Windows
	first := firstByte(data)
	switch {
	case first < 0:
		return nil, []error{wholeFile(file, errors.New("empty file: no JSON value"))}
	case lines:
		return splitLines(file, data)
	case first == '[':
		return splitArray(file, data)
	case first == '{':
		items, err, lineShaped := splitValues(file, data)
		if err == nil {
			return items, nil
		}
		if lineShaped {
			// Each value so far sat on a line of its own: this is JSON
			// Lines under a .json name, so let one bad line void only itself.
			return splitLines(file, data)
		}
		return nil, []error{err}
	default:
		// Not a record container; say where the problem is, as for any
		// other invalid input, but in words that fit.
		off := int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n")))
		return nil, []error{positioned(file, data, off, fmt.Errorf("not a record, an array of records or JSON Lines (starts with %s)", describeByte(byte(first))))}
	}
}

func firstByte(data []byte) int {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 {
		return -1
	}
	return int(t[0])
}

func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// splitArray reads a JSON array of records.
func splitArray(file string, data []byte) ([]Item, []error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), lenient...)
	if _, err := dec.ReadToken(); err != nil {
		return nil, []error{syntaxError(file, data, err)}
	}
	var items []Item
	for dec.PeekKind() != ']' {
		v, err := dec.ReadValue()
		if err != nil {
			return nil, []error{syntaxError(file, data, err)}
		}
		end := int(dec.InputOffset())
		items = append(items, makeItem(file, len(items), 0, data[end-len(v):end:end]))
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, []error{syntaxError(file, data, err)}
	}
	if err := expectEOF(dec); err != nil {
		return nil, []error{syntaxError(file, data, err)}
	}
	return items, nil
}

// splitValues reads one top-level object or several in a row. lineShaped
// reports, on failure, whether every value read so far began on a new line
// and fit on it, which marks the file as JSON Lines in disguise.
func splitValues(file string, data []byte) (items []Item, err error, lineShaped bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), lenient...)
	lineShaped = true
	line, prev := 1, 0 // line of offset prev, kept incrementally so a big file costs one pass
	for {
		v, err := dec.ReadValue()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, syntaxError(file, data, err), lineShaped && len(items) > 0
		}
		end := int(dec.InputOffset())
		start := end - len(v)
		line += bytes.Count(data[prev:start], nl)
		if bytes.IndexByte(v, '\n') >= 0 || (len(items) > 0 && bytes.IndexByte(data[prev:start], '\n') < 0) {
			lineShaped = false
		}
		items = append(items, makeItem(file, len(items), line, data[start:end:end]))
		line += bytes.Count(v, nl)
		prev = end
	}
	if len(items) == 1 {
		// A lone object is a plain record file, not a stream: no line.
		items[0].Source.Line = 0
	}
	return items, nil, false
}

var nl = []byte{'\n'}

// splitLines reads JSON Lines. Blank lines are skipped; every other line is
// one record and takes the next index, even when it is invalid, so that an
// index names the same line however many lines around it are broken.
func splitLines(file string, data []byte) ([]Item, []error) {
	var (
		items []Item
		errs  []error
		dec   jsontext.Decoder
		index int
	)
	for lineNo, rest := 1, data; len(rest) > 0; lineNo++ {
		var raw []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			raw, rest = rest[:i], rest[i+1:]
		} else {
			raw, rest = rest, nil
		}
		trimmed := bytes.TrimRight(raw, " \t\r")
		lead := len(trimmed) - len(bytes.TrimLeft(trimmed, " \t"))
		trimmed = trimmed[lead:]
		if len(trimmed) == 0 {
			continue
		}
		idx := index
		index++
		dec.Reset(bytes.NewBuffer(trimmed), lenient...)
		v, err := dec.ReadValue()
		end := int(dec.InputOffset())
		if err == nil {
			err = expectEOF(&dec)
		}
		if err != nil {
			e := syntaxError(file, trimmed, err)
			// Positions are within the line; put them in the file.
			e.Line = lineNo
			e.Column += lead
			e.Offset += int64(lineOffset(data, raw) + lead)
			e.Index = idx
			errs = append(errs, e)
			continue
		}
		items = append(items, makeItem(file, idx, lineNo, trimmed[end-len(v):end:end]))
	}
	return items, errs
}

// lineOffset is the offset of sub within data; sub must be a subslice of
// data, which makes the difference of capacities its start.
func lineOffset(data, sub []byte) int { return cap(data) - cap(sub) }

// expectEOF fails when anything but white space follows the value just read.
func expectEOF(dec *jsontext.Decoder) error {
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			return &jsontext.SyntacticError{ByteOffset: dec.InputOffset(), Err: errors.New("unexpected content after the end of the JSON value")}
		}
		return err
	}
	return nil
}

// syntaxError turns a decoding error into a FileError placed at its line and
// column in data.
func syntaxError(file string, data []byte, err error) *FileError {
	var se *jsontext.SyntacticError
	off := int64(-1)
	msg := err
	if errors.As(err, &se) {
		off = se.ByteOffset
		if se.Err != nil {
			msg = se.Err
		}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		off = int64(len(data))
		msg = errors.New("unexpected end of input")
	}
	text := msg.Error()
	text = strings.TrimPrefix(text, "jsontext: ")
	return positioned(file, data, off, fmt.Errorf("invalid JSON: %s", text))
}

// positioned builds a FileError at byte offset off of data (-1: unknown).
func positioned(file string, data []byte, off int64, err error) *FileError {
	e := &FileError{File: file, Offset: off, Index: -1, Err: err}
	if off >= 0 && off <= int64(len(data)) {
		before := data[:off]
		e.Line = 1 + bytes.Count(before, nl)
		e.Column = int(off) - bytes.LastIndexByte(before, '\n')
	}
	return e
}

// makeItem builds the item for one top-level value, unwrapping the
// {"record": ..., "datasetVersion": ...} wrapper when the value is one.
func makeItem(file string, index, line int, raw []byte) Item {
	it := Item{Source: record.Source{File: file, Index: index, Line: line}, Raw: json.RawMessage(raw)}
	if rec, version, ok := unwrap(raw); ok {
		it.Raw, it.DatasetVersion = rec, version
	}
	return it
}

// unwrap recognises a wrapped record: an object whose members are "record"
// (an object) and optionally "datasetVersion" (a string or null). Anything
// else is taken as a bare record, so that a record that merely has a stray
// "record" field is reported by the validator instead of vanishing.
//
// Bare records are the common case in a big export, so the cheap test on
// the first member name comes first and only wrapper-looking values pay for
// a second parse.
func unwrap(raw []byte) (rec []byte, version string, ok bool) {
	t := bytes.TrimLeft(raw, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return nil, "", false
	}
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	if !bytes.HasPrefix(t, []byte(`"record"`)) && !bytes.HasPrefix(t, []byte(`"datasetVersion"`)) {
		return nil, "", false
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), lenient...)
	if _, err := dec.ReadToken(); err != nil {
		return nil, "", false
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, "", false
		}
		name := tok.String() // before the next read, which voids the token
		v, err := dec.ReadValue()
		if err != nil {
			return nil, "", false
		}
		end := int(dec.InputOffset())
		switch name {
		case "record":
			if rec != nil || v.Kind() != '{' {
				return nil, "", false
			}
			rec = raw[end-len(v) : end : end]
		case "datasetVersion":
			switch v.Kind() {
			case '"':
				s, err := jsontext.AppendUnquote(nil, v)
				if err != nil {
					return nil, "", false
				}
				version = string(s)
			case 'n':
			default:
				return nil, "", false
			}
		default:
			return nil, "", false
		}
	}
	return rec, version, rec != nil
}
