package core

// checkFillValue makes the checks the reference makes on the scalar filling a new array of
// dtype: the same dtype, and no axes.
func checkFillValue(fill Array, dtype DType) error {
	fillDType, err := fill.DType()
	if err != nil {
		return err
	}
	if fillDType != dtype {
		return Errorf(InvalidParameterError,
			"fill_value dtype (code=%d, bits=%d, lanes=%d) does not match array dtype (code=%d, bits=%d, lanes=%d)",
			fillDType.Code, fillDType.Bits, fillDType.Lanes, dtype.Code, dtype.Bits, dtype.Lanes)
	}
	fillShape, err := fill.Shape()
	if err != nil {
		return err
	}
	if len(fillShape) != 0 {
		return Errorf(InvalidParameterError, "fill_value must be a single scalar, got a shape %s", formatShape(fillShape))
	}
	return nil
}
