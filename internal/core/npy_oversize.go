package core

import (
	"errors"
	"fmt"
	"strings"
)

// npyOversizeError is the error of an NPY header declaring more data than its bytes hold. A
// bare NPY file reports it as the reference does, "failed to fill whole buffer" with the I/O
// status; inside an archive, where the entry's size is known, the loaders report a malformed
// entry instead, naming it and the sizes (inEntry).
type npyOversizeError struct {
	cause       *Error
	shape       []uintptr
	elementSize int
	declared    uint64 // saturated at the largest uint64
	available   int64
}

func (e *npyOversizeError) Error() string { return e.cause.Error() }
func (e *npyOversizeError) Unwrap() error { return e.cause }

func newNpyOversizeError(shape []uintptr, elementSize int, declared uint64, available int64) *npyOversizeError {
	return &npyOversizeError{
		cause: errZipEOF(), shape: shape, elementSize: elementSize,
		declared: declared, available: available,
	}
}

// inEntry gives the error of an archive's entry.
func (e *npyOversizeError) inEntry(name string) *Error {
	dimensions := make([]string, len(e.shape))
	for i, d := range e.shape {
		dimensions[i] = fmt.Sprint(d)
	}
	declared := fmt.Sprint(e.declared)
	if e.declared == ^uint64(0) {
		declared = "more than " + declared
	}
	return Errorf(SerializationError,
		"the NPY header declares %s bytes of data (shape (%s), %d-byte elements) where the entry holds %d: at '%s'",
		declared, strings.Join(dimensions, ", "), e.elementSize, max(e.available, 0), name)
}

// inNpyEntry gives the error of reading the NPY entry name of an archive.
func inNpyEntry(name string, err error) error {
	var oversize *npyOversizeError
	if errors.As(err, &oversize) {
		return oversize.inEntry(name)
	}
	return inEntry(name, err)
}

// inEntry names the archive's entry name in an error of the file met reading it (I/O or
// format), keeping the message and the status (a bad checksum stays an I/O error, as the
// reference reports it) and adding ": at '<entry>'", unless the error names its entry already.
// Other errors (a setting, the caller's arrays) are not about the entry and are kept.
func inEntry(name string, err error) error {
	var located *Error
	if !errors.As(err, &located) || located.Status != IOError && located.Status != SerializationError ||
		strings.HasSuffix(located.Message, "'") && strings.Contains(located.Message, ": at '") {
		return err
	}
	return &Error{Status: located.Status, Message: located.Message + ": at '" + name + "'"}
}
