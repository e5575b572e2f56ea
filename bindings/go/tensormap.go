package metatensor

import "github.com/metatensor-go/metatensor/internal/core"

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

// closing ends a live tensor map, once, for Close.
func (t *TensorMap) closing() bool { return t != nil && t.owner.release(closed) }

// viewTensorBlock gives a view of one of the blocks of t.
func (t *TensorMap) viewTensorBlock(block *core.Block) *TensorBlock {
	return viewBlock(block, t.owner, t)
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

// Len gives the number of blocks.
func (t *TensorMap) Len() int { return len(must(t.get()).Blocks()) }

// BlocksMatching gives the indexes of the blocks whose keys match selection, as
// Labels.Select does on the keys.
func (t *TensorMap) BlocksMatching(selection *Labels) ([]int, error) {
	keys := t.Keys()
	defer keys.Close()
	return keys.Select(selection)
}
