package validate

import (
	"hash/maphash"
	"strconv"
	"sync"

	"github.com/errdocs/errdocs/internal/radix"
)

// Bulk answers, for a whole dataset at once, whether any record could
// break a rule of Set: an id twice, a slug twice in one repo, a repo
// whose path the site cannot have or that shares a folder with another.
// When none can (Clean), adding every record to a Set in read order
// would report nothing, so the caller need not: a Set probes a table of
// every id at each record, a large part of the one goroutine that takes
// a rebuild's records in read order, while Bulk appends two numbers
// (made beforehand, on any goroutine: KeysOf) and sorts them once at
// the end. When some record could, the caller adds every record to a
// Set in read order, as without Bulk, and that Set's verdicts stand.
//
// Add records that passed Record, in any order. Not safe for
// concurrent use.
type Bulk struct {
	ids      []idKey
	slugs    []uint64
	repos    map[string]bool
	lastRepo string
	added    int32   // records added; more than len(ids) when one had no id
	byID     []int32 // IDOrder, once Clean has sorted the ids
}

// idKey is a record's id as its 64 bits, and which record it is, by the
// order the records were added.
type idKey struct {
	id uint64
	at int32
}

// Keys are a record's keys for Bulk.
type Keys struct {
	id    uint64 // the id's 64 bits, when hasID
	slug  uint64 // a hash of repo and slug
	hasID bool   // the id is well formed (else Set does not check it)
}

// keySeed is the seed of the slug keys: one per process, as Bulk's
// verdict does not outlive it.
var keySeed = maphash.MakeSeed()

// KeysOf returns the keys of a record with these id, repo and slug.
func KeysOf(id, repo, slug string) Keys {
	var k Keys
	if ID(id) {
		k.id, _ = strconv.ParseUint(id, 16, 64) // 16 hex digits
		k.hasID = true
	}
	var h maphash.Hash
	h.SetSeed(keySeed)
	h.WriteString(repo)
	h.WriteByte(0)
	h.WriteString(slug)
	k.slug = h.Sum64()
	return k
}

// NewBulk returns an empty Bulk with room for about n records.
func NewBulk(n int) *Bulk {
	return &Bulk{ids: make([]idKey, 0, n), slugs: make([]uint64, 0, n), repos: map[string]bool{}}
}

// Add notes a record of repo with keys k (KeysOf the record).
func (b *Bulk) Add(repo string, k Keys) {
	if k.hasID {
		b.ids = append(b.ids, idKey{k.id, b.added})
	}
	b.added++
	b.slugs = append(b.slugs, k.slug)
	if repo != b.lastRepo || len(b.repos) == 0 {
		b.repos[repo] = true
		b.lastRepo = repo
	}
}

// Clean reports whether no record added can break a rule of Set. A
// false answer may be wrong (two slugs of one hash), never a true one.
func (b *Bulk) Clean() bool {
	folded := make(map[string]bool, len(b.repos))
	for repo := range b.repos {
		if len(repoPathProblems(repo)) > 0 {
			return false
		}
		f := foldedRepo(repo)
		if folded[f] {
			return false
		}
		folded[f] = true
	}
	var idsOK bool
	var wg sync.WaitGroup
	wg.Go(func() {
		idsOK = distinct(b.ids, func(k idKey) uint64 { return k.id })
		if idsOK && len(b.ids) == int(b.added) {
			b.byID = make([]int32, len(b.ids))
			for k := range b.ids {
				b.byID[k] = b.ids[k].at
			}
		}
	})
	slugsOK := distinct(b.slugs, func(k uint64) uint64 { return k })
	wg.Wait()
	if !idsOK || !slugsOK {
		b.byID = nil
	}
	return idsOK && slugsOK
}

// IDOrder returns the records added, numbered in the order they were
// added from 0, in the order of their ids, when Clean has found no rule
// broken and every record had a well-formed id; else nil. Sixteen
// lowercase hex digits sort as their numbers do, so this is the order of
// the ids as strings too: the sort Clean did for its own answer spares a
// caller that needs the records by id a sort of its own.
func (b *Bulk) IDOrder() []int32 { return b.byID }

// distinct reports whether no two of keys have the same key, sorting
// them by it.
func distinct[T any](keys []T, key func(T) uint64) bool {
	radix.SortBuf(keys, nil, key)
	for i := 1; i < len(keys); i++ {
		if key(keys[i]) == key(keys[i-1]) {
			return false
		}
	}
	return true
}
