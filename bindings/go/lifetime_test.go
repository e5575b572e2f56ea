package metatensor_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// collectUntil runs the garbage collector until done holds, for at most a few seconds.
func collectUntil(t *testing.T, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatal("the cleanup did not run")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// forgottenBlock makes a block of counted values that nothing references once this returns.
func forgottenBlock(t *testing.T, destroyed *atomic.Int32) {
	samples := rangeLabels(t, "s", 1)
	_, err := metatensor.NewBlock(countingArray{newArray(t, []int{1, 1}), destroyed}, samples, nil, samples)
	require.NoError(t, err)
}

func TestForgottenBlocksAreFreed(t *testing.T) {
	var destroyed atomic.Int32
	forgottenBlock(t, &destroyed)
	collectUntil(t, func() bool { return destroyed.Load() == 1 })
}

// forgottenTensorMap makes a tensor map of counted values and gives only a view of its
// block.
func forgottenTensorMap(t *testing.T, destroyed *atomic.Int32) *metatensor.TensorBlock {
	samples := rangeLabels(t, "s", 1)
	block, err := metatensor.NewBlock(countingArray{newArray(t, []int{1, 1}, 7), destroyed}, samples, nil, samples)
	require.NoError(t, err)
	tensor, err := metatensor.NewTensorMap(samples, []*metatensor.TensorBlock{block})
	require.NoError(t, err)
	view, err := tensor.Block(0)
	require.NoError(t, err)
	return view
}

func TestViewsKeepTheirOwnerAlive(t *testing.T) {
	var destroyed atomic.Int32
	view := forgottenTensorMap(t, &destroyed)
	for range 5 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	require.EqualValues(t, 0, destroyed.Load())
	values, err := metatensor.CopyArrayValues[float64](view.Values())
	require.NoError(t, err)
	require.Equal(t, []float64{7}, values)

	runtime.KeepAlive(view)
	collectUntil(t, func() bool { return destroyed.Load() == 1 })
}

// forgottenLabels makes labels over a counted custom array, and a clone of them, that nothing
// references once this returns.
func forgottenLabels(t *testing.T, destroyed *atomic.Int32) {
	labels, err := metatensor.NewLabelsFromArrayAssumeUnique([]string{"a"}, int32Array(t, destroyed, 2, 1, 0, 1))
	require.NoError(t, err)
	_, err = labels.Clone()
	require.NoError(t, err)
}

func TestForgottenLabelsOverCustomArraysAreFreed(t *testing.T) {
	// Labels in Go memory alone have no cleanup; those over other arrays must keep theirs.
	var destroyed atomic.Int32
	forgottenLabels(t, &destroyed)
	collectUntil(t, func() bool { return destroyed.Load() == 1 })
}

func TestClosedObjectsAreNotFreedTwice(t *testing.T) {
	var destroyed atomic.Int32
	func() {
		samples := rangeLabels(t, "s", 1)
		block, err := metatensor.NewBlock(countingArray{newArray(t, []int{1, 1}), &destroyed}, samples, nil, samples)
		require.NoError(t, err)
		block.Close()
	}()
	for range 5 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	require.EqualValues(t, 1, destroyed.Load())
}

func TestConcurrentReads(t *testing.T) {
	tensor := fixtureTensor(t)
	keys := tensor.Keys()
	defer keys.Close()
	done := make(chan error)
	for range 8 {
		go func() {
			for range 100 {
				for key, block := range tensor.Items() {
					position, err := keys.Position(key)
					if err != nil || position < 0 {
						done <- err
						return
					}
					samples := block.Samples()
					samples.Close()
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		require.NoError(t, <-done)
	}
}
