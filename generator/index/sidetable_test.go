package index

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/errdocs/errdocs/internal/cachefile"
)

// TestSideTableAgainstMap drives the table of places and a plain map with
// the same random puts (in memory and replayed from "mappings"), removals
// and lookups, through growth and many removed slots, and checks that they
// always agree.
func TestSideTableAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tab := newSideTable(0)
	model := map[string]sideEntry{}
	entry := func(id string, n int) sideEntry {
		var e sideEntry
		e.Hash[0], e.Hash[15] = byte(n), byte(n>>8)
		e.SortKey = fmt.Sprintf("key %d of %s", n, id)
		e.Blob = []byte(fmt.Sprintf("blob %d", n))
		return e
	}
	for round := 0; round < 40; round++ {
		// a "mapping" of puts, as a spill or Open would replay it
		var buf []byte
		type put struct {
			id  string
			off int
			e   sideEntry
		}
		var puts []put
		for i := 0; i < 1+rng.IntN(300); i++ {
			id := fmt.Sprintf("rec-%d", rng.IntN(2000))
			e := entry(id, round*1000+i)
			off := len(buf)
			buf = cachefile.AppendString(buf, id)
			buf = append(buf, e.Hash[:]...)
			buf = cachefile.AppendString(buf, e.SortKey)
			buf = cachefile.AppendBytes(buf, e.Blob)
			puts = append(puts, put{id, off, e})
		}
		tab.maps = append(tab.maps, buf)
		for _, p := range puts {
			if err := tab.place(p.id, len(tab.maps)-1, p.off); err != nil {
				t.Fatal(err)
			}
			model[p.id] = p.e
		}
		// puts in memory and removals
		for i := 0; i < rng.IntN(200); i++ {
			id := fmt.Sprintf("rec-%d", rng.IntN(2000))
			if rng.IntN(2) == 0 {
				e := entry(id, -i)
				tab.put(id, e)
				model[id] = e
			} else {
				tab.remove(id)
				delete(model, id)
			}
		}
		if tab.len() != len(model) {
			t.Fatalf("round %d: %d entries, want %d", round, tab.len(), len(model))
		}
		if got := cloneSide(tab); !reflect.DeepEqual(got, model) {
			t.Fatalf("round %d: the table holds other entries than the map", round)
		}
		ids := map[string]bool{}
		tab.eachID(func(id string) bool {
			ids[id] = true
			return true
		})
		if len(ids) != len(model) {
			t.Fatalf("round %d: eachID gave %d ids, want %d", round, len(ids), len(model))
		}
		for id := range model {
			if !ids[id] {
				t.Fatalf("round %d: eachID did not give %s", round, id)
			}
		}
		for i := 0; i < 2000; i++ {
			id := fmt.Sprintf("rec-%d", i)
			got, ok := tab.get(id)
			want, wok := model[id]
			if ok != wok || !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: get(%s) = %v %v, want %v %v", round, id, got, ok, want, wok)
			}
			if tab.has(id) != wok {
				t.Fatalf("round %d: has(%s) = %v, want %v", round, id, !wok, wok)
			}
			if sk, ok := tab.sortKey(id); ok != wok || sk != want.SortKey {
				t.Fatalf("round %d: sortKey(%s) = %q %v, want %q %v", round, id, sk, ok, want.SortKey, wok)
			}
		}
	}
	if 2*tab.used > len(tab.slots) {
		t.Errorf("table %d of %d slots used: more than half full", tab.used, len(tab.slots))
	}
}
