package core

import (
	"sync/atomic"
	"unsafe"
)

// View is where a binding keeps its own record of a core object (labels, block, tensor map):
// for the C library, the address its callers hold. The core never reads it; it only hands it
// to ViewReleased when the object goes away, so that the record goes with it.
type View struct{ record unsafe.Pointer }

// Record gives the attached record, or nil.
func (v *View) Record() unsafe.Pointer { return atomic.LoadPointer(&v.record) }

// Attach sets the record when none is attached yet, and tells whether it did.
func (v *View) Attach(record unsafe.Pointer) bool {
	return atomic.CompareAndSwapPointer(&v.record, nil, record)
}

// ViewReleased is called with the record of every object that had one, when the core releases
// the object. A binding sets it once, before creating any object.
var ViewReleased func(record unsafe.Pointer)

func (v *View) releaseWith(r Releaser) {
	if record := atomic.SwapPointer(&v.record, nil); record != nil {
		r.ReleaseRecord(record)
	}
}

// Releaser lets go of what freed blocks and tensor maps held: their values arrays and their
// binding records. Free releases each at once (DirectRelease); a binding whose every release
// costs a call into another language frees a tensor map with FreeWith and a Releaser that
// does them all in one call at the end.
type Releaser interface {
	DestroyArray(array Array)
	ReleaseRecord(record unsafe.Pointer)
}

// LabelsReleasing is a Releaser with another for the values arrays and records of the labels
// that go with the blocks and tensor maps it frees (those whose last holder they were); the
// labels of other Releasers go at once.
type LabelsReleasing interface {
	Releaser
	LabelsReleaser() Releaser
}

// forLabels is the Releaser of the labels freed with r's blocks.
func forLabels(r Releaser) Releaser {
	if releasing, ok := r.(LabelsReleasing); ok {
		return releasing.LabelsReleaser()
	}
	return DirectRelease{}
}

// DirectRelease destroys each array and hands each record to ViewReleased at once.
type DirectRelease struct{}

func (DirectRelease) DestroyArray(array Array) { array.Destroy() }

func (DirectRelease) ReleaseRecord(record unsafe.Pointer) {
	if ViewReleased != nil {
		ViewReleased(record)
	}
}
