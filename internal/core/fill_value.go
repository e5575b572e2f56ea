package core

// checkFillValue makes the checks the reference makes on the scalar filling a new array of
// dtype: the same dtype, and no axes.
func checkFillValue(fill Array, dtype DType) error {
	fillDType, err := fill.DType()
	if err != nil {
		return err
	}
	if err := fillDTypeError(fillDType, dtype); err != nil {
		return err
	}
	fillShape, err := fill.Shape()
	if err != nil {
		return err
	}
	return fillShapeError(fillShape)
}

// fillDTypeError is the error of a fill value of fillDType for an array of dtype.
func fillDTypeError(fillDType, dtype DType) error {
	if fillDType != dtype {
		return Errorf(InvalidParameterError,
			"fill_value dtype (code=%d, bits=%d, lanes=%d) does not match array dtype (code=%d, bits=%d, lanes=%d)",
			fillDType.Code, fillDType.Bits, fillDType.Lanes, dtype.Code, dtype.Bits, dtype.Lanes)
	}
	return nil
}

// fillShapeError is the error of a fill value with axes.
func fillShapeError(fillShape []uintptr) error {
	if len(fillShape) != 0 {
		return Errorf(InvalidParameterError, "fill_value must be a single scalar, got a shape %s", formatShape(fillShape))
	}
	return nil
}

// fillDeviceError is the error of a fill value off the CPU.
func fillDeviceError(device Device) error {
	if device.Type != DeviceCPU {
		return Errorf(InvalidParameterError, "fill_value must be on CPU")
	}
	return nil
}
