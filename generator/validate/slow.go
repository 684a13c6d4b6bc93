package validate

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/errdocs/errdocs/generator/record"
)

// slow decodes a record member by member so that it can name every problem:
// each field's type, unknown and repeated fields, missing fields, invalid
// UTF-8, and then the value rules for the fields that decoded.
func slow(raw []byte) (record.Record, []Problem) {
	var (
		v    values
		ps   problems
		seen uint64
	)
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	tok, err := dec.ReadToken()
	if err != nil {
		ps.add(keyRecord, "record", "invalid JSON: "+jsonErr(err))
		return v.rec, ps.sorted()
	}
	if k := tok.Kind(); k != '{' {
		ps.add(keyRecord, "record", "must be a JSON object, not "+KindName(byte(k)))
		return v.rec, ps.sorted()
	}
	unknown := 0
	for dec.PeekKind() != '}' {
		nameTok, err := dec.ReadToken()
		if err != nil {
			ps.add(keyRecord, "record", "invalid JSON: "+jsonErr(err))
			return v.rec, ps.sorted()
		}
		name := nameTok.String() // before the next read, which voids the token
		val, err := dec.ReadValue()
		if err != nil {
			ps.add(keyRecord, "record", "invalid JSON: "+jsonErr(err))
			return v.rec, ps.sorted()
		}
		f, known := fieldIndex[name]
		switch {
		case !known:
			ps.add(keyUnknown+unknown, printable(name), "unknown field")
			unknown++
			continue
		case seen&(1<<f) != 0:
			// JSON readers disagree on which of two values wins; the
			// record does not say what it means.
			ps.add(f, name, "appears more than once")
			v.skip |= 1 << f
			continue
		}
		seen |= 1 << f
		decodeField(&v, &ps, f, val)
	}
	if _, err := dec.ReadToken(); err != nil {
		ps.add(keyRecord, "record", "invalid JSON: "+jsonErr(err))
	}
	for f, spec := range fields {
		if seen&(1<<f) == 0 && (spec.kind == kString || spec.kind == kInt || spec.kind == kStrings) {
			ps.add(f, spec.name, "required field missing")
			v.skip |= 1 << f
		}
	}
	checkValues(&v, &ps)
	return v.rec, ps.sorted()
}

