package main

// #include "mtsgo.h"
import "C"

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// asCoreError gives the *core.Error behind any error; anything else is a bug, reported as
// MTS_INTERNAL_ERROR.
func asCoreError(err error) *core.Error {
	var e *core.Error
	if errors.As(err, &e) {
		return e
	}
	return &core.Error{Status: core.InternalError, Message: err.Error()}
}

// recordedError is an error already stored as the calling thread's last error: a failed
// callback's, whose origin and data (an exception to rethrow) must survive to the caller.
type recordedError struct{ err *core.Error }

func (e recordedError) Error() string { return e.err.Error() }
func (e recordedError) Unwrap() error { return e.err }

// recordError stores err as the calling thread's last error and gives its status.
func recordError(err error) C.mts_status_t {
	var recorded recordedError
	if errors.As(err, &recorded) {
		return C.mts_status_t(recorded.err.Status)
	}
	e := asCoreError(err)
	// C reads the message up to its first NUL: one inside (from an entry name, a label
	// dimension, an info key) is written as \0 so that nothing after it is lost.
	message := strings.ReplaceAll(e.Error(), "\x00", `\0`)
	C.mtsgo_record_error((*C.char)(unsafe.Pointer(unsafe.StringData(message))), C.size_t(len(message)))
	return C.mts_status_t(e.Status)
}

// lastError reads the calling thread's last error message and origin.
func lastError() (message, origin string) {
	var cMessage, cOrigin *C.char
	C.mts_last_error(&cMessage, &cOrigin, nil)
	return C.GoString(cMessage), C.GoString(cOrigin)
}

// statusOf turns the result of an impl* function into the status the C caller gets.
func statusOf(err error) C.mts_status_t {
	if err == nil {
		return C.MTS_SUCCESS
	}
	return recordError(err)
}

// recordPanic turns a recovered panic into the last error. A panic carrying a library error
// keeps its status, as lazily failing operations (assume_unique labels) need; any other panic
// is a bug.
func recordPanic(function string, recovered any) C.mts_status_t {
	if err, ok := recovered.(error); ok {
		var e *core.Error
		if errors.As(err, &e) {
			return recordError(e)
		}
	}
	if C.mtsgo_panic_printing_enabled() != 0 {
		fmt.Fprintf(os.Stderr, "metatensor: panic in %s: %v\n%s", function, recovered, debug.Stack())
	}
	return recordError(core.Errorf(core.InternalError, "%s panicked: %v", function, recovered))
}

// recoverStatus is deferred by every status-returning export: a Go panic never crosses into C.
func recoverStatus(function string, status *C.mts_status_t) {
	if recovered := recover(); recovered != nil {
		*status = recordPanic(function, recovered)
	}
}

// recoverObject is recoverStatus for exports that return an object pointer (NULL on error).
func recoverObject[T any](function string, result **T) {
	if recovered := recover(); recovered != nil {
		recordPanic(function, recovered)
		*result = nil
	}
}

// destroyArray releases an array the caller handed over, when its destroy member is set.
func destroyArray(array *C.struct_mts_array_t) {
	C.mtsgo_array_destroy(array)
}
