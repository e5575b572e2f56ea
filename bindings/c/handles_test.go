package main

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandlesStoreAndReuse(t *testing.T) {
	a, b := newHandle("a"), newHandle(2)
	require.NotZero(t, a)
	require.NotEqual(t, a, b)
	assert.Equal(t, "a", a.Value())
	assert.Equal(t, 2, b.Value())
	a.Delete()
	c := newHandle("c")
	assert.Equal(t, a, c, "freed slots are reused")
	assert.Equal(t, "c", c.Value())
	assert.Equal(t, 2, b.Value())
	b.Delete()
	c.Delete()
}

func TestHandlesAcrossChunksAndGoroutines(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			handles := make([]objectHandle, 3*handleChunkSize)
			for i := range handles {
				handles[i] = newHandle([2]int{g, i})
			}
			for i, h := range handles {
				assert.Equal(t, [2]int{g, i}, h.Value())
				h.Delete()
			}
		}()
	}
	wg.Wait()
}
