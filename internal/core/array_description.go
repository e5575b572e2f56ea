package core

// ArrayDescription is what the values of a block and of its gradients, or the blocks of a
// tensor map, must share.
type ArrayDescription struct {
	Origin Origin
	Device Device
	DType  DType
}

// ArrayDescriber is an Array that asks itself describeArray's three questions in one step, in
// the same order and stopping at the same failure: arrays whose every call crosses into another
// language, where the crossing costs more than the answer.
type ArrayDescriber interface {
	Array
	Describe() (ArrayDescription, error)
}

// describeArray asks an array its origin, device and dtype, in this order.
func describeArray(array Array) (d ArrayDescription, err error) {
	if describer, ok := array.(ArrayDescriber); ok {
		return describer.Describe()
	}
	if d.Origin, err = array.Origin(); err != nil {
		return d, err
	}
	if d.Device, err = array.Device(); err != nil {
		return d, err
	}
	d.DType, err = array.DType()
	return d, err
}

// compareArrays describes count arrays in order (array gives each, without allocating a slice
// of them for thousands of blocks), stopping at the first failure or at the first array whose
// description differs from the first one's: index is that array's position and other its
// description, or index is -1 (and other equals first) when they all agree.
func compareArrays(count int, array func(i int) Array) (first, other ArrayDescription, index int, err error) {
	if first, err = describeArray(array(0)); err != nil {
		return first, first, 0, err
	}
	for i := 1; i < count; i++ {
		if other, err = describeArray(array(i)); err != nil {
			return first, other, i, err
		}
		if other != first {
			return first, other, i, nil
		}
	}
	return first, first, -1, nil
}

// descriptionMismatch holds the messages for two arrays that differ in origin, device or dtype,
// each formatted with the values of the two arrays in the order given to check.
type descriptionMismatch struct {
	origin, device, dtype string
}

// check gives the error for the first of origin, device and dtype in which a and b differ.
func (m descriptionMismatch) check(a, b ArrayDescription) error {
	switch {
	case a.Origin != b.Origin:
		return Errorf(InvalidParameterError, m.origin, OriginName(a.Origin), OriginName(b.Origin))
	case a.Device != b.Device:
		return Errorf(InvalidParameterError, m.device, a.Device, b.Device)
	case a.DType != b.DType:
		return Errorf(InvalidParameterError, m.dtype, a.DType, b.DType)
	}
	return nil
}
