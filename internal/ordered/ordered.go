// Package ordered does work on several goroutines and hands the results
// on in the order the work came: records read in file order and indexed
// in that order, files made on every core and written one after another.
package ordered

import (
	"iter"
	"sync"
)

// Map applies f to each value of seq on workers goroutines (at least one)
// as seq gives them, and yields the results in seq's order. seq runs on a
// goroutine of its own, at most n values (at least none) ahead of the one
// the consumer has: those wait for f or for the consumer, which so bounds
// the memory they hold. When the consumer stops early, seq's yield
// returns false from then on; Map returns only after seq and every call
// of f have.
func Map[T, U any](n, workers int, seq iter.Seq[T], f func(T) U) iter.Seq[U] {
	type slot struct {
		in   T
		out  U
		done chan struct{}
	}
	return func(yield func(U) bool) {
		// order holds the slots waiting for the consumer, which holds
		// one more; every slot in work is one of those, so work never
		// blocks the producer.
		n = max(n, 0)
		order := make(chan *slot, n)
		work := make(chan *slot, n+1)
		stop := make(chan struct{})
		done := make(chan struct{})
		var working sync.WaitGroup
		for range max(workers, 1) {
			working.Go(func() {
				for s := range work {
					s.out = f(s.in)
					close(s.done)
				}
			})
		}
		go func() {
			defer close(done)
			defer close(order)
			defer working.Wait()
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

// Ahead runs seq on a goroutine of its own, up to n values ahead of the
// consumer, and yields its values in order (Map, with nothing to do to
// them).
func Ahead[T any](n int, seq iter.Seq[T]) iter.Seq[T] {
	return Map(n, 1, seq, func(v T) T { return v })
}

// Count yields 0..n-1.
func Count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}
