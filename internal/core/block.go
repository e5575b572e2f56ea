package core

import (
	"fmt"
	"slices"
	"strings"
)

// Block is one block of a tensor map: a values array whose first axis is described by the
// samples, its middle axes by the components and its last axis by the properties, plus the
// gradients of these values, themselves blocks. A block owns its values and its gradients and
// holds a reference to each of its labels.
type Block struct {
	values     Array
	samples    *ArrayLabels
	components []*ArrayLabels
	properties *ArrayLabels
	gradients  []Gradient // in the order they were added
	// lent says that the binding's record keeps the labels' references and the values array
	// (Asked.Lent): a free of the block releases the record only.
	lent bool

	view View
}

// Gradient is the gradient of a block with respect to one parameter.
type Gradient struct {
	Parameter string
	Block     *Block
}

// NewBlock makes a block. The values belong to the block from now on, and are destroyed when
// this fails; the labels gain a reference only when it succeeds.
func NewBlock(values Array, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels) (*Block, error) {
	return NewBlockAsked(values, samples, components, properties, Asked{})
}

// NewBlockAsked is NewBlock going on from what was asked already: the values' shape, then
// the devices (see Asked).
func NewBlockAsked(values Array, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels, asked Asked) (*Block, error) {
	block := new(Block)
	if err := InitBlockAsked(block, values, samples, slices.Clone(components), properties, &asked); err != nil {
		return nil, err
	}
	return block, nil
}

// InitBlockAsked is NewBlockAsked making the block in place, in a zero Block the caller
// allocated (a binding making many blocks at once allocates them together). The block keeps
// the components slice, which the caller must not change afterwards. Asked comes by pointer:
// copied by value, the caller's fields just written were read back whole, a stall per block.
func InitBlockAsked(block *Block, values Array, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels, asked *Asked) error {
	if !asked.BlockChecked {
		if err := checkBlock(values, samples, components, properties, asked); err != nil {
			if !asked.Lent {
				values.Destroy()
			}
			return err
		}
	}
	block.values = values
	block.samples = samples
	block.components = components
	block.properties = properties
	block.lent = asked.Lent
	if !asked.Retained && !asked.Lent {
		block.retainLabels()
	}
	return nil
}

// checkBlock checks the values' shape against the labels, then the devices, then the
// components, going on from what was asked.
func checkBlock(values Array, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels, asked *Asked) error {
	shape := asked.Shape
	if !asked.HasShape {
		var small SmallShape
		var err error
		if shape, err = shapeInto(values, &small); err != nil {
			return err
		}
	}
	if err := checkBlockShape(shape, samples, components, properties); err != nil {
		return err
	}
	if err := checkBlockDevices(values, samples, components, properties, asked.Devices); err != nil {
		return err
	}
	for i, component := range components {
		if err := checkComponent(component, i); err != nil {
			return err
		}
	}
	return nil
}

// Lent tells whether the block's labels and values are lent by the binding's record
// (Asked.Lent), which releases them with itself.
func (b *Block) Lent() bool { return b.lent }

// OwnLent makes a block made with lent labels and values own them, as any other block: it
// takes references to its labels, and releases them and its values when freed. The binding
// lets go of its record's.
func (b *Block) OwnLent() {
	if b.lent {
		b.lent = false
		b.retainLabels()
	}
}

// checkBlockShape compares the values' shape with the labels' counts, in the reference's order.
func checkBlockShape(shape []uintptr, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels) error {
	if len(shape) != len(components)+2 {
		return Errorf(InvalidParameterError,
			"invalid block: the values have %d dimensions, but we have %d separate labels "+
				"(1 for samples, %d for components and 1 for properties)",
			len(shape), len(components)+2, len(components))
	}
	if shape[0] != uintptr(samples.Count()) {
		return Errorf(InvalidParameterError,
			"invalid block: the values shape along axis 0 is %d but we have %d sample label entries",
			shape[0], samples.Count())
	}
	for i := range components {
		for j := range i {
			if slices.Equal(components[i].Names(), components[j].Names()) {
				return Errorf(InvalidParameterError,
					"invalid block: some of the component dimensions appear more than once in component labels")
			}
		}
	}
	for i, component := range components {
		if shape[i+1] != uintptr(component.Count()) {
			return Errorf(InvalidParameterError,
				"invalid block: the values shape along axis %d is %d but we have %d entries for the corresponding component",
				i+1, shape[i+1], component.Count())
		}
	}
	last := len(shape) - 1
	if shape[last] != uintptr(properties.Count()) {
		return Errorf(InvalidParameterError,
			"invalid block: the values shape along axis %d is %d but we have %d property label entries",
			last, shape[last], properties.Count())
	}
	return nil
}

