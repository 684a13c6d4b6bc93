package pipeline

import (
	"iter"
	"sync"
)

// indexAhead is how many records the reading of a cold build may run
// ahead of the index. While bleve builds a batch's segment, Apply takes no
// record; reading on meanwhile keeps the record pages rendering on the
// other cores instead of leaving them idle for every batch. The records
// waiting are live heap, which a cold build of half a million records
// holds near its limit: a quarter of a batch (renderIndex sets BatchSize)
// rather than a whole one (BENCHMARKS.md, session 25).
const indexAhead = 250

// ahead runs seq on a goroutine of its own, up to n values ahead of the
// consumer, and yields its values in order. When the consumer stops
// early, seq's yield returns false from then on; ahead returns only
// after seq has.
func ahead[T any](n int, seq iter.Seq[T]) iter.Seq[T] {
	return func(yield func(T) bool) {
		vals := make(chan T, n)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer close(vals)
			seq(func(v T) bool {
				select {
				case vals <- v:
					return true
				case <-stop:
					return false
				}
			})
		}()
		defer func() {
			close(stop)
			<-done
		}()
		for v := range vals {
			if !yield(v) {
				return
			}
		}
	}
}

// mapAhead is ahead with f applied to each value on workers goroutines as
// it comes, the results yielded in seq's order: work that the consumer
// would do value by value, done on every core. At most n values are
// waiting for the consumer or for f.
func mapAhead[T, U any](n, workers int, seq iter.Seq[T], f func(T) U) iter.Seq[U] {
	type slot struct {
		in   T
		out  U
		done chan struct{}
	}
	return func(yield func(U) bool) {
		order := make(chan *slot, n)
		// Every slot in work is in order or with the consumer: work
		// never blocks the producer.
		work := make(chan *slot, n+1)
		stop := make(chan struct{})
		done := make(chan struct{})
		var workersDone sync.WaitGroup
		for range workers {
			workersDone.Go(func() {
				for s := range work {
					s.out = f(s.in)
					close(s.done)
				}
			})
		}
		go func() {
			defer close(done)
			defer close(order)
			defer workersDone.Wait()
			defer close(work)
			seq(func(v T) bool {
				s := &slot{in: v, done: make(chan struct{})}
				select {
				case order <- s:
				case <-stop:
					return false
				}
				work <- s
				return true
			})
		}()
		defer func() {
			close(stop)
			<-done
		}()
		for s := range order {
			<-s.done
			if !yield(s.out) {
				return
			}
		}
	}
}
