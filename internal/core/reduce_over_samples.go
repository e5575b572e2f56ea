package core

import (
	"slices"
	"strings"
	"unsafe"
)

// Reductions over samples (docs/reference-behaviour.md#reductions-over-samples): the samples
// that differ only in the removed dimensions are combined into one, in the values and in
// every gradient, as metatensor-operations' sum_over_samples family does.

// ReduceOverSamples reduces every block of the tensor map over the sample dimensions names.
// The keys are the tensor map's; the info is not kept, as in metatensor-operations.
func (t *TensorMap) ReduceOverSamples(names []string, op SampleReduction, ignoreNaN bool) (*TensorMap, error) {
	if t == nil {
		return nil, Errorf(InvalidParameterError, "got invalid NULL pointer for tensor")
	}
	blocks, err := t.mapBlocks(func(block *Block) (*Block, error) { return block.ReduceOverSamples(names, op, ignoreNaN) })
	if err != nil {
		return nil, err
	}
	t.keys.Retain()
	return newTensorMapFrom(t.keys, blocks, Info{})
}

// ReduceOverSamplesNamed is ReduceOverSamples with the reduction given by its name.
func (t *TensorMap) ReduceOverSamplesNamed(names []string, reduction string, ignoreNaN bool) (*TensorMap, error) {
	op, err := ParseSampleReduction(reduction)
	if err != nil {
		return nil, err
	}
	return t.ReduceOverSamples(names, op, ignoreNaN)
}

// ReduceOverSamplesNamed is ReduceOverSamples with the reduction given by its name.
func (b *Block) ReduceOverSamplesNamed(names []string, reduction string, ignoreNaN bool) (*Block, error) {
	op, err := ParseSampleReduction(reduction)
	if err != nil {
		return nil, err
	}
	return b.ReduceOverSamples(names, op, ignoreNaN)
}

// ReduceOverSamples reduces the block over the sample dimensions names: the new samples are
// the distinct values of the other dimensions, sorted. Values and gradients must be f64, f32,
// i32 or i64 on the CPU; mean, var and std need floating point values. Max and min propagate
// NaN, or skip it with ignoreNaN (which the other reductions refuse). The result's arrays
// come from the block's values array through its from_dlpack.
func (b *Block) ReduceOverSamples(names []string, op SampleReduction, ignoreNaN bool) (*Block, error) {
	if b == nil {
		return nil, Errorf(InvalidParameterError, "got invalid NULL pointer for block")
	}
	if op < SamplesSum || op > SamplesMin {
		return nil, Errorf(InvalidParameterError, "unknown reduction over samples %d", int(op))
	}
	if ignoreNaN && op != SamplesMax && op != SamplesMin {
		return nil, Errorf(InvalidParameterError, "ignore_nan only applies to max and min, not to %s", op)
	}
	keep, err := keptSampleColumns(b.samples.Names(), names)
	if err != nil {
		return nil, err
	}
	dtype, err := checkReducible(b, op)
	if err != nil {
		return nil, err
	}
	switch dtype {
	case DType{Code: CodeFloat, Bits: 64, Lanes: 1}:
		return reduceBlock[float64](b, keep, op, ignoreNaN)
	case DType{Code: CodeFloat, Bits: 32, Lanes: 1}:
		return reduceBlock[float32](b, keep, op, ignoreNaN)
	case DType{Code: CodeInt, Bits: 64, Lanes: 1}:
		return reduceBlock[int64](b, keep, op, ignoreNaN)
	default:
		return reduceBlock[int32](b, keep, op, ignoreNaN)
	}
}

