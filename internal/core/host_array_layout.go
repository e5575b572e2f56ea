package core

import (
	"fmt"
	"slices"
	"unsafe"
)

// Reshape gives the array a new shape with the same number of elements; the row-major order
// of the data does not change.
func (a *HostArray) Reshape(shape []uintptr) error {
	if err := a.lock("Reshape"); err != nil {
		return err
	}
	defer a.mu.Unlock()
	size := a.dtype.ElementSize()
	n, ok := shapeElements(shape, size)
	if have := len(a.data) / size; !ok || n != have {
		return Errorf(InvalidParameterError,
			"invalid `shape` %s for HostArray.Reshape: the array has shape %s (%d elements)",
			formatShape(shape), formatShape(a.shape), have)
	}
	a.setShape(shape)
	return nil
}

// SwapAxes exchanges two axes, moving the data so that it stays row-major. The data stays in
// the same memory, so that pointers to it (DLPack exports) see the new layout.
func (a *HostArray) SwapAxes(axis1, axis2 uintptr) error {
	if err := a.lock("SwapAxes"); err != nil {
		return err
	}
	defer a.mu.Unlock()
	ndim := uintptr(len(a.shape))
	if axis1 >= ndim {
		return Errorf(InvalidParameterError,
			"invalid `axis_1` %d for HostArray.SwapAxes: the array has %d dimensions", axis1, ndim)
	}
	if axis2 >= ndim {
		return Errorf(InvalidParameterError,
			"invalid `axis_2` %d for HostArray.SwapAxes: the array has %d dimensions", axis2, ndim)
	}
	if axis1 == axis2 {
		return nil
	}
	first, second := min(axis1, axis2), max(axis1, axis2)

	// Seen as [outer, n1, middle, n2, inner] with inner in bytes, the swap turns element
	// (o, i, m, j) into (o, j, m, i); each inner run moves in one copy.
	product := func(axes []uintptr) int {
		p := 1
		for _, d := range axes {
			p *= int(d)
		}
		return p
	}
	outer := product(a.shape[:first])
	n1, n2 := int(a.shape[first]), int(a.shape[second])
	middle := product(a.shape[first+1 : second])
	inner := product(a.shape[second+1:]) * a.dtype.ElementSize()

	if len(a.data) > 0 {
		swapped := make([]byte, len(a.data))
		for o := range outer {
			for i := range n1 {
				for m := range middle {
					for j := range n2 {
						from := (((o*n1+i)*middle+m)*n2 + j) * inner
						to := (((o*n2+j)*middle+m)*n1 + i) * inner
						copy(swapped[to:to+inner], a.data[from:from+inner])
					}
				}
			}
		}
		copy(a.data, swapped)
	}
	a.shape[first], a.shape[second] = a.shape[second], a.shape[first]
	return nil
}

