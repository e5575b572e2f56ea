//go:build !amd64

package main

import "sync/atomic"

// publishHandle stores the handle of an object Go just made in its record, for readers that
// load it atomically; elsewhere than amd64 (publish_handle_amd64.go) a plain store may be seen
// before earlier ones, so it is an atomic store.
func publishHandle(address *uintptr, handle uintptr) {
	atomic.StoreUintptr(address, handle)
}