// checkBlockDevices requires every labels on the device of the values; asked holds the devices
// already asked, in the order of the checks, which ask the others.
func checkBlockDevices(values Array, samples *ArrayLabels, components []*ArrayLabels, properties *ArrayLabels, asked []Device) error {
	var device Device
	var err error
	if len(asked) > 0 {
		device = asked[0]
	} else if device, err = values.Device(); err != nil {
		return err
	}
	for i := range len(components) + 2 {
		labels, what := samples, "samples"
		if i == len(components)+1 {
			labels, what = properties, "properties"
		} else if i > 0 {
			labels, what = components[i-1], "components"
		}
		var other Device
		if i+1 < len(asked) {
			other = asked[i+1]
		} else if other, err = labels.Device(); err != nil {
			return err
		}
		if other != device {
			return Errorf(InvalidParameterError,
				"invalid block: values and %s must be on the same device, got '%s' and '%s'", what, device, other)
		}
	}
	return nil
}

// checkComponent requires component labels with one dimension and at least one entry.
func checkComponent(component *ArrayLabels, i int) error {
	if component.Size() != 1 {
		return Errorf(InvalidParameterError,
			"component labels must have a single dimension, got %d: %s for component %d",
			component.Size(), joinNames(component.Names()), i)
	}
	if component.Count() == 0 {
		return Errorf(InvalidParameterError,
			"component '%s' must contain at least one entry, got 0", component.Names()[0])
	}
	return nil
}

func (b *Block) retainLabels() {
	b.samples.Retain()
	for _, component := range b.components {
		component.Retain()
	}
	b.properties.Retain()
}

// Values gives the values array, which still belongs to the block.
func (b *Block) Values() Array { return b.values }

// Samples gives the labels of the first axis.
func (b *Block) Samples() *ArrayLabels { return b.samples }

// Components gives the labels of the middle axes; do not modify the slice.
func (b *Block) Components() []*ArrayLabels { return b.components }

// Properties gives the labels of the last axis.
func (b *Block) Properties() *ArrayLabels { return b.properties }

// View gives the slot of the binding's record for this block.
func (b *Block) View() *View { return &b.view }

// Labels gives the labels of one axis: 0 for the samples, 1 to n for the components, n+1 for
// the properties.
func (b *Block) Labels(axis uint64) (*ArrayLabels, error) {
	n := uint64(len(b.components))
	switch {
	case axis == 0:
		return b.samples, nil
	case axis <= n:
		return b.components[axis-1], nil
	case axis == n+1:
		return b.properties, nil
	}
	return nil, Errorf(InvalidParameterError,
		"tried to get the labels for axis %d, but we only have %d axes for this block", axis, n+2)
}

// Device gives the device of the values.
func (b *Block) Device() (Device, error) { return b.values.Device() }

// DType gives the element type of the values.
func (b *Block) DType() (DType, error) { return b.values.DType() }

// Gradients gives every gradient, in the order they were added; do not modify the slice.
func (b *Block) Gradients() []Gradient { return b.gradients }

// GradientParameters gives the parameters of the gradients, in the order they were added.
func (b *Block) GradientParameters() []string {
	parameters := make([]string, len(b.gradients))
	for i, g := range b.gradients {
		parameters[i] = g.Parameter
	}
	return parameters
}

// Gradient finds the gradient with respect to parameter.
func (b *Block) Gradient(parameter string) (*Block, error) {
	if gradient := b.gradient(parameter); gradient != nil {
		return gradient, nil
	}
	return nil, Errorf(InvalidParameterError, "can not find gradients with respect to '%s' in this block", parameter)
}

