package metatensor

import (
	"runtime"

	"github.com/metatensor-go/metatensor/internal/core"
)

// Operations making a new tensor map with dimensions moved between keys, samples, components
// and properties. The tensor map they are called on is not modified.

// KeysToSamples moves the key dimensions named by keysToMove (labels without entries) to the
// samples: the blocks that end up with the same remaining key are merged, each one's samples
// followed by its values of the moved dimensions. Merged samples come in the order they are
// first seen, or sorted with sortSamples. The properties of a merged block are the union of
// those of its blocks; values no block fills are zero.
func (t *TensorMap) KeysToSamples(keysToMove *Labels, sortSamples bool) (*TensorMap, error) {
	return t.KeysToSamplesFill(keysToMove, nil, sortSamples)
}

// KeysToSamplesFill is KeysToSamples, with the values no block fills set to fill: a scalar
// array (of shape []int{}) of the blocks' dtype, on the CPU. fill stays the caller's; nil
// means zero.
func (t *TensorMap) KeysToSamplesFill(keysToMove *Labels, fill Array, sortSamples bool) (*TensorMap, error) {
	return t.moveKeys(keysToMove, fill, func(tensor *core.TensorMap, keys *core.ArrayLabels, fill Array) (*core.TensorMap, error) {
		return tensor.KeysToSamples(keys, fill, sortSamples)
	})
}

// KeysToProperties moves the key dimensions named by keysToMove to the properties: the
// blocks that end up with the same remaining key are merged, each one's properties preceded
// by its values of the moved dimensions. When keysToMove has entries, every block of a group
// must have the same properties, the new properties are each entry followed by each
// property, and blocks whose values are not among the entries are left out. Merged samples
// come in the order they are first seen, or sorted with sortSamples; values no block fills
// are zero.
func (t *TensorMap) KeysToProperties(keysToMove *Labels, sortSamples bool) (*TensorMap, error) {
	return t.KeysToPropertiesFill(keysToMove, nil, sortSamples)
}

// KeysToPropertiesFill is KeysToProperties, with the values no block fills set to fill (see
// KeysToSamplesFill).
func (t *TensorMap) KeysToPropertiesFill(keysToMove *Labels, fill Array, sortSamples bool) (*TensorMap, error) {
	return t.moveKeys(keysToMove, fill, func(tensor *core.TensorMap, keys *core.ArrayLabels, fill Array) (*core.TensorMap, error) {
		return tensor.KeysToProperties(keys, fill, sortSamples)
	})
}

// moveKeys runs a keys_to_* operation with the caller's fill, or a zero of the blocks' dtype.
func (t *TensorMap) moveKeys(keysToMove *Labels, fill Array,
	move func(*core.TensorMap, *core.ArrayLabels, Array) (*core.TensorMap, error)) (*TensorMap, error) {
	defer runtime.KeepAlive(t)
	defer runtime.KeepAlive(keysToMove)
	tensor, err := t.get()
	if err != nil {
		return nil, err
	}
	keys, err := keysToMove.get()
	if err != nil {
		return nil, err
	}
	if fill == nil {
		dtype, err := tensor.DType()
		if err != nil {
			return nil, err
		}
		zero, err := core.NewHostArray(dtype, []uintptr{})
		if err != nil {
			return nil, err
		}
		fill = zero // the core destroys it
	} else {
		fill = borrowedArray{fill}
	}
	return ownResult(move(tensor, keys, fill))
}

// ComponentsToProperties moves the named component dimensions of every block (and of every
// gradient) to the front of the properties, each name in turn.
func (t *TensorMap) ComponentsToProperties(dimensions ...string) (*TensorMap, error) {
	defer runtime.KeepAlive(t)
	tensor, err := t.get()
	if err != nil {
		return nil, err
	}
	return ownResult(tensor.ComponentsToProperties(dimensions))
}
