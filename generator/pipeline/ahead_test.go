package pipeline

import (
	"slices"
	"testing"
	"time"
)

func TestAheadYieldsInOrder(t *testing.T) {
	var got []int
	for v := range ahead(7, func(yield func(int) bool) {
		for i := range 1000 {
			if !yield(i) {
				return
			}
		}
	}) {
		got = append(got, v)
	}
	want := make([]int, 1000)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %d values, not 0..999 in order", len(got))
	}
}

// The producer must get n values ahead while the consumer is busy with
// the first: the cold build's reading goes on while the index builds a
// batch.
func TestAheadRunsAheadOfABusyConsumer(t *testing.T) {
	const n = 16
	reached := make(chan struct{})
	for v := range ahead(n, func(yield func(int) bool) {
		for i := 0; ; i++ {
			if i == n+1 {
				close(reached) // values 1..n are buffered while 0 is consumed
			}
			if !yield(i) {
				return
			}
		}
	}) {
		if v == 0 {
			select {
			case <-reached:
			case <-time.After(10 * time.Second):
				t.Fatalf("the producer did not run %d values ahead of a consumer busy with the first", n)
			}
		}
		if v == n+1 {
			break
		}
	}
}

func TestAheadStopsTheProducer(t *testing.T) {
	ended, sent := false, 0
	for v := range ahead(4, func(yield func(int) bool) {
		defer func() { ended = true }()
		for i := 0; ; i++ {
			sent++
			if !yield(i) {
				return
			}
		}
	}) {
		if v == 10 {
			break
		}
	}
	// ahead returns only after the producer has: reading these is no race.
	if !ended {
		t.Fatal("the producer was still running when ahead returned")
	}
	if sent > 10+1+4+1 {
		t.Fatalf("the producer yielded %d values after the consumer stopped at 11", sent)
	}
}
