package model

import (
	"encoding/binary"
	"errors"
	"slices"
)

// The groups (repos, tags and families with their records, the severity
// counts) depend on few fields of the summaries, which a rebuild that
// edits records seldom changes: a build keeps them (Builder.Groups) in a
// binary form of their own under a key of those fields, and takes them
// from there rather than making them from half a million summaries again.

// groupsVersion is the version of the groups' binary form and of what
// GroupsKey hashes.
const groupsVersion = 1

// GroupsKey hashes what the groups are made from: each record's repo,
// slug, family, tags, language and severity, in site order.
func (s *Model) GroupsKey() [16]byte {
	head := []uint64{groupsVersion, uint64(len(s.Summaries))}
	return s.hashSummaries(head, func(sum *Summary, str func(string)) {
		str(sum.Repo)
		str(sum.Slug)
		str(sum.Family)
		str(sum.Language)
		str(sum.Severity)
	})
}

// appendGroups appends the groups' binary form, with each repo's most
// common language (languages, one per repo), to b.
func (s *Model) appendGroups(b []byte, languages []string) []byte {
	str := func(v string) {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	records := func(ids []int32) {
		b = binary.AppendUvarint(b, uint64(len(ids)))
		for _, i := range ids {
			b = binary.LittleEndian.AppendUint32(b, uint32(i))
		}
	}
	total := 0
	for _, r := range s.Repos {
		total += len(r.Records)
	}
	for _, g := range append(slices.Clone(s.Tags), s.Families...) {
		total += len(g.Records)
	}
	b = binary.AppendUvarint(b, uint64(len(s.Summaries)))
	b = binary.AppendUvarint(b, uint64(total))
	sevs := make([]string, 0, len(s.severities))
	for sev := range s.severities {
		sevs = append(sevs, sev)
	}
	slices.Sort(sevs)
	b = binary.AppendUvarint(b, uint64(len(sevs)))
	for _, sev := range sevs {
		str(sev)
		b = binary.AppendUvarint(b, uint64(s.severities[sev]))
	}
	b = binary.AppendUvarint(b, uint64(len(s.Repos)))
	for k, r := range s.Repos {
		str(r.Name)
		str(languages[k])
		records(r.Records)
	}
	for _, gs := range [][]*Group{s.Tags, s.Families} {
		b = binary.AppendUvarint(b, uint64(len(gs)))
		for _, g := range gs {
			str(g.Name)
			b = binary.AppendUvarint(b, uint64(g.Repos))
			records(g.Records)
		}
	}
	return b
}

var errBadGroups = errors.New("model: bad groups")

// groupReader reads the groups' binary form; its first error sticks.
type groupReader struct {
	b   []byte
	err error
}

func (r *groupReader) num(max int) int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(max) {
		r.err, r.b = errBadGroups, nil
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *groupReader) str() string {
	n := r.num(len(r.b))
	v := string(r.b[:n])
	r.b = r.b[n:]
	return v
}

// records reads a list of records, each below n, into all (cut at its
// length: a list appended to is copied, not written over the next).
func (r *groupReader) records(all *[]int32, n int) []int32 {
	m := r.num(len(r.b) / 4)
	if m > cap(*all)-len(*all) || 4*m > len(r.b) {
		r.err, r.b = errBadGroups, nil
		return nil
	}
	start := len(*all)
	for k := range m {
		i := binary.LittleEndian.Uint32(r.b[4*k:])
		if i >= uint32(n) {
			r.err, r.b = errBadGroups, nil
			return nil
		}
		*all = append(*all, int32(i))
	}
	r.b = r.b[4*m:]
	return (*all)[start:len(*all):len(*all)]
}

// decodeGroups sets the groups and the severity counts from their binary
// form, made for these summaries, and returns each repo's most common
// language.
func (s *Model) decodeGroups(b []byte) (languages []string, err error) {
	r := &groupReader{b: b}
	n := len(s.Summaries)
	if r.num(n) != n || r.err != nil {
		return nil, errBadGroups
	}
	all := make([]int32, 0, r.num(len(b)/4))
	for m := r.num(len(r.b)); m > 0 && r.err == nil; m-- {
		sev := r.str()
		s.severities[sev] = r.num(n)
	}
	nRepos := r.num(len(r.b))
	s.Repos = make([]*Repo, 0, nRepos)
	languages = make([]string, 0, nRepos)
	for ; nRepos > 0 && r.err == nil; nRepos-- {
		rp := &Repo{Name: r.str()}
		languages = append(languages, r.str())
		rp.Records = r.records(&all, n)
		s.Repos = append(s.Repos, rp)
		s.repoByName[rp.Name] = rp
	}
	for _, kind := range []struct {
		gs     *[]*Group
		byName map[string]*Group
	}{{&s.Tags, s.tagByName}, {&s.Families, s.familyByName}} {
		m := r.num(len(r.b))
		*kind.gs = make([]*Group, 0, m)
		for ; m > 0 && r.err == nil; m-- {
			g := &Group{Name: r.str(), Repos: r.num(n)}
			g.Records = r.records(&all, n)
			*kind.gs = append(*kind.gs, g)
			kind.byName[g.Name] = g
		}
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errBadGroups
	}
	return languages, nil
}
