package model

import (
	"encoding/binary"
	"errors"
	"unsafe"
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
	return append(b, s.listSum[:]...)
}

// SummaryDecoder decodes summaries from their binary form. It shares the
// strings that recur (repos, severities, families, tags, languages)
// between the summaries it decodes.
type SummaryDecoder struct {
	strs map[string]string
	// last is each shared field's last value: the summaries of one file
	// share their repo and mostly their severity, family and language,
	// so most values are the last one, found without the map.
	last [len(sharedField)]string
	// The summaries' own strings and tag lists are cut from blocks, not
	// made one by one: half a million summaries took three small
	// allocations each, and fresh memory and the collector's work on it
	// were a large part of decoding them. Ids have blocks of their own
	// (tables keyed by id outlive the summaries, and must not keep their
	// messages). A block's bytes are never written again once a string is
	// cut from them.
	ids, own []byte
	tags     []string
}

// blockSize is the size of a block of strings or of tags.
const blockSize = 32 << 10

// cut returns v as a string copied into the block *blk, a new block when
// it has no room.
func cut[T ~string | ~[]byte](blk *[]byte, v T) string {
	if len(v) == 0 {
		return ""
	}
	if cap(*blk)-len(*blk) < len(v) {
		*blk = make([]byte, 0, max(blockSize, len(v)))
	}
	start := len(*blk)
	*blk = append(*blk, v...)
	return unsafe.String(&(*blk)[start], len(v))
}

// tagList returns a list of n tags cut from the decoder's block of tags,
// its capacity its length: an append to it copies, never writes into the
// next summary's.
func (d *SummaryDecoder) tagList(n int) []string {
	if cap(d.tags)-len(d.tags) < n {
		d.tags = make([]string, 0, max(blockSize/16, n))
	}
	start := len(d.tags)
	d.tags = d.tags[:start+n]
	return d.tags[start : start+n : start+n]
}

// Compact returns s with its own strings (id, slug, message, time, group
// key) and its tag list copied into the decoder's blocks, as Decode holds
// a summary's. A summary made from a record read (Summarize) holds the
// strings its record was decoded into, a few small allocations each:
// every record's summary stays live through a cold build, and the
// collector marked each of those objects on every cycle. Its shared
// values are interned already, and stay as they are.
func (d *SummaryDecoder) Compact(s Summary) Summary {
	s.ID = cut(&d.ids, s.ID)
	for _, f := range [...]*string{&s.Slug, &s.Message, &s.AnalyzedAt, &s.groupKey} {
		*f = cut(&d.own, *f)
	}
	if len(s.Tags) > 0 {
		tags := d.tagList(len(s.Tags))
		copy(tags, s.Tags)
		s.Tags = tags
	}
	return s
}

var errShort = errors.New("summary: truncated")

// sharedField says which of the binary form's strings recur between
// summaries (repo, severity, type, class, family, language): those are
// shared. Of the others, the id is a string of its own (tables keyed by
// id outlive the summaries), and slug, message, code, time and group key
// are cut from one string per summary: two allocations instead of six.
var sharedField = [12]bool{1: true, 4: true, 5: true, 6: true, 8: true, 9: true}

// messageField is the message's place among the binary form's strings.
const messageField = 3

// Decode decodes the summary at the start of b and returns the rest of b.
// The summary's strings are copies: b may be used again.
func (d *SummaryDecoder) Decode(b []byte) (Summary, []byte, error) {
	return d.decode(b, false)
}

// DecodeInPlace is Decode for b whose bytes are never written again and
// stay as long as the summary (a mapped cache file kept mapped): the
// summary's message is b's bytes, not a copy. A rebuild decodes every
// record's summary from its cache, and the fresh memory for their
// messages cost more than the decoding. The other strings are copied
// all the same: the model sorts, groups and hashes every summary's id,
// slug, time and group key, and those stay close together in the
// decoder's blocks; a rebuild reads few messages, those of the pages it
// renders.
func (d *SummaryDecoder) DecodeInPlace(b []byte) (Summary, []byte, error) {
	return d.decode(b, true)
}

