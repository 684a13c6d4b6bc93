package export

import "github.com/errdocs/errdocs/internal/ordered"

// eachInOrder makes the values 0..n-1 on workers goroutines, at most
// 2*workers ahead of the one in use, and hands each to use in order, on
// the calling goroutine. It returns the first error, in that order, of
// produce or use; after one, nothing more is made or used.
func eachInOrder[T any](n, workers int, produce func(i int) (T, error), use func(i int, v T) error) error {
	type made struct {
		i   int
		v   T
		err error
	}
	// ordered.Map makes at most n values beyond the one in use; the
	// bound above counts that one too.
	for m := range ordered.Map(2*workers-1, workers, ordered.Count(n), func(i int) made {
		v, err := produce(i)
		return made{i, v, err}
	}) {
		if m.err != nil {
			return m.err
		}
		if err := use(m.i, m.v); err != nil {
			return err
		}
	}
	return nil
}
