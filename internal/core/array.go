package core

import "slices"

// Array is an n-dimensional array whose data the core does not own: the Go form of the
// mts_array_t vtable. bindings/c adapts a C caller's mts_array_t to it; Go arrays implement
// it directly. The core never reads data that is not on the CPU itself: it reads through
// AsDLPack on the CPU and moves data only through Create, Copy and MoveData.
type Array interface {
	// Origin identifies the framework that created the array.
	Origin() (Origin, error)
	// Device tells where the data lives.
	Device() (Device, error)
	// DType tells the element type.
	DType() (DType, error)
	// AsDLPack exports the data on a device; the caller releases the tensor.
	AsDLPack(device Device, stream *int64, maxVersion DLPackVersion) (*Tensor, error)
	// FromDLPack makes a new array of the same kind from a tensor, taking ownership of the
	// tensor whatever happens.
	FromDLPack(tensor *Tensor) (Array, error)
	// Shape gives the size of every axis.
	Shape() ([]uintptr, error)
	// Reshape changes the shape in place, keeping the row-major order of the elements.
	Reshape(shape []uintptr) error
	// SwapAxes exchanges two axes in place.
	SwapAxes(axis1, axis2 uintptr) error
	// Create makes a new array of the same kind, dtype and device, filled with a scalar.
	Create(shape []uintptr, fill Array) (Array, error)
	// Copy makes a deep copy on a device.
	Copy(device Device) (Array, error)
	// MoveData copies parts of input, an array of the same kind, into this array.
	MoveData(input Array, movements []DataMovement) error
	// Destroy releases the array; it is called exactly once, by the owner.
	Destroy()
}

// SmallShape is a shape held by value: its axes when there are at most four, else the shape
// itself.
type SmallShape struct {
	axes  [4]uintptr
	count int
	long  []uintptr
}

// NewSmallShape holds a copy of shape.
func NewSmallShape(shape []uintptr) SmallShape {
	var s SmallShape
	if len(shape) > len(s.axes) {
		s.long = slices.Clone(shape)
	} else {
		s.count = copy(s.axes[:], shape)
	}
	return s
}

// Axes gives the shape, in s when it is short.
func (s *SmallShape) Axes() []uintptr {
	if s.long != nil {
		return s.long
	}
	return s.axes[:s.count]
}

// SmallShaper is an Array that gives its shape by value: the core's calls that only read a
// shape then allocate nothing for it (a slice given through an interface would escape).
type SmallShaper interface {
	SmallShape() (SmallShape, error)
}

// shapeInto asks array its shape, held in small when the array is a SmallShaper.
func shapeInto(array Array, small *SmallShape) ([]uintptr, error) {
	if shaper, ok := array.(SmallShaper); ok {
		var err error
		if *small, err = shaper.SmallShape(); err != nil {
			return nil, err
		}
		return small.Axes(), nil
	}
	return array.Shape()
}

// DataMovement is one copy done by Array.MoveData; its layout is mts_data_movement_t's.
type DataMovement struct {
	SampleIn           uintptr
	SampleOut          uintptr
	PropertiesStartIn  uintptr
	PropertiesStartOut uintptr
	PropertiesLength   uintptr
}
