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

// AttachNew is Attach for an object that no other goroutine can reach yet (one being made):
// without the atomic exchange, which waits for every store before it to reach memory (once
// per block when Go makes the thousands of blocks of a tensor map). Whatever hands the object
// over (a lock, an atomic store) publishes this store with it.
func (v *View) AttachNew(record unsafe.Pointer) bool {
	if v.record != nil {
		return false
	}
	v.record = record
	return true
}

// ViewReleased is called with the record of every object that had one, when the core releases
// the object. A binding sets it once, before creating any object.
var ViewReleased func(record unsafe.Pointer)

// releaseWith hands the attached record to r. Only the object's last holder calls it (the
// release of the last reference to labels, the free of a block or a tensor map), when nothing
// else can reach the object: a plain read and write, without the atomic exchange a shared view
// would need (five of them in the free of a small tensor map).
func (v *View) releaseWith(r Releaser) {
	if record := v.record; record != nil {
		v.record = nil
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
