package export

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errdocs/errdocs/internal/ordered"
)

// gatedTerms yields t000 … t099 through gate, counting those let through.
func gatedTerms(gate *readGate, through *atomic.Int64) func(func(string) bool) {
	return func(yield func(string) bool) {
		for i := range 100 {
			term := fmt.Sprintf("t%03d", i)
			if !gate.pass(term) {
				return
			}
			through.Add(1)
			if !yield(term) {
				return
			}
		}
	}
}

// TestReadGateHoldsReadAheadAtEnds reads ahead through a gate, as a run
// of re-encoded shards does: nothing past an end is read until the
// consumer goes on past it, and a consumer that stops there releases
// the producer.
func TestReadGateHoldsReadAheadAtEnds(t *testing.T) {
	t.Run("goes on", func(t *testing.T) {
		var through atomic.Int64
		gate := newReadGate([]string{"t020", "t050"})
		n := 0
		for term := range ordered.Map(16, 2, gatedTerms(gate, &through), func(s string) string { return s }) {
			n++
			if term == "t020" || term == "t050" {
				time.Sleep(20 * time.Millisecond) // time for the producer to run ahead
				if got, want := through.Load(), int64(n); got != want {
					t.Errorf("at %s: %d terms read, want %d (none past it)", term, got, want)
				}
			}
			gate.wentOn(term)
		}
		if n != 100 || through.Load() != 100 {
			t.Errorf("%d terms handed, %d read; want all 100", n, through.Load())
		}
	})
	t.Run("stops", func(t *testing.T) {
		var through atomic.Int64
		gate := newReadGate([]string{"t020"})
		done := make(chan int)
		go func() {
			n := 0
			for term := range ordered.Map(16, 2, gatedTerms(gate, &through), func(s string) string { return s }) {
				n++
				if term == "t020" {
					time.Sleep(20 * time.Millisecond)
					gate.close()
					break
				}
				gate.wentOn(term)
			}
			done <- n
		}()
		select {
		case n := <-done:
			if n != 21 || through.Load() != 21 {
				t.Errorf("%d terms handed, %d read; want 21 and 21", n, through.Load())
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the producer waiting at the gate was not released when the consumer stopped")
		}
	})
	// A run that panics (a bug) closes the gate on its way out: the
	// read-ahead's end waits for the producer, which must not be left
	// waiting at the gate (a hang instead of a crash).
	t.Run("panics", func(t *testing.T) {
		gate := newReadGate([]string{"t020"})
		if !gate.pass("t020") {
			t.Fatal("the group at the end was held")
		}
		func() {
			defer func() { recover() }()
			hand(&termGroup{term: "t020"}, gate, func(*termGroup) error { panic("bug") })
		}()
		released := make(chan bool)
		go func() { released <- gate.pass("t021") }()
		select {
		case ok := <-released:
			if ok {
				t.Error("the gate let a group through after the run panicked")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("after a panic, the producer waits at the gate")
		}
	})
	t.Run("none", func(t *testing.T) {
		var through atomic.Int64
		for range ordered.Map(16, 2, gatedTerms(newReadGate(nil), &through), func(s string) string { return s }) {
		}
		if through.Load() != 100 {
			t.Errorf("without ends, %d terms read, want 100", through.Load())
		}
	})
}
