package export

import (
	"sync"
	"sync/atomic"
)

// eachInOrder makes the values 0..n-1 on workers goroutines, at most
// 2*workers ahead of the one in use, and hands each to use in order, on
// the calling goroutine. It returns the first error, in that order, of
// produce or use; after one, nothing more is made or used.
func eachInOrder[T any](n, workers int, produce func(i int) (T, error), use func(i int, v T) error) error {
	type slot struct {
		v    T
		err  error
		done chan struct{}
	}
	slots := make([]slot, n)
	for i := range slots {
		slots[i].done = make(chan struct{})
	}
	// A token is taken before an index, so the lowest index not yet used
	// always holds one or is about to: the user never waits for an index
	// no worker can take.
	tokens := make(chan struct{}, 2*workers)
	stop := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case tokens <- struct{}{}:
				case <-stop:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				slots[i].v, slots[i].err = produce(i)
				close(slots[i].done)
			}
		}()
	}
	defer wg.Wait()
	defer close(stop)
	for i := range slots {
		<-slots[i].done
		<-tokens
		if slots[i].err != nil {
			return slots[i].err
		}
		if err := use(i, slots[i].v); err != nil {
			return err
		}
		var zero T
		slots[i].v = zero // used: let it go
	}
	return nil
}
