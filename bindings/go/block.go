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

// NewBlock makes a block from its values and the labels of their axes: samples for the first
// axis, one labels of a single dimension per middle axis, properties for the last axis. The
// values belong to the block from now on (they are destroyed when this fails); the labels
// stay the caller's, the block keeping its own references.
func NewBlock(values Array, samples *Labels, components []*Labels, properties *Labels) (*TensorBlock, error) {
	if values == nil {
		return nil, invalidf("NewBlock got nil values")
	}
	coreSamples, coreComponents, coreProperties, err := blockLabels(samples, components, properties)
	if err != nil {
		values.Destroy()
		return nil, err
	}
	block, err := core.NewBlock(values, coreSamples, coreComponents, coreProperties)
	runtime.KeepAlive(samples)
	runtime.KeepAlive(components)
	runtime.KeepAlive(properties)
	if err != nil {
		return nil, err
	}
	return ownBlock(block), nil
}

// blockLabels gives the core labels of a new block.
func blockLabels(samples *Labels, components []*Labels, properties *Labels) (
	coreSamples *core.ArrayLabels, coreComponents []*core.ArrayLabels, coreProperties *core.ArrayLabels, err error) {
	if coreSamples, err = samples.get(); err != nil {
		return nil, nil, nil, err
	}
	coreComponents = make([]*core.ArrayLabels, len(components))
	for i, component := range components {
		if coreComponents[i], err = component.get(); err != nil {
			return nil, nil, nil, err
		}
	}
	if coreProperties, err = properties.get(); err != nil {
		return nil, nil, nil, err
	}
	return coreSamples, coreComponents, coreProperties, nil
}

// Close frees an owned block, its values and its gradients; it does nothing on a view.
// Later calls do nothing.
func (b *TensorBlock) Close() {
	if b != nil && b.root == nil && b.owner.release(closed) {
		b.block.Free()
	}
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

// take moves an owned, live block out of its wrapper, which can no longer be used.
func (b *TensorBlock) take() *core.Block {
	b.owner.release(moved)
	return b.block
}

// checkMovable requires an owned, live block.
func (b *TensorBlock) checkMovable() error {
	if _, err := b.get(); err != nil {
		return err
	}
	if b.IsView() {
		return invalidf("a view into a TensorMap or TensorBlock can not be moved into another owner: Copy it first")
	}
	return nil
}

// Values gives the values array, which belongs to the block: do not destroy it.
func (b *TensorBlock) Values() Array { return must(b.get()).Values() }

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

// Labels gives the labels of one axis of the values: 0 for the samples, 1 to n for the n
// components, n+1 for the properties.
func (b *TensorBlock) Labels(axis int) (*Labels, error) {
	defer runtime.KeepAlive(b)
	block, err := b.get()
	if err != nil {
		return nil, err
	}
	if axis < 0 {
		return nil, invalidf("tried to get the labels for axis %d, axes are numbered from 0", axis)
	}
	labels, err := block.Labels(uint64(axis))
	if err != nil {
		return nil, err
	}
	return shareLabels(labels), nil
}

// AddGradient attaches gradient as the gradient of the values with respect to parameter.
// Its samples start with a "sample" dimension indexing the samples of b, its components end
// with those of b, and its properties are those of b. gradient must be an owned block: it
// moves into b, whether this succeeds or not (b.Gradient(parameter) gives it back). A view
// can not get new gradients.
func (b *TensorBlock) AddGradient(parameter string, gradient *TensorBlock) error {
	defer runtime.KeepAlive(b)
	block, err := b.get()
	if err != nil {
		return err
	}
	if b.IsView() {
		return invalidf("can not add a gradient to a block that is a view inside a TensorMap or TensorBlock")
	}
	if err := gradient.checkMovable(); err != nil {
		return err
	}
	if gradient.owner == b.owner {
		return invalidf("a block can not be its own gradient")
	}
	return block.AddGradient(parameter, gradient.take())
}

// Gradient gives a view of the gradient with respect to parameter.
func (b *TensorBlock) Gradient(parameter string) (*TensorBlock, error) {
	block, err := b.get()
	if err != nil {
		return nil, err
	}
	gradient, err := block.Gradient(parameter)
	if err != nil {
		return nil, err
	}
	return viewBlock(gradient, b.owner, b.rootValue()), nil
}

// GradientParameters gives the parameters of the gradients, in the order they were added.
func (b *TensorBlock) GradientParameters() []string {
	defer runtime.KeepAlive(b)
	gradients := must(b.get()).Gradients()
	parameters := make([]string, len(gradients))
	for i, g := range gradients {
		parameters[i] = g.Parameter
	}
	return parameters
}

// Copy makes an owned copy of the block: values and gradients are copied by their arrays,
// labels are shared.
func (b *TensorBlock) Copy() (*TensorBlock, error) {
	return with(b.get, func(block *core.Block) (*TensorBlock, error) { return owned(ownBlock)(block.Copy()) })
}
