package core

import (
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestForRowRangesCoversEveryRowOnce(t *testing.T) {
	for _, rows := range []int{0, 1, 2, 3, 7, 100} {
		for _, bytes := range []int{0, parallelMinBytes, 3 * parallelMinBytes, 1000 * parallelMinBytes} {
			var lock sync.Mutex
			seen := make([]int, rows)
			calls := 0
			forRowRanges(rows, bytes, func(lo, hi int) {
				lock.Lock()
				defer lock.Unlock()
				calls++
				for r := lo; r < hi; r++ {
					seen[r]++
				}
			})
			for r := range seen {
				require.Equal(t, 1, seen[r], "row %d of %d", r, rows)
			}
			parts := min(runtime.GOMAXPROCS(0), bytes/parallelMinBytes, rows)
			require.Equal(t, max(parts, 1), calls, "%d rows, %d bytes", rows, bytes)
		}
	}
}

func TestForRowRangesPanicsInTheCaller(t *testing.T) {
	// Two parts at least, on any machine.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), 2)))
	require.PanicsWithValue(t, "part failed", func() {
		forRowRanges(10, 10*parallelMinBytes, func(lo, hi int) {
			if lo > 0 {
				panic("part failed")
			}
		})
	})
}
