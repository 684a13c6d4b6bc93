package pipeline

import (
	"slices"
	"sync"
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

func count(n int) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// mapAhead yields f of each value in seq's order, whichever worker ends
// first.
func TestMapAheadYieldsInOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		var got []int
		for v := range mapAhead(7, workers, count(500), func(i int) int {
			if i%3 == 0 {
				time.Sleep(50 * time.Microsecond) // later than its neighbours
			}
			return i * i
		}) {
			got = append(got, v)
		}
		if len(got) != 500 {
			t.Fatalf("%d workers: %d values, want 500", workers, len(got))
		}
		for i, v := range got {
			if v != i*i {
				t.Fatalf("%d workers: value %d is %d, want %d", workers, i, v, i*i)
			}
		}
	}
}

// The workers run f at once: three values of f that each wait for the
// other two finish only if three workers take them together.
func TestMapAheadRunsFOnEveryWorker(t *testing.T) {
	var inside sync.WaitGroup
	inside.Add(3)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for range mapAhead(8, 3, count(3), func(i int) int {
			inside.Done()
			inside.Wait()
			return i
		}) {
		}
	}()
	select {
	case <-finished:
	case <-time.After(10 * time.Second):
		t.Fatal("three values of f did not run at once on three workers")
	}
}

// Stopped early, mapAhead returns after the producer and every worker
// have, and took at most n values ahead of the consumer.
func TestMapAheadStopsAndStaysWithinN(t *testing.T) {
	const n = 4
	var mu sync.Mutex
	taken, calls, ended := 0, 0, false
	seq := func(yield func(int) bool) {
		defer func() { ended = true }()
		for i := 0; ; i++ {
			mu.Lock()
			taken++
			mu.Unlock()
			if !yield(i) {
				return
			}
		}
	}
	for v := range mapAhead(n, 2, seq, func(i int) int {
		mu.Lock()
		calls++
		mu.Unlock()
		return i
	}) {
		if v == 10 {
			time.Sleep(20 * time.Millisecond) // let the producer fill what it may
			break
		}
	}
	mu.Lock()
	before := calls
	mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if calls != before {
		t.Fatal("f was still called after mapAhead returned")
	}
	if !ended {
		t.Fatal("the producer was still running when mapAhead returned")
	}
	// 0..10 consumed, n waiting, one more the producer offered and was
	// refused.
	if taken > 11+n+1 {
		t.Fatalf("the producer gave %d values by the time the consumer stopped at the 11th (n = %d)", taken, n)
	}
}
