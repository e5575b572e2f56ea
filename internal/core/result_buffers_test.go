package core

import (
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// withSmallThresholds recycles every result and splits every reduction between goroutines
// for the rest of the test, so that small tensors take the paths of large ones.
func withSmallThresholds(t testing.TB) {
	recycle, parallel := recycleMinBytes, parallelMinBytes
	recycleMinBytes, parallelMinBytes = 8, 8
	t.Cleanup(func() { recycleMinBytes, parallelMinBytes = recycle, parallel })
}

// poisonRecycled fills every buffer waiting to be recycled with all bits set: NaN for floats,
// -1 for integers. A reduction that relied on zeroed memory would then show it.
func poisonRecycled() {
	recycled.Lock()
	defer recycled.Unlock()
	for words, free := range recycled.free {
		for _, pointer := range free {
			if first := pointer.Value(); first != nil {
				for i := range unsafe.Slice(first, words) {
					unsafe.Slice(first, words)[i] = ^uint64(0)
				}
			}
		}
	}
}

func TestResultBuffersRecycled(t *testing.T) {
	// no garbage collection between giving a buffer back and taking it again
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	n := recycleMinBytes / 8
	first := resultBuffer[float64](n)
	recycleBuffer(first)
	again := resultBuffer[float64](n)
	require.Equal(t, unsafe.Pointer(&first[0]), unsafe.Pointer(&again[0]), "the same size takes the buffer back")

	recycleBuffer(again)
	other := resultBuffer[float64](n + 1)
	require.NotEqual(t, unsafe.Pointer(&first[0]), unsafe.Pointer(&other[0]), "another size does not")
	halves := resultBuffer[float32](2 * n)
	require.Equal(t, unsafe.Pointer(&first[0]), unsafe.Pointer(&halves[0]), "the same bytes in another type do")

	small := resultBuffer[int32](4)
	recycleBuffer(small)
	require.NotEqual(t, unsafe.Pointer(&small[0]), unsafe.Pointer(&resultBuffer[int32](4)[0]), "small buffers are not recycled")
}

func TestResultBuffersBounded(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	n := recycleMinBytes/8 + 3
	buffers := make([][]float64, 2*recycleMaxPerSize)
	for i := range buffers {
		buffers[i] = resultBuffer[float64](n)
	}
	for _, buffer := range buffers {
		recycleBuffer(buffer)
	}
	recycled.Lock()
	waiting := len(recycled.free[(n*8+7)/8])
	recycled.Unlock()
	require.Equal(t, recycleMaxPerSize, waiting)
}

// TestReduceOverRecycledBuffers runs the model comparison with every result recycled and
// every recycled buffer poisoned before each reduction.
func TestReduceOverRecycledBuffers(t *testing.T) {
	withSmallThresholds(t)
	forModelReductions(t, 50, func(m modelBlock, op SampleReduction, ignoreNaN bool) {
		block := coreBlock[float64](t, m)
		defer block.Free()
		poisonRecycled()
		got, err := block.ReduceOverSamples([]string{"atom"}, op, ignoreNaN)
		require.NoError(t, err, "%s", op)
		defer got.Free()
		requireSameAsModel[float64](t, got, modelReduce(m, []int{0, 2}, op, ignoreNaN))
	})
}
