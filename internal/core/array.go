package core

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

// DataMovement is one copy done by Array.MoveData; its layout is mts_data_movement_t's.
type DataMovement struct {
	SampleIn           uintptr
	SampleOut          uintptr
	PropertiesStartIn  uintptr
	PropertiesStartOut uintptr
	PropertiesLength   uintptr
}
