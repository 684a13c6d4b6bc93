package pipeline

import "iter"

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