func (b *Block) gradient(parameter string) *Block {
	for _, g := range b.gradients {
		if g.Parameter == parameter {
			return g.Block
		}
	}
	return nil
}

// AddGradient attaches gradient as the gradient with respect to parameter. The gradient
// belongs to b from now on: when it is rejected, it is freed.
func (b *Block) AddGradient(parameter string, gradient *Block) (err error) {
	defer func() {
		if err != nil {
			gradient.Free()
		}
	}()
	if b.gradient(parameter) != nil {
		return Errorf(InvalidParameterError, "gradient with respect to '%s' already exists for this block", parameter)
	}
	if err := b.checkGradientData(gradient); err != nil {
		return err
	}
	if err := b.checkGradientSamples(gradient); err != nil {
		return err
	}
	if err := b.checkGradientLabels(gradient); err != nil {
		return err
	}
	b.AddCheckedGradient(parameter, gradient)
	return nil
}

// AddCheckedGradient adds a gradient whose caller made every check of AddGradient (bindings
// that check in another language); the block takes it over.
func (b *Block) AddCheckedGradient(parameter string, gradient *Block) {
	b.gradients = append(b.gradients, Gradient{Parameter: parameter, Block: gradient})
}

// checkGradientData requires the gradient's values to share the origin, device and dtype of
// the block's values.
func (b *Block) checkGradientData(gradient *Block) error {
	// compareArrays asks what describeArray would, in the same order, and lets a binding ask
	// both arrays at once.
	arrays := [2]Array{b.values, gradient.values}
	values, other, _, err := compareArrays(2, func(i int) Array { return arrays[i] })
	if err != nil {
		return err
	}
	return GradientDataError(values, other)
}

// GradientDataError is the error of checkGradientData given the descriptions of the block's
// values and of the gradient's.
func GradientDataError(values, gradient ArrayDescription) error {
	return descriptionMismatch{
		origin: "the gradient data has a different origin ('%s') than the value data ('%s')",
		device: "the gradient values are on device '%s' but the block values are on device '%s'",
		dtype:  "the gradient values have dtype '%s' but the block values have dtype '%s'",
	}.check(gradient, values)
}

// checkGradientSamples requires a first sample dimension "sample" whose values index the
// block's samples.
func (b *Block) checkGradientSamples(gradient *Block) error {
	samples := gradient.samples
	if samples.Size() == 0 {
		return Errorf(InvalidParameterError,
			"gradients samples must have at least one dimension, named 'sample', we got none")
	}
	if first := samples.Names()[0]; first != "sample" {
		return Errorf(InvalidParameterError,
			"'%s' is not valid for the first dimension in the gradients samples labels, it should be 'sample'", first)
	}
	if samples.Count() == 0 {
		return nil
	}
	device, err := samples.Device()
	if err != nil {
		return err
	}
	if device.Type == DeviceExtDev {
		return nil // nothing can be read there
	}
	cpu, err := samples.CPU()
	if err != nil {
		return err
	}
	lowest, highest := cpu.values[0], cpu.values[0]
	for i := range cpu.count {
		v := cpu.values[i*cpu.size]
		lowest, highest = min(lowest, v), max(highest, v)
	}
	return GradientSamplesError(lowest, highest, b.samples.Count())
}

// GradientSamplesError is the error of gradient samples whose "sample" values range from
// lowest to highest, for a block of `samples` samples.
func GradientSamplesError(lowest, highest int32, samples int) error {
	if lowest < 0 {
		return Errorf(InvalidParameterError,
			"invalid value for the 'sample' dimension in gradient samples: all values should be positive, but we got %d", lowest)
	}
	if int(highest) >= samples {
		return Errorf(InvalidParameterError,
			"invalid value for the 'sample' dimension in gradient samples: we got %d, but the values contain %d samples",
			highest, samples)
	}
	return nil
}