func (d *SummaryDecoder) decode(b []byte, inPlace bool) (Summary, []byte, error) {
	var s Summary
	var err error
	next := func() []byte {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			err = errShort
			return nil
		}
		v := b[k : k+int(n)]
		b = b[k+int(n):]
		return v
	}
	shared := func(v []byte) string {
		if len(v) == 0 {
			return ""
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
	var raw [12][]byte
	for i := range raw {
		raw[i] = next()
	}
	var message []byte
	if inPlace {
		message, raw[messageField] = raw[messageField], nil
	}
	f := d.strings(&raw, shared)
	if len(message) > 0 {
		f[messageField] = unsafe.String(&message[0], len(message))
	}
	s.ID, s.Repo, s.Slug, s.Message, s.Severity, s.ErrorType = f[0], f[1], f[2], f[3], f[4], f[5]
	s.ErrorClass, s.ErrorCode, s.Family, s.Language, s.AnalyzedAt, s.groupKey = f[6], f[7], f[8], f[9], f[10], f[11]
	s.DocLen = num()
	s.Solutions = num()
	if n := num(); n > 0 && err == nil {
		if n > len(b) {
			return Summary{}, nil, errShort
		}
		s.Tags = d.tagList(n)
		for i := range s.Tags {
			s.Tags[i] = shared(next())
		}
	}
	if err == nil && len(b) < len(s.listSum) {
		err = errShort
	}
	if err != nil {
		return Summary{}, nil, err
	}
	copy(s.listSum[:], b)
	return s, b[len(s.listSum):], nil
}

// strings are a summary's strings made from their bytes (raw): the id
// copied into a block of ids (compact, for the tables sorted and hashed
// by id), the shared fields through shared (a value shared is one
// string, compared at its address when the model sorts and groups by
// it), and the others copied into a block of the decoder's.
func (d *SummaryDecoder) strings(raw *[12][]byte, shared func([]byte) string) [12]string {
	// The copied strings, one after the other in the block, are one
	// string cut into pieces.
	n := 0
	for i, v := range raw[1:] {
		if !sharedField[i+1] {
			n += len(v)
		}
	}
	if cap(d.own)-len(d.own) < n {
		d.own = make([]byte, 0, max(blockSize, n))
	}
	start := len(d.own)
	for i, v := range raw[1:] {
		if !sharedField[i+1] {
			d.own = append(d.own, v...)
		}
	}
	own := ""
	if n > 0 {
		own = unsafe.String(&d.own[start], n)
	}
	f := [12]string{0: cut(&d.ids, raw[0])}
	for i, v := range raw[1:] {
		if sharedField[i+1] {
			f[i+1] = d.sharedValue(i+1, v, shared)
		} else {
			f[i+1], own = own[:len(v)], own[len(v):]
		}
	}
	return f
}

// sharedValue is the value v of shared field i: the field's last value
// when it is that, else shared(v).
func (d *SummaryDecoder) sharedValue(i int, v []byte, shared func([]byte) string) string {
	if last := d.last[i]; last == string(v) {
		return last
	}
	d.last[i] = shared(v)
	return d.last[i]
}

// SummaryLen returns the length of the summary's binary form at the start
// of b, checking its structure as Decode does, without decoding it: a
// cache can so check a whole entry before it decodes its summaries one by
// one, straight to where they go. Decode fails on b[:n] exactly when
// SummaryLen does.
func SummaryLen(b []byte) (int, error) {
	rest := b
	uvarint := func(limit uint64) (uint64, bool) {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > limit {
			return 0, false
		}
		rest = rest[k:]
		return n, true
	}
	skip := func() bool {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return false
		}
		rest = rest[k+int(n):]
		return true
	}
	for range 12 {
		if !skip() {
			return 0, errShort
		}
	}
	for range 2 {
		if _, ok := uvarint(1 << 40); !ok {
			return 0, errShort
		}
	}
	tags, ok := uvarint(1 << 40)
	if !ok || tags > uint64(len(rest)) {
		return 0, errShort
	}
	for ; tags > 0; tags-- {
		if !skip() {
			return 0, errShort
		}
	}
	if len(rest) < len(Summary{}.listSum) {
		return 0, errShort
	}
	return len(b) - len(rest) + len(Summary{}.listSum), nil
}
