package main

// publishHandle stores the handle of an object Go just made in its record, for readers that
// load it atomically (C's acquire loads, Go's atomic.LoadUintptr) and then read what it names.
// On amd64 every store has release semantics and the Go compiler keeps stores in program
// order, so a plain store publishes as atomic.StoreUintptr does, without the locked exchange
// that waits for every earlier store: storing the handles of a tensor map's blocks, records
// read from memory one after the other, then costs no more than the stores themselves.
func publishHandle(address *uintptr, handle uintptr) {
	*address = handle
}
