package metatensor

import (
	"runtime"
	"slices"

	"github.com/metatensor-go/metatensor/internal/core"
)

// TensorMap is a set of blocks, one per entry of its keys, that share the names of their
// sample, component and property dimensions and have gradients with respect to the same
// parameters; it also carries string metadata (info). It owns its blocks: those it gives
// are views.
type TensorMap struct {
	tensor *core.TensorMap
	owner  *owner
}

// ownTensorMap wraps a core tensor map that nothing else owns.
func ownTensorMap(tensor *core.TensorMap) *TensorMap {
	t := &TensorMap{tensor: tensor}
	t.owner = newOwner(t, tensor.Free)
	return t
}

// NewTensorMap makes a tensor map with one block per entry of keys, in order. The blocks
// must be owned blocks (not views): they move into the tensor map, whether this succeeds or
// not, and the values passed can no longer be used (Block gives them back). The keys stay
// the caller's, the tensor map keeping its own reference.
func NewTensorMap(keys *Labels, blocks []*TensorBlock) (*TensorMap, error) {
	coreKeys, err := keys.get()
	if err != nil {
		return nil, err
	}
	for i, block := range blocks {
		if err := block.checkMovable(); err != nil {
			return nil, err
		}
		if slices.Contains(blocks[:i], block) {
			return nil, invalidf("block %d is given more than once to NewTensorMap", i)
		}
	}
	coreBlocks := make([]*core.Block, len(blocks))
	for i, block := range blocks {
		coreBlocks[i] = block.take()
	}
	tensor, err := core.NewTensorMap(coreKeys, coreBlocks)
	runtime.KeepAlive(keys)
	if err != nil {
		return nil, err
	}
	return ownTensorMap(tensor), nil
}

// Close frees the tensor map and its blocks; views into it can no longer be used. Later
// calls do nothing.
func (t *TensorMap) Close() {
	if t != nil && t.owner.release(closed) {
		t.tensor.Free()
	}
}

// get gives the core tensor map, or the error of a tensor map used after Close.
func (t *TensorMap) get() (*core.TensorMap, error) {
	if t == nil {
		return nil, invalidf("got nil TensorMap")
	}
	if err := t.owner.check("TensorMap"); err != nil {
		return nil, err
	}
	return t.tensor, nil
}

// Keys gives the keys: one entry per block.
func (t *TensorMap) Keys() *Labels {
	defer runtime.KeepAlive(t)
	return shareLabels(must(t.get()).Keys())
}

// Len gives the number of blocks.
func (t *TensorMap) Len() int { return len(must(t.get()).Blocks()) }

// Block gives a view of the block at index, the block of the entry index of the keys.
func (t *TensorMap) Block(index int) (*TensorBlock, error) {
	tensor, err := t.get()
	if err != nil {
		return nil, err
	}
	if index < 0 {
		return nil, invalidf("block index out of bounds: the index is %d", index)
	}
	block, err := tensor.Block(uint64(index))
	if err != nil {
		return nil, err
	}
	return viewBlock(block, t.owner, t), nil
}

// BlocksMatching gives the indexes of the blocks whose keys match selection, as
// Labels.Select does on the keys.
func (t *TensorMap) BlocksMatching(selection *Labels) ([]int, error) {
	defer runtime.KeepAlive(t)
	defer runtime.KeepAlive(selection)
	tensor, err := t.get()
	if err != nil {
		return nil, err
	}
	chosen, err := selection.get()
	if err != nil {
		return nil, err
	}
	positions, err := tensor.Keys().Select(chosen)
	if err != nil {
		return nil, err
	}
	return intPositions(positions), nil
}

// Copy makes an independent copy: blocks copied by their arrays, keys shared, info copied.
func (t *TensorMap) Copy() (*TensorMap, error) {
	return with(t.get, func(tensor *core.TensorMap) (*TensorMap, error) { return ownResult(tensor.Copy()) })
}

// ownResult wraps the result of an operation making a new tensor map.
var ownResult = owned(ownTensorMap)

// SetInfo stores value under key in the metadata; a key already set keeps its place in
// InfoKeys.
func (t *TensorMap) SetInfo(key, value string) error {
	defer runtime.KeepAlive(t)
	tensor, err := t.get()
	if err != nil {
		return err
	}
	return tensor.Info().Set(key, value)
}

// Info gives the metadata stored under key, and whether there is any.
func (t *TensorMap) Info(key string) (string, bool) { return must(t.get()).Info().Get(key) }

// InfoKeys gives the keys of the metadata, in the order they were first set.
func (t *TensorMap) InfoKeys() []string { return slices.Clone(must(t.get()).Info().Keys()) }