// MoveData copies, for each movement, input[sample_in, ..., properties_start_in + x] into
// this array at [sample_out, ..., properties_start_out + x], for x below properties_length and
// every index of the axes between the first (samples) and the last (properties). input must
// be a HostArray of the same dtype and the same middle axes. Every movement is checked before
// anything is written, so a failed call leaves the array unchanged.
func (a *HostArray) MoveData(input Array, movements []DataMovement) error {
	in, ok := input.(*HostArray)
	if !ok {
		return Errorf(InvalidParameterError,
			"invalid `input` for HostArray.MoveData: expected a HostArray, got %s", arrayTypeName(input))
	}
	if in == nil {
		return Errorf(InvalidParameterError, "invalid `input` for HostArray.MoveData: it is nil")
	}
	if a == nil {
		return Errorf(InvalidParameterError, "HostArray.MoveData called on a nil array")
	}
	unlock := lockForMove(a, in)
	defer unlock()
	if err := a.usable("MoveData"); err != nil {
		return err
	}
	if err := in.usable("MoveData"); err != nil {
		return Errorf(InvalidParameterError, "invalid `input` for HostArray.MoveData: %s", err.Message)
	}
	if in.dtype != a.dtype {
		return Errorf(InvalidParameterError,
			"invalid `input` for HostArray.MoveData: its dtype is %s, but the output dtype is %s", in.dtype, a.dtype)
	}
	ndim := len(a.shape)
	if ndim < 2 {
		return Errorf(InvalidParameterError,
			"HostArray.MoveData needs arrays with samples and properties axes, the output has shape %s",
			formatShape(a.shape))
	}
	if len(in.shape) != ndim || !slices.Equal(in.shape[1:ndim-1], a.shape[1:ndim-1]) {
		return Errorf(InvalidParameterError,
			"invalid `input` for HostArray.MoveData: its shape %s does not match the output shape %s "+
				"outside of the first and last axes", formatShape(in.shape), formatShape(a.shape))
	}

	samplesIn, samplesOut := in.shape[0], a.shape[0]
	propertiesIn, propertiesOut := in.shape[ndim-1], a.shape[ndim-1]
	for i, m := range movements {
		if m.SampleIn >= samplesIn {
			return Errorf(InvalidParameterError,
				"invalid `movements[%d]` for HostArray.MoveData: sample_in %d is out of bounds for an input with %d samples",
				i, m.SampleIn, samplesIn)
		}
		if m.SampleOut >= samplesOut {
			return Errorf(InvalidParameterError,
				"invalid `movements[%d]` for HostArray.MoveData: sample_out %d is out of bounds for an output with %d samples",
				i, m.SampleOut, samplesOut)
		}
		if !rangeFits(m.PropertiesStartIn, m.PropertiesLength, propertiesIn) {
			return Errorf(InvalidParameterError,
				"invalid `movements[%d]` for HostArray.MoveData: %d properties from %d are out of bounds for an input with %d properties",
				i, m.PropertiesLength, m.PropertiesStartIn, propertiesIn)
		}
		if !rangeFits(m.PropertiesStartOut, m.PropertiesLength, propertiesOut) {
			return Errorf(InvalidParameterError,
				"invalid `movements[%d]` for HostArray.MoveData: %d properties from %d are out of bounds for an output with %d properties",
				i, m.PropertiesLength, m.PropertiesStartOut, propertiesOut)
		}
	}

	// Both arrays exist in memory, so every index below fits in an int.
	size := a.dtype.ElementSize()
	components := 1
	for _, d := range a.shape[1 : ndim-1] {
		components *= int(d)
	}
	rowIn, rowOut := int(propertiesIn)*size, int(propertiesOut)*size
	for _, m := range movements {
		length := int(m.PropertiesLength) * size
		if length == 0 {
			continue
		}
		from := (int(m.SampleIn)*components)*rowIn + int(m.PropertiesStartIn)*size
		to := (int(m.SampleOut)*components)*rowOut + int(m.PropertiesStartOut)*size
		for range components {
			copy(a.data[to:to+length], in.data[from:from+length])
			from += rowIn
			to += rowOut
		}
	}
	return nil
}

// rangeFits tells whether [start, start+length) lies in [0, bound), without overflowing.
func rangeFits(start, length, bound uintptr) bool {
	return start <= bound && length <= bound-start
}

// lockForMove write-locks out and read-locks in, always in address order so that two moves
// in opposite directions can not deadlock. It gives the function that unlocks both.
func lockForMove(out, in *HostArray) func() {
	if out == in {
		out.mu.Lock()
		return out.mu.Unlock
	}
	if uintptr(unsafe.Pointer(out)) < uintptr(unsafe.Pointer(in)) {
		out.mu.Lock()
		in.mu.RLock()
	} else {
		in.mu.RLock()
		out.mu.Lock()
	}
	return func() {
		in.mu.RUnlock()
		out.mu.Unlock()
	}
}

// arrayTypeName names the type of array in messages. The library's own labels values go by
// the reference's name for them, LabelsArray, as in their own messages.
func arrayTypeName(array Array) string {
	if _, ok := array.(*ReadOnlyLabelsValues); ok {
		return "*core.LabelsArray"
	}
	return fmt.Sprintf("%T", array)
}