// checkGradientLabels requires the gradient's components to end with the block's, and its
// properties to equal the block's.
func (b *Block) checkGradientLabels(gradient *Block) error {
	for i, component := range gradient.components {
		if err := checkComponent(component, i); err != nil {
			return err
		}
	}
	if len(gradient.components) < len(b.components) {
		return Errorf(InvalidParameterError,
			"gradients components should contain at least as many labels as the values components")
	}
	equal, err := LabelsEqual(gradient.properties, b.properties)
	if err != nil {
		return err
	}
	if !equal {
		return GradientLabelsError(-1, "")
	}
	extra := len(gradient.components) - len(b.components)
	for i, component := range b.components {
		equal, err := LabelsEqual(gradient.components[extra+i], component)
		if err != nil {
			return err
		}
		if !equal {
			return GradientLabelsError(i, component.Names()[0])
		}
	}
	return nil
}

// GradientLabelsError is the error of gradient labels that differ from the block's: its
// properties (component -1), or the labels matching the block's component `component`, whose
// dimension is `name`.
func GradientLabelsError(component int, name string) error {
	if component < 0 {
		return Errorf(InvalidParameterError, "gradient properties must be the same as values properties")
	}
	return Errorf(InvalidParameterError,
		"gradients and values components mismatch for values component %d (dimension name is '%s'). "+
			"Components which are specific to the gradients must come first, and be followed by "+
			"the exact same components as the values.", component, name)
}

// Copy makes an independent block: the values and the gradients (recursively, in order) are
// copied by their arrays onto their current device; the labels are shared.
func (b *Block) Copy() (*Block, error) {
	copies, err := copyBlocks([]*Block{b})
	if err != nil {
		return nil, err
	}
	return copies[0], nil
}

// Free releases the values, the gradients and the references to the labels, then the
// binding's record. A nil block is ignored.
func (b *Block) Free() { b.FreeWith(DirectRelease{}) }

// FreeWith is Free, letting r release the arrays and records.
func (b *Block) FreeWith(r Releaser) { b.freeWith(r, forLabels(r), nil) }

// freeWith is FreeWith, labels releasing the labels that go (forLabels(r)), the block's
// samples and properties released through runs when not nil (the blocks of a tensor map,
// freed one after the other).
func (b *Block) freeWith(r, labels Releaser, runs *labelsRuns) {
	if b == nil {
		return
	}
	for _, g := range b.gradients {
		g.Block.freeWith(r, labels, nil)
	}
	b.gradients = nil
	if b.lent {
		// The record releases the values and the labels with itself.
		b.values, b.samples, b.components, b.properties = nil, nil, nil, nil
		b.view.releaseWith(r)
		return
	}
	if b.values != nil {
		r.DestroyArray(b.values)
		b.values = nil
	}
	runs.release(labels, 0, b.samples)
	for _, component := range b.components {
		component.ReleaseNWith(1, labels)
	}
	runs.release(labels, 1, b.properties)
	b.samples, b.components, b.properties = nil, nil, nil
	// Last: a binding may keep the values array in the record (the C library does).
	b.view.releaseWith(r)
}

// LabelsEqual tells whether two labels have the same names, entries and device, reading their
// values only when everything else agrees. Labels both on the meta device are equal when the
// rest agrees, since their values can not be read.
func LabelsEqual(a, b *ArrayLabels) (bool, error) {
	if a == b {
		return true, nil
	}
	if a.Count() != b.Count() || !slices.Equal(a.Names(), b.Names()) {
		return false, nil
	}
	deviceA, deviceB, err := both(a, b, (*ArrayLabels).Device)
	if err != nil {
		return false, err
	}
	if deviceA != deviceB {
		return false, nil
	}
	if deviceA.Type == DeviceExtDev {
		return true, nil
	}
	cpuA, cpuB, err := both(a, b, (*ArrayLabels).CPU)
	if err != nil {
		return false, err
	}
	return slices.Equal(cpuA.values, cpuB.values), nil
}

// joinNames prints names as the tensor map messages do: [a, b].
func joinNames(names []string) string {
	return "[" + strings.Join(names, ", ") + "]"
}

// String describes the block's shape and labels, for debugging.
func (b *Block) String() string {
	parts := []string{"samples " + joinNames(b.samples.Names())}
	for _, c := range b.components {
		parts = append(parts, "component "+joinNames(c.Names()))
	}
	parts = append(parts, "properties "+joinNames(b.properties.Names()))
	return fmt.Sprintf("Block(%s, %d gradients)", strings.Join(parts, ", "), len(b.gradients))
}
