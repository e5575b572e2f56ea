package metatensor

import (
	"runtime"
	"sync/atomic"
)

// Every method that works on a core object after taking it from its Go value keeps the Go
// value reachable until it is done (runtime.KeepAlive): otherwise the cleanup of a
// value that became unreachable could free the object during the call.

// owner is the lifetime of a tree of core objects that one Go value owns: a block with its
// gradients, or a tensor map with its blocks. The owning value and every view into the tree
// share it, so that views can tell when the tree is gone.
type owner struct {
	state   atomic.Int32
	cleanup runtime.Cleanup
}

// The states of an owner.
const (
	live   int32 = iota
	closed       // freed by Close or by the cleanup
	moved        // handed over to another owner (NewTensorMap, AddGradient)
)

// newOwner makes the owner of free's object, held by value: when value becomes unreachable
// while the owner is live, the object is freed.
func newOwner[T any](value *T, free func()) *owner {
	o := &owner{}
	o.cleanup = runtime.AddCleanup(value, func(o *owner) {
		if o.state.CompareAndSwap(live, closed) {
			free()
		}
	}, o)
	return o
}

// release ends a live owner with the state to (closed or moved) and tells whether it did;
// the object is not freed here.
func (o *owner) release(to int32) bool {
	if !o.state.CompareAndSwap(live, to) {
		return false
	}
	o.cleanup.Stop()
	return true
}

// check reports an owner that is no longer live, naming the kind of object used. It is
// small enough to be inlined in every method.
func (o *owner) check(kind string) error {
	if state := o.state.Load(); state != live {
		return stateError(state, kind)
	}
	return nil
}

// stateError is the error of check for an owner that is not live.
func stateError(state int32, kind string) error {
	switch state {
	case closed:
		return invalidf("this %s can not be used: it, or the object it is a view into, was closed", kind)
	case moved:
		return invalidf("this %s can not be used: it, or the object it is a view into, "+
			"was moved into a TensorMap or another TensorBlock", kind)
	}
	return nil
}

// must panics with the error of check, for methods without an error result.
func must[T any](value T, err error) T {
	if err != nil {
		panic(err)
	}
	return value
}