// keptSampleColumns gives the positions of the sample dimensions that are not removed.
func keptSampleColumns(sampleNames, removed []string) ([]int, error) {
	for _, name := range removed {
		if !slices.Contains(sampleNames, name) {
			return nil, Errorf(InvalidParameterError,
				"'%s' is not one of the sample dimensions (%s)", name, strings.Join(sampleNames, ", "))
		}
	}
	var keep []int
	for i, name := range sampleNames {
		if !slices.Contains(removed, name) {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		return nil, Errorf(InvalidParameterError,
			"can not remove every sample dimension (%s): at least one must remain", strings.Join(sampleNames, ", "))
	}
	return keep, nil
}

// checkReducible requires values and gradients on the CPU, all of one dtype a reduction
// works on, and no gradients of gradients. It gives that dtype.
func checkReducible(b *Block, op SampleReduction) (DType, error) {
	dtype, err := b.values.DType()
	if err != nil {
		return DType{}, err
	}
	switch {
	case dtype.Lanes != 1 || (dtype.Code != CodeFloat && dtype.Code != CodeInt) || (dtype.Bits != 32 && dtype.Bits != 64):
		return DType{}, Errorf(InvalidParameterError,
			"can not reduce over samples values of dtype %s: only f64, f32, i64 and i32 are supported", dtype)
	case dtype.Code == CodeInt && op.needsFloat():
		return DType{}, Errorf(InvalidParameterError,
			"can not take the %s over samples of %s values: it needs floating point values", op, dtype)
	}
	arrays := []Array{b.values}
	for _, g := range b.gradients {
		if len(g.Block.gradients) != 0 {
			return DType{}, Errorf(InvalidParameterError, "gradients of gradients are not supported in reductions over samples")
		}
		arrays = append(arrays, g.Block.values)
	}
	for _, array := range arrays {
		device, err := array.Device()
		if err != nil {
			return DType{}, err
		}
		if device.Type != DeviceCPU {
			return DType{}, Errorf(InvalidParameterError,
				"can not reduce over samples data on %s: only data on the CPU is supported", device)
		}
		other, err := array.DType()
		if err != nil {
			return DType{}, err
		}
		if other != dtype {
			return DType{}, Errorf(InvalidParameterError,
				"can not reduce over samples a block mixing dtypes: the values are %s, a gradient is %s", dtype, other)
		}
	}
	return dtype, nil
}

// reduceBlock is ReduceOverSamples for elements of type T.
func reduceBlock[T Reducible](b *Block, keep []int, op SampleReduction, ignoreNaN bool) (*Block, error) {
	cpu, err := b.samples.CPU()
	if err != nil {
		return nil, err
	}
	rows := make([]int32, 0, cpu.count*len(keep))
	for i := range cpu.count {
		row := cpu.row(i)
		for _, c := range keep {
			rows = append(rows, row[c])
		}
	}
	unique, sampleGroups := sortedUniqueRows(rows, len(keep))
	g := groupsOf(sampleGroups, len(unique)/len(keep))

	x, shape, release, err := readValues[T](b.values)
	if err != nil {
		return nil, err
	}
	defer release()
	xInner := elementsPerRow(shape)
	r, err := reduceSampleValues(op, x, xInner, g, ignoreNaN, len(b.gradients) > 0)
	if err != nil {
		return nil, err
	}
	// every gradient is reduced before the values go to their array: the arrays may recycle
	// the memory of the results they are given (resultTensor), and the gradients of var and
	// std read the reduced values
	gradients := make([]reducedGradient[T], len(b.gradients))
	for i, gradient := range b.gradients {
		if gradients[i], err = reduceGradient(gradient, op, x, xInner, r, sampleGroups); err != nil {
			return nil, err
		}
	}
	values, err := arrayLike(b.values, shape, len(g.counts), r.values)
	if err != nil {
		return nil, err
	}
	samples, err := sortedLabelsLike(b.samples, keptNames(b.samples.Names(), keep), unique)
	if err != nil {
		values.Destroy()
		return nil, err
	}
	defer samples.Release()
	block, err := NewBlock(values, samples, b.components, b.properties)
	if err != nil {
		return nil, invalidResultError("constructed an invalid block", err)
	}
	for i, gradient := range b.gradients {
		if err := addReducedGradient(block, gradient, gradients[i]); err != nil {
			block.Free()
			return nil, err
		}
	}
	return block, nil
}

// reducedGradient is the reduction of a gradient, before it goes to an array.
type reducedGradient[T Reducible] struct {
	values []T       // from resultBuffer
	shape  []uintptr // the gradient's shape, its first axis to be replaced by the new rows
	rows   []int32   // the new samples, sorted
	count  int       // the number of new samples
}

// reduceGradient reduces gradient, whose samples' first column is sent to the reduced samples
// before the rows are grouped (sorted).
func reduceGradient[T Reducible](gradient Gradient, op SampleReduction, x []T, xInner int, r reducedValues[T], sampleGroups []int) (reducedGradient[T], error) {
	cpu, err := gradient.Block.samples.CPU()
	if err != nil {
		return reducedGradient[T]{}, err
	}
	width := cpu.size
	rows := slices.Clone(cpu.values)
	plan := gradientPlan{oldSample: make([]int, cpu.count)}
	for i := range cpu.count {
		old := int(rows[i*width])
		if old < 0 || old >= len(sampleGroups) {
			return reducedGradient[T]{}, Errorf(InternalError,
				"gradient sample %d refers to sample %d, but the block has %d samples", i, old, len(sampleGroups))
		}
		plan.oldSample[i] = old
		rows[i*width] = int32(sampleGroups[old])
	}
	unique, rowGroups := sortedUniqueRows(rows, width)
	count := 0
	if width > 0 {
		count = len(unique) / width
	}
	plan.rows = groupsOf(rowGroups, count)
	plan.newSample = make([]int, count)
	for row := range count {
		plan.newSample[row] = int(unique[row*width])
	}

	gv, shape, release, err := readValues[T](gradient.Block.values)
	if err != nil {
		return reducedGradient[T]{}, err
	}
	defer release()
	reduced, err := reduceGradientValues(op, gv, elementsPerRow(shape), plan, x, xInner, r, sampleGroups)
	return reducedGradient[T]{values: reduced, shape: shape, rows: unique, count: count}, err
}

// addReducedGradient gives the reduction of gradient to an array like the block's values and
// adds it to block.
func addReducedGradient[T Reducible](block *Block, gradient Gradient, reduced reducedGradient[T]) error {
	values, err := arrayLike(block.values, reduced.shape, reduced.count, reduced.values)
	if err != nil {
		return err
	}
	samples, err := sortedLabelsLike(gradient.Block.samples, gradient.Block.samples.Names(), reduced.rows)
	if err != nil {
		values.Destroy()
		return err
	}
	defer samples.Release()
	return addMergedGradient(block, gradient, values, samples)
}

// keptNames gives the names at the positions keep.
func keptNames(names []string, keep []int) []string {
	kept := make([]string, len(keep))
	for i, c := range keep {
		kept[i] = names[c]
	}
	return kept
}

// sortedLabelsLike makes labels (one reference for the caller) from sorted distinct rows,
// built like like.
func sortedLabelsLike(like *ArrayLabels, names []string, rows []int32) (*ArrayLabels, error) {
	if err := validateLabelNames(names); err != nil {
		return nil, invalidLabelsError("invalid labels in a reduction over samples", err)
	}
	return like.likeRows(names, rows, true)
}

// elementsPerRow is the number of elements of one entry along the first axis.
func elementsPerRow(shape []uintptr) int {
	n := 1
	for _, d := range shape[1:] {
		n *= int(d)
	}
	return n
}

// readValues reads a CPU array of elements of type T through a DLPack export, without a copy
// when its memory is row-major. release ends the export.
func readValues[T Reducible](a Array) (values []T, shape []uintptr, release func(), err error) {
	tensor, err := a.AsDLPack(CPU, nil, CurrentDLPack)
	if err != nil {
		return nil, nil, nil, err
	}
	shape, n, err := readableTensor(tensor, "invalid array in a reduction over samples")
	if want, _ := DTypeOf[T](); err == nil && tensor.DType != want {
		err = Errorf(InvalidParameterError,
			"invalid array in a reduction over samples: its DLPack export is %s, not %s", tensor.DType, want)
	}
	if err == nil && len(shape) < 2 {
		err = Errorf(InternalError, "a block array has shape %s, with less than 2 axes", formatShape(shape))
	}
	if err != nil {
		tensor.Release()
		return nil, nil, nil, err
	}
	if n == 0 {
		tensor.Release()
		return []T{}, shape, func() {}, nil
	}
	if !tensor.IsRowMajor() {
		buffer := make([]T, n)
		CopyContiguous(unsafe.Slice((*byte)(unsafe.Pointer(&buffer[0])), n*int(unsafe.Sizeof(buffer[0]))), tensor)
		tensor.Release()
		return buffer, shape, func() {}, nil
	}
	data := unsafe.Slice((*T)(unsafe.Add(tensor.Data, tensor.ByteOffset)), n)
	return data, shape, tensor.Release, nil
}

// arrayLike makes an array of the kind of like holding data (from resultBuffer), of shape
// with rows entries along the first axis, through like's from_dlpack.
func arrayLike[T Reducible](like Array, shape []uintptr, rows int, data []T) (Array, error) {
	dtype, err := like.DType()
	if err != nil {
		return nil, err
	}
	out := slices.Clone(shape)
	out[0] = uintptr(rows)
	view := Tensor{
		Version: CurrentDLPack,
		Device:  CPU,
		DType:   dtype,
		Shape:   int64Shape(out),
		Strides: rowMajorStrides(out),
	}
	created, err := like.FromDLPack(resultTensor(view, data))
	if err != nil {
		return nil, err
	}
	if created == nil {
		return nil, Errorf(InternalError, "mts_array_t.from_dlpack succeeded without giving an array")
	}
	return created, nil
}
