package metatensor

// Operations making a new tensor map with dimensions moved between keys and samples or
// properties, the values no block fills being zero; KeysToSamplesFill and
// KeysToPropertiesFill take another filler. ComponentsToProperties is in api_gen.go. The
// tensor map they are called on is not modified.

// KeysToSamples moves the key dimensions named by keysToMove (labels without entries) to the
// samples: the blocks that end up with the same remaining key are merged, each one's samples
// followed by its values of the moved dimensions. Merged samples come in the order they are
// first seen, or sorted with sortSamples. The properties of a merged block are the union of
// those of its blocks; values no block fills are zero.
func (t *TensorMap) KeysToSamples(keysToMove *Labels, sortSamples bool) (*TensorMap, error) {
	zero, err := t.zero()
	if err != nil {
		return nil, err
	}
	return t.KeysToSamplesFill(keysToMove, zero, sortSamples)
}

// KeysToProperties moves the key dimensions named by keysToMove to the properties: the
// blocks that end up with the same remaining key are merged, each one's properties preceded
// by its values of the moved dimensions. When keysToMove has entries, every block of a group
// must have the same properties, the new properties are each entry followed by each
// property, and blocks whose values are not among the entries are left out. Merged samples
// come in the order they are first seen, or sorted with sortSamples; values no block fills
// are zero.
func (t *TensorMap) KeysToProperties(keysToMove *Labels, sortSamples bool) (*TensorMap, error) {
	zero, err := t.zero()
	if err != nil {
		return nil, err
	}
	return t.KeysToPropertiesFill(keysToMove, zero, sortSamples)
}

// zero makes a scalar zero of the dtype of the blocks, to fill what no block fills.
func (t *TensorMap) zero() (Array, error) {
	dtype, err := t.DType()
	if err != nil {
		return nil, err
	}
	return hostArrays([]uintptr{}, dtype)
}
