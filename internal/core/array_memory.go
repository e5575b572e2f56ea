package core

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"unsafe"
)

// maxArrayBytes bounds the arrays the core allocates itself. It stays below the Go runtime's
// own allocation limit, so that an absurd shape is an error instead of a panic in make.
const maxArrayBytes = min(1<<47, math.MaxInt)

// formatShape prints a shape as the reference's messages do (Rust's debug format): "[2, 3]".
func formatShape[T ~int64 | ~uintptr](shape []T) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", d)
	}
	b.WriteByte(']')
	return b.String()
}

// shapeElements gives the number of elements of a shape, or false when elements of
// elementSize bytes in that shape could not be allocated, or could not be described to DLPack.
// DLPack strides are int64 and a stride is a product of later axes even when an earlier axis
// is 0, so the product with every 0 counted as 1 must fit too.
func shapeElements(shape []uintptr, elementSize int) (int, bool) {
	loose := uint64(1)
	count := uint64(1) // never above loose, so it can not overflow
	for _, d := range shape {
		hi, lo := bits.Mul64(loose, max(uint64(d), 1))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		loose = lo
		count *= uint64(d)
	}
	hi, lo := bits.Mul64(count, uint64(elementSize))
	if hi != 0 || lo > maxArrayBytes {
		return 0, false
	}
	return int(count), true
}

// rowMajorStrides gives the explicit strides, in elements, of a contiguous row-major array.
// The shape must have passed shapeElements, which guarantees these products fit.
func rowMajorStrides(shape []uintptr) []int64 {
	strides := make([]int64, len(shape))
	stride := int64(1)
	for axis := len(shape) - 1; axis >= 0; axis-- {
		strides[axis] = stride
		stride *= int64(max(shape[axis], 1))
	}
	return strides
}

// int64Shape converts a shape for a DLPack tensor; shapeElements has bounded every axis.
func int64Shape(shape []uintptr) []int64 {
	out := make([]int64, len(shape))
	for i, d := range shape {
		out[i] = int64(d)
	}
	return out
}

// alignedBytes allocates n zeroed bytes aligned to 8, the strictest alignment of the element
// types arrays hold, so that typed views of the bytes are valid.
func alignedBytes(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	words := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n)
}

// readableTensor checks what reading a tensor with CopyContiguous relies on, and gives its
// shape and element count. It can not check that the memory behind Data is as large as the
// strides say: that is the producer's promise. context starts every message.
func readableTensor(t *Tensor, context string) ([]uintptr, int, error) {
	if t.Strides != nil && len(t.Strides) != len(t.Shape) {
		return nil, 0, Errorf(InvalidParameterError,
			"%s: the tensor has %d strides for %d dimensions", context, len(t.Strides), len(t.Shape))
	}
	shape := make([]uintptr, len(t.Shape))
	for i, d := range t.Shape {
		if d < 0 || uint64(d) > uint64(^uintptr(0)) {
			return nil, 0, Errorf(InvalidParameterError,
				"%s: invalid tensor shape %s", context, formatShape(t.Shape))
		}
		shape[i] = uintptr(d)
	}
	size := t.DType.ElementSize()
	if size == 0 {
		return nil, 0, Errorf(InvalidParameterError,
			"%s: can not read elements of dtype %s", context, t.DType)
	}
	n, ok := shapeElements(shape, size)
	if !ok {
		return nil, 0, Errorf(InvalidParameterError,
			"%s: a tensor of shape %s and dtype %s is too large", context, formatShape(t.Shape), t.DType)
	}
	if n > 0 && t.Data == nil {
		return nil, 0, Errorf(InvalidParameterError,
			"%s: the tensor has %d elements but a NULL data pointer", context, n)
	}
	return shape, n, nil
}
