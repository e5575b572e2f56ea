package core

import (
	"runtime"
	"sync"
)

// Large reductions split their output rows between goroutines: every output row is made from
// its own input rows alone, so the parts write disjoint memory and the result is the same as
// in one piece, whatever the split.

// parallelMinBytes is the input a part must have at least to be worth a goroutine. A
// variable, for the tests to split small reductions.
var parallelMinBytes = 4 << 20

// forRowRanges calls work on consecutive ranges [lo, hi) covering [0, rows), in parallel when
// the rows hold enough bytes (inputBytes in all), and returns once every call returned. A
// panic in a part is raised again in the caller's goroutine, where the C exports recover it.
func forRowRanges(rows int, inputBytes int, work func(lo, hi int)) {
	parts := min(runtime.GOMAXPROCS(0), inputBytes/parallelMinBytes, rows)
	if parts <= 1 {
		work(0, rows)
		return
	}
	var wg sync.WaitGroup
	var failure sync.Once
	var panicked any
	for p := range parts {
		lo, hi := rows*p/parts, rows*(p+1)/parts
		wg.Go(func() {
			defer func() {
				if value := recover(); value != nil {
					failure.Do(func() { panicked = value })
				}
			}()
			work(lo, hi)
		})
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}
