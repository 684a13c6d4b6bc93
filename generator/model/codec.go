package model

import (
	"encoding/binary"
	"errors"
)

// A summary's binary form lets a build keep summaries between runs (its
// cache of records already read) without reading and validating the
// records again. The form holds every field, the unexported ones too, so a
// decoded summary is the one encoded.

// AppendBinary appends the summary's binary form to b.
func (s *Summary) AppendBinary(b []byte) []byte {
	for _, v := range [...]string{s.ID, s.Repo, s.Slug, s.Message, s.Severity, s.ErrorType,
		s.ErrorClass, s.ErrorCode, s.Family, s.Language, s.AnalyzedAt, s.groupKey} {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	b = binary.AppendUvarint(b, uint64(s.DocLen))
	b = binary.AppendUvarint(b, uint64(s.Solutions))
	b = binary.AppendUvarint(b, uint64(len(s.Tags)))
	for _, t := range s.Tags {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	return b
}

// SummaryDecoder decodes summaries from their binary form. It shares the
// strings that recur (repos, severities, families, tags, languages)
// between the summaries it decodes.
type SummaryDecoder struct {
	strs map[string]string
}

var errShort = errors.New("summary: truncated")

// Decode decodes the summary at the start of b and returns the rest of b.
func (d *SummaryDecoder) Decode(b []byte) (Summary, []byte, error) {
	var s Summary
	var err error
	str := func(shared bool) string {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			err = errShort
			return ""
		}
		v := b[k : k+int(n)]
		b = b[k+int(n):]
		if !shared || len(v) == 0 {
			return string(v)
		}
		if d.strs == nil {
			d.strs = map[string]string{}
		}
		if s, ok := d.strs[string(v)]; ok {
			return s
		}
		sv := string(v)
		d.strs[sv] = sv
		return sv
	}
	num := func() int {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > 1<<40 {
			err = errShort
			return 0
		}
		b = b[k:]
		return int(n)
	}
	s.ID = str(false)
	s.Repo = str(true)
	s.Slug = str(false)
	s.Message = str(false)
	s.Severity = str(true)
	s.ErrorType = str(true)
	s.ErrorClass = str(true)
	s.ErrorCode = str(false)
	s.Family = str(true)
	s.Language = str(true)
	s.AnalyzedAt = str(false)
	s.groupKey = str(false)
	s.DocLen = num()
	s.Solutions = num()
	if n := num(); n > 0 && err == nil {
		if n > len(b) {
			return Summary{}, nil, errShort
		}
		s.Tags = make([]string, n)
		for i := range s.Tags {
			s.Tags[i] = str(true)
		}
	}
	if err != nil {
		return Summary{}, nil, err
	}
	return s, b, nil
}
