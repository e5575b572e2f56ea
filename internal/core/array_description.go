package core

// ArrayDescription is what the values of a block and of its gradients, or the blocks of a
// tensor map, must share.
type ArrayDescription struct {
	Origin Origin
	Device Device
	DType  DType
}

// describeArray asks an array its origin, device and dtype, in this order.
func describeArray(array Array) (d ArrayDescription, err error) {
	if d.Origin, err = array.Origin(); err != nil {
		return d, err
	}
	if d.Device, err = array.Device(); err != nil {
		return d, err
	}
	d.DType, err = array.DType()
	return d, err
}

// ArraysComparer is implemented by arrays that can run compareArrays over many arrays of
// their own kind at once (a C binding crosses into C once instead of three times per array).
// ok is false when it can not handle these arrays.
type ArraysComparer interface {
	CompareArrays(arrays []Array) (first, other ArrayDescription, index int, ok bool, err error)
}

// compareArrays describes arrays in order, stopping at the first failure or at the first array
// whose description differs from the first one's: index is that array's position and other
// its description, or index is -1 (and other equals first) when they all agree.
func compareArrays(arrays []Array) (first, other ArrayDescription, index int, err error) {
	if comparer, ok := arrays[0].(ArraysComparer); ok {
		if first, other, index, ok, err := comparer.CompareArrays(arrays); ok {
			return first, other, index, err
		}
	}
	if first, err = describeArray(arrays[0]); err != nil {
		return first, first, 0, err
	}
	for i, array := range arrays[1:] {
		if other, err = describeArray(array); err != nil {
			return first, other, i + 1, err
		}
		if other != first {
			return first, other, i + 1, nil
		}
	}
	return first, first, -1, nil
}
