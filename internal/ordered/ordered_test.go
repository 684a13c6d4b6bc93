package ordered

import (
	"sync"
	"testing"
	"time"
)

// Map yields f of each value in seq's order, whichever worker ends first.
func TestMapYieldsInOrder(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 5} {
		var got []int
		for v := range Map(workers*3-1, workers, Count(500), func(i int) int {
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
func TestMapRunsFOnEveryWorker(t *testing.T) {
	var inside sync.WaitGroup
	inside.Add(3)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for range Map(8, 3, Count(3), func(i int) int {
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

// Stopped early, Map returns after seq and every call of f have, and seq
// ran at most n values ahead of the consumer.
func TestMapStopsAndStaysWithinN(t *testing.T) {
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
	for v := range Map(n, 2, seq, func(i int) int {
		mu.Lock()
		calls++
		mu.Unlock()
		return i
	}) {
		if v == 10 {
			time.Sleep(20 * time.Millisecond) // let seq run as far as it may
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
		t.Fatal("f was still called after Map returned")
	}
	if !ended {
		t.Fatal("seq was still running when Map returned")
	}
	// 0..10 yielded, n waiting, one more that seq offered and was
	// refused.
	if taken > 11+n+1 {
		t.Fatalf("seq gave %d values by the time the consumer stopped at the 11th (n = %d)", taken, n)
	}
}

// Ahead's producer gets n values ahead while the consumer is busy with
// the first: a cold build's reading goes on while the index builds a
// batch.
func TestAheadRunsAheadOfABusyConsumer(t *testing.T) {
	const n = 16
	reached := make(chan struct{})
	for v := range Ahead(n, func(yield func(int) bool) {
		for i := 0; ; i++ {
			if i == n+1 {
				close(reached) // values 1..n wait while 0 is consumed
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
