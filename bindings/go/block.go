package metatensor

import (
	"runtime"

	"github.com/metatensor-go/metatensor/internal/core"
)

// TensorBlock is one block of a tensor map: an Array of values whose first axis is described
// by the samples, its middle axes by the components and its last axis by the properties, and
// the gradients of these values with respect to some parameters, themselves blocks.
//
// A block is either owned (made by NewBlock, Copy or a loader; Close frees it) or a view into
// a tensor map or another block (Close does nothing). An owned block moves into the tensor
// map or block it is given to; see the package documentation.
type TensorBlock struct {
	block *core.Block
	owner *owner
	// root is the Go value owning the tree this block is a view into, kept reachable for as
	// long as the view is; nil for an owned block.
	root any
}

// ownBlock wraps a core block that nothing else owns.
func ownBlock(block *core.Block) *TensorBlock {
	b := &TensorBlock{block: block}
	b.owner = newOwner(b, block.Free)
	return b
}

// viewBlock wraps a core block that belongs to the tree of owner, owned by root.
func viewBlock(block *core.Block, owner *owner, root any) *TensorBlock {
	return &TensorBlock{block: block, owner: owner, root: root}
}

// closing ends a live owned block, once, for Close; views are left alone.
func (b *TensorBlock) closing() bool {
	return b != nil && b.root == nil && b.owner.release(closed)
}

// IsView tells whether b is a view into a tensor map or another block.
func (b *TensorBlock) IsView() bool { return b.root != nil }

// get gives the core block, or the error of a block that is closed or moved.
func (b *TensorBlock) get() (*core.Block, error) {
	if b == nil {
		return nil, invalidf("got nil TensorBlock")
	}
	if err := b.owner.check("TensorBlock"); err != nil {
		return nil, err
	}
	return b.block, nil
}

// rootValue gives the value that owns the tree of b, to keep in b's views.
func (b *TensorBlock) rootValue() any {
	if b.root != nil {
		return b.root
	}
	return b
}

// viewTensorBlock gives a view of a block of the tree of b: one of its gradients.
func (b *TensorBlock) viewTensorBlock(block *core.Block) *TensorBlock {
	return viewBlock(block, b.owner, b.rootValue())
}

// Shape gives the shape of the values.
func (b *TensorBlock) Shape() ([]int, error) {
	defer runtime.KeepAlive(b)
	block, err := b.get()
	if err != nil {
		return nil, err
	}
	shape, err := block.Values().Shape()
	if err != nil {
		return nil, err
	}
	return intShape(shape), nil
}

// Samples gives the labels of the first axis of the values.
func (b *TensorBlock) Samples() *Labels {
	defer runtime.KeepAlive(b)
	return shareLabels(must(b.get()).Samples())
}

// Components gives the labels of the middle axes of the values, one per axis.
func (b *TensorBlock) Components() []*Labels {
	defer runtime.KeepAlive(b)
	components := must(b.get()).Components()
	labels := make([]*Labels, len(components))
	for i, component := range components {
		labels[i] = shareLabels(component)
	}
	return labels
}

// Properties gives the labels of the last axis of the values.
func (b *TensorBlock) Properties() *Labels {
	defer runtime.KeepAlive(b)
	return shareLabels(must(b.get()).Properties())
}
