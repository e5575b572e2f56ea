package core

import "io"

// SaveLabels writes labels as a labels file: one bare NPY structured array (not a zip), whose
// int32 fields are named after the dimensions.
func SaveLabels(w io.Writer, labels *ArrayLabels) error {
	cpu, err := labels.CPU()
	if err != nil {
		return err
	}
	return writeNpyLabels(w, labels.Names(), cpu.Values(), cpu.Count())
}

// LoadLabels reads labels from the size bytes of a labels file. Names and uniqueness are
// checked as for new labels, so those errors keep the invalid-parameter status. The result
// holds its values in the library's own labels array.
func LoadLabels(r io.Reader, size int64) (*ArrayLabels, error) {
	names, values, count, err := readNpyLabels(r, size)
	if err != nil {
		return nil, err
	}
	// The names come from the file, so the message speaks of dimensions, as the reference's.
	for _, name := range names {
		if !IsValidLabelName(name) {
			return nil, Errorf(InvalidParameterError, "'%s' is not a valid label dimension", name)
		}
	}
	cpu, err := NewLabels(names, values, count)
	if err != nil {
		return nil, err
	}
	return LabelsFromValues(names, cpu), nil
}
