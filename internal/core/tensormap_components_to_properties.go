package core

import (
	"errors"
	"slices"
)

// ComponentsToProperties makes a new tensor map in which the named component dimensions of every
// block, and of every gradient (gradients of gradients included), have become property dimensions
// (docs/reference-behaviour.md#components-to-properties). t is not modified: its blocks are copied
// first (as by Copy, the info keeping its order), then each name is moved in turn, block by block.
//
// Moving a component d out of axis c+1 of a block whose properties are P gives the properties
// [d, P...]: each entry of d combined with each entry of P, d varying slowest, in labels built
// like P (docs/reference-behaviour.md#labels-built-like). Each name is put in front of the
// properties, so moving ["a", "b"] gives [b, a, P...]. The copied values array is changed in
// place by SwapAxes(c+1, last-1), then Reshape to the old shape without axis c+1 and with
// count(d)×count(P) properties. As in the reference, these two calls only move the data as
// expected when d is one of the last two components: with three components or more, moving an
// earlier one also exchanges the order of the last component and the one after d in memory,
// while their labels keep their order.
//
// Errors:
//   - dimensions empty: the reference panics (internal error); here this is an
//     InvalidParameterError, before anything is copied;
//   - a block (or gradient) without the component d: "unable to find 'd' in the components "
//     (with the trailing space);
//   - d already a property dimension: the reference panics while building the properties; this
//     gives the same InternalError message;
//   - errors of the arrays' callbacks (Copy, Shape, SwapAxes, Reshape, and those of the labels
//     built like the old properties) are returned as they are.
//
// On error the partial result is freed: nothing leaks and the labels' references are back to
// what they were.
func (t *TensorMap) ComponentsToProperties(dimensions []string) (*TensorMap, error) {
	if len(dimensions) == 0 {
		return nil, Errorf(InvalidParameterError,
			"at least one dimension must be given to components_to_properties, got none")
	}
	result, err := t.Copy()
	if err != nil {
		return nil, err
	}
	for _, block := range result.blocks {
		for _, dimension := range dimensions {
			if err := block.componentToProperties(dimension); err != nil {
				result.Free()
				return nil, err
			}
		}
	}
	return result, nil
}

// componentToProperties moves the component named dimension of b, then of its gradients
// (recursively), to the front of the properties. b must be a private copy: its values array is
// reshaped in place. When this fails, b stays consistent enough to be freed: its labels are
// replaced only after every call on the values array succeeded.
func (b *Block) componentToProperties(dimension string) error {
	axis := slices.IndexFunc(b.components, func(component *ArrayLabels) bool {
		return component.Names()[0] == dimension
	})
	if axis < 0 {
		return Errorf(InvalidParameterError, "unable to find '%s' in the components ", dimension)
	}
	component := b.components[axis]

	properties, err := movedProperties(component, b.properties)
	if err != nil {
		return err
	}
	if err := b.mergeAxisIntoProperties(axis+1, properties.Count()); err != nil {
		properties.Release()
		return err
	}

	components := make([]*ArrayLabels, 0, len(b.components)-1)
	components = append(components, b.components[:axis]...)
	components = append(components, b.components[axis+1:]...)
	b.components = components
	component.Release()
	b.properties.Release()
	b.properties = properties

	for _, g := range b.gradients {
		if err := g.Block.componentToProperties(dimension); err != nil {
			return err
		}
	}
	return nil
}

// movedProperties builds the properties [component, old...]: every entry of the component
// followed by every entry of the old properties, the component varying slowest. The rows are
// unique by construction; the labels are placed like the old properties and hold one
// reference, which the caller owns.
func movedProperties(component, old *ArrayLabels) (*ArrayLabels, error) {
	componentCPU, oldCPU, err := both(component, old, (*ArrayLabels).CPU)
	if err != nil {
		return nil, err
	}

	names := make([]string, 0, 1+old.Size())
	names = append(names, component.Names()...)
	names = append(names, old.Names()...)
	if err := validateLabelNames(names); err != nil {
		// The reference panics here: report it as its panic reads.
		var invalid *Error
		if errors.As(err, &invalid) {
			return nil, Errorf(InternalError,
				"invalid labels in components_to_properties: InvalidParameter(\"%s\")", invalid.Message)
		}
		return nil, err
	}

	size := len(names)
	values := make([]int32, 0, componentCPU.Count()*oldCPU.Count()*size)
	for i := range componentCPU.Count() {
		for j := range oldCPU.Count() {
			values = append(values, componentCPU.Row(i)...)
			values = append(values, oldCPU.Row(j)...)
		}
	}
	return old.likeRows(names, values, false)
}

// mergeAxisIntoProperties folds the component axis into the last one of the values, with the
// reference's two calls: SwapAxes(axis, last-1), then Reshape to the shape without axis and
// with properties entries along the last axis.
func (b *Block) mergeAxisIntoProperties(axis, properties int) error {
	shape, err := b.values.Shape()
	if err != nil {
		return err
	}
	if len(shape) != len(b.components)+2 {
		return Errorf(InternalError,
			"the values of a block with %d components have %d dimensions", len(b.components), len(shape))
	}
	last := len(shape) - 1
	newShape := make([]uintptr, 0, last)
	newShape = append(newShape, shape[:axis]...)
	newShape = append(newShape, shape[axis+1:last]...)
	newShape = append(newShape, uintptr(properties))

	if err := b.values.SwapAxes(uintptr(axis), uintptr(last-1)); err != nil {
		return err
	}
	return b.values.Reshape(newShape)
}
