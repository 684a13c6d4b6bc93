package export

import (
	"crypto/sha256"
	"encoding/binary"
	"hash/maphash"
	"path/filepath"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// The numbering file keeps the doc numbering of the last export made
// the whole way (ids by doc number, and a sum of each record's sort key),
// so that the next export of an index whose records were only edited,
// none in its sort key, numbers them as before instead of sorting every
// record again (exportRun.numberAsBefore). Its body: the numbering key
// (numberingKey) it is the numbering of, uvarint(docs), each id
// (AppendString), then 8 bytes per doc: the sort key's sum.
const (
	numberingKind    = "export numbering"
	numberingVersion = 2
	numberingFile    = "export.numbering"
)

// sortKeySum is the sum of a sort key the numbering file keeps: the first
// 8 bytes of its SHA-256, so that a record cannot be given another sort
// key of the same sum on purpose.
func sortKeySum(sortKey string) uint64 {
	s := sha256.Sum256([]byte(sortKey))
	return binary.LittleEndian.Uint64(s[:8])
}

// savedNumbering is a numbering to save: its key, the doc numbers in
// the order of the internal ids, and the ids and sort key sums by doc
// number.
type savedNumbering struct {
	key   [32]byte
	order []uint32
	ids   []string
	sums  []uint64
}

// newSavedNumbering takes the numbering of docs (by doc number; nums
// maps their internal ids to it) to save.
func newSavedNumbering(key [32]byte, docs []docRef, nums *docNumbers) *savedNumbering {
	s := &savedNumbering{key: key, order: make([]uint32, 0, len(docs)), ids: make([]string, len(docs)), sums: make([]uint64, len(docs))}
	for i := range docs {
		s.ids[i], s.sums[i] = docs[i].id, sortKeySum(docs[i].sortKey)
	}
	for _, v := range nums.byNum {
		if v != 0 {
			s.order = append(s.order, v-1)
		}
	}
	for _, doc := range nums.other {
		s.order = append(s.order, doc)
	}
	return s
}

// numberingSaved reports whether the numbering file holds the numbering
// of key.
func numberingSaved(dir string, key [32]byte) bool {
	body, m, err := cachefile.MapFile(filepath.Join(dir, numberingFile), numberingKind, numberingVersion)
	if err != nil {
		return false
	}
	defer m.Close()
	return len(body) >= len(key) && [32]byte(body[:len(key)]) == key
}

// saveNumbering writes the numbering file.
func saveNumbering(dir string, s *savedNumbering) error {
	size := 64 + 8*len(s.ids)
	for _, id := range s.ids {
		size += len(id) + binary.MaxVarintLen32
	}
	b := cachefile.Begin(make([]byte, 0, size), numberingKind, numberingVersion)
	b = append(b, s.key[:]...)
	b = binary.AppendUvarint(b, uint64(len(s.order)))
	for _, doc := range s.order {
		b = cachefile.AppendString(b, s.ids[doc])
		b = binary.AppendUvarint(b, uint64(doc))
	}
	for _, sum := range s.sums {
		b = binary.LittleEndian.AppendUint64(b, sum)
	}
	return cachefile.WriteFile(filepath.Join(dir, numberingFile), cachefile.Seal(b))
}

// numberingTable is a numbering file, mapped: its records in the order
// of the internal ids then, and (made when first needed) a table from id
// to that place.
type numberingTable struct {
	m     *cachefile.Mapping
	body  []byte
	at    []uint32 // where each record's id begins and ends in body: 2 a record
	docs  []uint32 // each record's doc number
	sums  []byte   // 8 bytes a doc number
	slots []uint32 // open addressing: place + 1, 0 empty
	seed  maphash.Seed
}

// loadNumbering maps the numbering file when it holds the numbering of
// key, and indexes its ids; nil when it is missing, damaged or of another
// numbering.
func loadNumbering(dir string, key [32]byte) *numberingTable {
	body, m, err := cachefile.MapFile(filepath.Join(dir, numberingFile), numberingKind, numberingVersion)
	if err != nil {
		return nil
	}
	r := cachefile.NewReader(body)
	if !r.Expect(key[:]) {
		m.Close()
		return nil
	}
	n := r.Count()
	if len(body) >= 1<<32 {
		m.Close()
		return nil
	}
	nt := &numberingTable{m: m, body: body, at: make([]uint32, 2*n), docs: make([]uint32, n)}
	for i := 0; i < n; i++ {
		id := r.Bytes()
		end := len(body) - r.Len()
		nt.at[2*i], nt.at[2*i+1] = uint32(end-len(id)), uint32(end)
		nt.docs[i] = uint32(r.Int(n - 1))
	}
	nt.sums = r.Next(8 * n)
	if r.Done() != nil {
		m.Close()
		return nil
	}
	return nt
}

// index fills the table of ids.
func (nt *numberingTable) index() {
	n := nt.len()
	nt.seed = maphash.MakeSeed()
	size := 1
	for size < 2*n {
		size *= 2
	}
	nt.slots = make([]uint32, size)
	for i := 0; i < n; i++ {
		id := nt.id(i)
		for s := maphash.Bytes(nt.seed, id) & uint64(size-1); ; s = (s + 1) & uint64(size-1) {
			if nt.slots[s] == 0 {
				nt.slots[s] = uint32(i) + 1
				break
			}
		}
	}
}

// id is the id of the record at place i, in the mapping.
func (nt *numberingTable) id(i int) []byte {
	return nt.body[nt.at[2*i]:nt.at[2*i+1]]
}

// at reports whether the record at place i (if any) is id.
func (nt *numberingTable) idAt(i int, id string) bool {
	return i < nt.len() && string(nt.id(i)) == id
}

// find returns the place of id (the first, should the file hold it
// twice: the caller then finds another id missing).
func (nt *numberingTable) find(id string) (int, bool) {
	if nt.slots == nil {
		nt.index()
	}
	mask := uint64(len(nt.slots) - 1)
	for s := maphash.String(nt.seed, id) & mask; ; s = (s + 1) & mask {
		v := nt.slots[s]
		if v == 0 {
			return 0, false
		}
		if string(nt.id(int(v-1))) == id {
			return int(v - 1), true
		}
	}
}

// doc is the doc number of the record at place i.
func (nt *numberingTable) doc(i int) int { return int(nt.docs[i]) }

// sum is the sort key sum of doc.
func (nt *numberingTable) sum(doc int) uint64 {
	return binary.LittleEndian.Uint64(nt.sums[8*doc:])
}

func (nt *numberingTable) len() int { return len(nt.docs) }

func (nt *numberingTable) close() { nt.m.Close() }
