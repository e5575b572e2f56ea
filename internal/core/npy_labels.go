package core

import (
	"io"
	"unsafe"
)

// Labels are stored as a 1-D structured array: one entry per row, one int32 field per
// dimension, named after it. The values are then exactly the row-major int32 values.

// readNpyLabels reads a labels entry of `size` bytes: a 1-D structured array whose fields are
// all '<i4' or all '>i4', one per dimension. It returns the names and the row-major values.
func readNpyLabels(r io.Reader, size int64) (names []string, values []int32, count int, err error) {
	header, headerSize, err := readNpyHeader(r)
	if err != nil {
		return nil, nil, 0, err
	}
	if header.fortranOrder {
		return nil, nil, 0, Errorf(SerializationError, "Labels can not be loaded from fortran-order arrays")
	}
	if len(header.shape) != 1 {
		return nil, nil, 0, Errorf(SerializationError, "Expected a 1-D array when loading Labels")
	}
	names, swap, err := npyLabelsNames(&header)
	if err != nil {
		return nil, nil, 0, err
	}
	dataSize, err := npyDataSize([]uintptr{header.shape[0], uintptr(len(names))}, 4, size-headerSize)
	if err != nil {
		return nil, nil, 0, err
	}

	// With at least one name, the count is at most the entry size over 4.
	count = int(header.shape[0])
	values = make([]int32, dataSize/4)
	if dataSize > 0 {
		memory := unsafe.Slice((*byte)(unsafe.Pointer(&values[0])), dataSize)
		if _, err := io.ReadFull(r, memory); err != nil {
			return nil, nil, 0, readError(err)
		}
		if swap {
			swapNpyBytes(memory, Int32)
		}
	}
	if err := checkNpyEnd(r); err != nil {
		return nil, nil, 0, err
	}
	return names, values, count, nil
}

// npyLabelsNames checks that the header describes labels (int32 fields, all of one byte
// order) and gives the field names, and whether the values need their bytes swapped.
func npyLabelsNames(header *npyHeader) ([]string, bool, error) {
	// The parser never gives an empty list of fields; the reference could not load one.
	if !header.structured || len(header.fields) == 0 {
		return nil, false, invalidLabelsDType()
	}
	order := header.fields[0].descr
	if order != "<i4" && order != ">i4" {
		return nil, false, invalidLabelsDType()
	}
	names := make([]string, len(header.fields))
	for i, field := range header.fields {
		if field.descr != order {
			return nil, false, invalidLabelsDType()
		}
		names[i] = field.name
	}
	return names, (order == "<i4") != hostLittleEndian, nil
}

// invalidLabelsDType is the error of labels whose fields are not all '<i4' or all '>i4'; made
// when returned: formatted on every call, it was 2% of loading a map of small blocks.
func invalidLabelsDType() error {
	return Errorf(SerializationError, "invalid dtype for labels")
}

// writeNpyLabels writes labels as a 1-D structured array of '<i4' fields named after the dimensions.
func writeNpyLabels(w io.Writer, names []string, values []int32, count int) error {
	if count < 0 || len(values) != count*len(names) {
		return Errorf(InvalidParameterError,
			"invalid labels to save: %d values for %d entries of %d dimensions", len(values), count, len(names))
	}
	header := npyHeader{structured: true, fields: make([]npyField, len(names)), shape: []uintptr{uintptr(count)}}
	descr := npyHostOrder() + "i4"
	for i, name := range names {
		header.fields[i] = npyField{name: name, descr: descr}
	}
	if err := writeNpyHeader(w, &header); err != nil {
		return err
	}
	if len(values) == 0 {
		return nil
	}
	if _, err := w.Write(unsafe.Slice((*byte)(unsafe.Pointer(&values[0])), len(values)*4)); err != nil {
		return sinkError(err)
	}
	return nil
}
