package core

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callLog records the calls into loggedArrays, in order.
type callLog struct{ calls []string }

// loggedArray is a host array that logs its Device, Copy and Destroy calls, and fails its
// Copy when failCopy is set.
type loggedArray struct {
	*HostArray
	name     string
	log      *callLog
	failCopy bool
}

func (a *loggedArray) Device() (Device, error) {
	a.log.calls = append(a.log.calls, "device "+a.name)
	return a.HostArray.Device()
}

func (a *loggedArray) Copy(device Device) (Array, error) {
	a.log.calls = append(a.log.calls, "copy "+a.name)
	if a.failCopy {
		return nil, errors.New("no copy of " + a.name)
	}
	copied, err := a.HostArray.Copy(device)
	if err != nil {
		return nil, err
	}
	return &loggedArray{HostArray: copied.(*HostArray), name: a.name + "'", log: a.log}, nil
}

func (a *loggedArray) Destroy() {
	a.log.calls = append(a.log.calls, "destroy "+a.name)
	a.HostArray.Destroy()
}

// batchedArray is a loggedArray whose binding copies runs of batchedArrays at once
// (ArraysCopier), logging each run it starts.
type batchedArray struct{ loggedArray }

func (a *batchedArray) CopyOnOwnDevices(arrays []Array) (int, error) {
	a.log.calls = append(a.log.calls, "batch from "+a.name)
	for i, array := range arrays {
		batched, ok := array.(*batchedArray)
		if !ok {
			return i, nil
		}
		copied, err := copyOnOwnDevice(&batched.loggedArray)
		if err != nil {
			return i, err
		}
		arrays[i] = copied
	}
	return len(arrays), nil
}

// loggedBlocks makes two blocks with one gradient each, their values named b0, b0/g, b1 and
// b1/g; the arrays named in batched copy through ArraysCopier.
func loggedBlocks(t *testing.T, log *callLog, batched ...string) []*Block {
	t.Helper()
	blocks := make([]*Block, 2)
	for i := range blocks {
		s, c, p := blockLabels(t)
		values := make([]float64, 24)
		values[0] = float64(i + 1)
		block := newTestBlock(t, values, s, []*ArrayLabels{c}, p)
		gradient := gradientOf(t, []string{"sample"}, [][]int32{{1}}, []*ArrayLabels{c}, p)
		require.NoError(t, block.AddGradient("g", gradient))
		name := []string{"b0", "b1"}[i]
		block.values = wrapLogged(block.values, name, log, batched)
		gradient.values = wrapLogged(gradient.values, name+"/g", log, batched)
		blocks[i] = block
	}
	return blocks
}

func wrapLogged(values Array, name string, log *callLog, batched []string) Array {
	logged := loggedArray{HostArray: values.(*HostArray), name: name, log: log}
	for _, b := range batched {
		if b == name {
			return &batchedArray{logged}
		}
	}
	return &logged
}

func TestCopyBlocksAsksInBlockOrder(t *testing.T) {
	log := &callLog{}
	blocks := loggedBlocks(t, log, "b0", "b0/g", "b1/g")
	copies, err := copyBlocks(blocks)
	require.NoError(t, err)
	// every array asked its device, then copied, depth first; a run of batched arrays in one
	// batch, the plain array b1 on its own, then a new batch
	assert.Equal(t, []string{
		"batch from b0", "device b0", "copy b0", "device b0/g", "copy b0/g",
		"device b1", "copy b1",
		"batch from b1/g", "device b1/g", "copy b1/g",
	}, log.calls)
	require.Len(t, copies, 2)
	for i, copied := range copies {
		name := []string{"b0", "b1"}[i]
		assert.Equal(t, name+"'", copied.values.(*loggedArray).name)
		assert.Equal(t, float64(i+1), f64Values(t, copied.values.(*loggedArray).HostArray)[0])
		assert.Same(t, blocks[i].samples, copied.samples)
		assert.Equal(t, blocks[i].components, copied.components)
		require.Len(t, copied.gradients, 1)
		assert.Equal(t, "g", copied.gradients[0].Parameter)
		assert.Equal(t, name+"/g'", copied.gradients[0].Block.values.(*loggedArray).name)
		assert.Equal(t, blocks[i].gradients[0].Block.components, copied.gradients[0].Block.components)
	}
	samples := blocks[0].samples
	for _, block := range append(blocks, copies...) {
		block.Free()
	}
	assert.EqualValues(t, 0, samples.references.Load(), "every reference is given back")
}

func TestCopyBlocksDestroysCopiesOnFailure(t *testing.T) {
	for _, batched := range [][]string{nil, {"b0", "b0/g", "b1", "b1/g"}} {
		log := &callLog{}
		blocks := loggedBlocks(t, log, batched...)
		blocks[1].gradients[0].Block.values.(interface{ fail() }).fail()
		log.calls = nil
		copies, err := copyBlocks(blocks)
		require.EqualError(t, err, "no copy of b1/g")
		assert.Nil(t, copies)
		var destroyed []string
		for _, call := range log.calls {
			if len(call) > 8 && call[:8] == "destroy " {
				destroyed = append(destroyed, call[8:])
			}
		}
		assert.Equal(t, []string{"b0'", "b0/g'", "b1'"}, destroyed, "batched: %v", batched)
		samples := blocks[0].samples
		for _, block := range blocks {
			block.Free()
		}
		assert.EqualValues(t, 0, samples.references.Load(), "the failed copy kept no reference")
	}
}

func (a *loggedArray) fail() { a.failCopy = true }
