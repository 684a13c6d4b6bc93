package export

import (
	"errors"
	"sync/atomic"
	"testing"
)

func TestEachInOrderUsesInOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		var used []int
		err := eachInOrder(1000, workers, func(i int) (int, error) { return i * i, nil }, func(i, v int) error {
			if v != i*i {
				t.Fatalf("workers %d: value %d handed with index %d", workers, v, i)
			}
			used = append(used, i)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for k, i := range used {
			if i != k {
				t.Fatalf("workers %d: used %d at turn %d", workers, i, k)
			}
		}
		if len(used) != 1000 {
			t.Fatalf("workers %d: used %d of 1000", workers, len(used))
		}
	}
}

// Values are made at most 2*workers ahead of the one in use: a phase's
// files are not all held at once.
func TestEachInOrderMakesBoundedAhead(t *testing.T) {
	const workers = 3
	var made atomic.Int64
	err := eachInOrder(500, workers, func(i int) (int, error) {
		made.Add(1)
		return i, nil
	}, func(i, _ int) error {
		if ahead := int(made.Load()) - i; ahead > 2*workers {
			t.Fatalf("%d values made while %d is used", made.Load(), i)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestEachInOrderStopsAtTheFirstError(t *testing.T) {
	bad := errors.New("bad")
	var made atomic.Int64
	lastUsed := -1
	err := eachInOrder(10000, 2, func(i int) (int, error) {
		made.Add(1)
		if i == 40 || i == 60 {
			return 0, bad
		}
		return i, nil
	}, func(i, _ int) error {
		lastUsed = i
		return nil
	})
	if !errors.Is(err, bad) || lastUsed != 39 {
		t.Fatalf("error %v after using up to %d; want bad after 39", err, lastUsed)
	}
	if made.Load() > 40+1+4 {
		t.Fatalf("%d values made after the error at 40", made.Load())
	}
	err = eachInOrder(100, 2, func(i int) (int, error) { return i, nil }, func(i, _ int) error {
		if i == 7 {
			return bad
		}
		return nil
	})
	if !errors.Is(err, bad) {
		t.Fatalf("use's error: got %v", err)
	}
}