// decodeField checks one member's JSON type and stores its value. A field
// whose type is wrong is marked so the value rules leave it alone.
func decodeField(v *values, ps *problems, f int, val jsontext.Value) {
	spec := fields[f]
	k := val.Kind()
	bad := func(want string) {
		ps.add(f, spec.name, "must be "+want+", not "+KindName(byte(k)))
		v.skip |= 1 << f
	}
	switch spec.kind {
	case kString, kOptString:
		if k == 'n' && spec.kind == kOptString {
			return
		}
		if k != '"' {
			bad(map[kind]string{kString: "a string", kOptString: "a string or null"}[spec.kind])
			return
		}
		s, ok := unquote(val)
		if !ok {
			ps.add(f, spec.name, "must be valid UTF-8 (our rule: invalid bytes would be silently replaced)")
			v.skip |= 1 << f
		}
		*stringField(&v.rec, f) = s
		v.has |= 1 << f
	case kInt, kOptInt:
		if k == 'n' && spec.kind == kOptInt {
			return
		}
		want := map[kind]string{kInt: "an integer", kOptInt: "an integer or null"}[spec.kind]
		if k != '0' {
			bad(want)
			return
		}
		n, err := strconv.Atoi(string(val))
		if err != nil {
			ps.add(f, spec.name, "must be "+want+", not "+clip(string(val), 24))
			v.skip |= 1 << f
			return
		}
		*intField(&v.rec, f) = n
		v.has |= 1 << f
	case kStrings:
		if k != '[' {
			bad("an array of strings")
			return
		}
		list := []string{}
		dec := jsontext.NewDecoder(bytes.NewBuffer(val), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
		dec.ReadToken()
		for i := 0; dec.PeekKind() != ']'; i++ {
			e, err := dec.ReadValue()
			if err != nil {
				break // cannot happen: the value was read whole already
			}
			at := spec.name + "[" + strconv.Itoa(i) + "]"
			if e.Kind() != '"' {
				ps.add(f, at, "must be a string, not "+KindName(byte(e.Kind())))
				v.skip |= 1 << f
				continue
			}
			s, ok := unquote(e)
			if !ok {
				ps.add(f, at, "must be valid UTF-8 (our rule: invalid bytes would be silently replaced)")
				v.skip |= 1 << f
			}
			list = append(list, s)
		}
		*listField(&v.rec, f) = list
		v.has |= 1 << f
	}
}

// unquote decodes a JSON string; ok is false when it held invalid UTF-8
// (raw bytes or a lone surrogate escape), which comes back replaced.
func unquote(val jsontext.Value) (string, bool) {
	b, err := jsontext.AppendUnquote(nil, val)
	return string(b), err == nil
}

func jsonErr(err error) string {
	return strings.TrimPrefix(err.Error(), "jsontext: ")
}

// printable makes an untrusted member name safe to print on one line of a
// terminal: names of plain characters stay as they are, others are quoted
// with escapes, and long ones are cut.
func printable(s string) string {
	plain := utf8.ValidString(s) && s != ""
	for _, r := range s {
		// IsPrint excludes control and format characters (bidi overrides
		// among them); the others would make the line ambiguous.
		if !unicode.IsPrint(r) || r == ' ' || r == ':' || r == '"' || r == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return clip(s, 64)
	}
	return clip(strconv.QuoteToASCII(s), 64)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// stringField, intField and listField point at the record's field f. A
// switch keeps the slow path free of reflection; it runs only for records
// with problems, but those can be many in a bad dataset.
func stringField(r *record.Record, f int) *string {
	switch f {
	case fID:
		return &r.ID
	case fRepo:
		return &r.Repo
	case fSlug:
		return &r.Slug
	case fErrorCode:
		return &r.ErrorCode
	case fErrorMessage:
		return &r.ErrorMessage
	case fMessagePattern:
		return &r.MessagePattern
	case fErrorType:
		return &r.ErrorType
	case fErrorClass:
		return &r.ErrorClass
	case fSeverity:
		return &r.Severity
	case fFilePath:
		return &r.FilePath
	case fSourceCode:
		return &r.SourceCode
	case fGithubURL:
		return &r.GithubURL
	case fDocumentation:
		return &r.Documentation
	case fTriggerScenarios:
		return &r.TriggerScenarios
	case fCommonSituations:
		return &r.CommonSituations
	case fExampleFix:
		return &r.ExampleFix
	case fHandlingStrategy:
		return &r.HandlingStrategy
	case fValidationCode:
		return &r.ValidationCode
	case fTypeGuard:
		return &r.TypeGuard
	case fTryCatchPattern:
		return &r.TryCatchPattern
	case fBackgroundTag:
		return &r.BackgroundTag
	case fAnalyzedSha:
		return &r.AnalyzedSha
	case fAnalyzedAt:
		return &r.AnalyzedAt
	}
	return new(string) // not a string field: the table and this switch disagree
}

func intField(r *record.Record, f int) *int {
	switch f {
	case fHTTPStatus:
		return &r.HTTPStatus
	case fLineNumber:
		return &r.LineNumber
	case fSourceCodeStart:
		return &r.SourceCodeStart
	case fSourceCodeEnd:
		return &r.SourceCodeEnd
	case fSchemaVersion:
		return &r.SchemaVersion
	}
	return new(int)
}

func listField(r *record.Record, f int) *[]string {
	switch f {
	case fSolutions:
		return &r.Solutions
	case fPreventionTips:
		return &r.PreventionTips
	case fTags:
		return &r.Tags
	}
	return new([]string)
}
