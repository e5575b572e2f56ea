package main

import (
	"errors"
	"runtime"
	"testing"

	"github.com/metatensor-go/metatensor/internal/core"
	"github.com/stretchr/testify/assert"
)

// The last error lives in C thread-local storage: keep each test on one OS thread.
func onOneThread(t *testing.T) {
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
}

func TestCoreErrorsBecomeStatusAndLastError(t *testing.T) {
	onOneThread(t)
	status := statusOf(core.Errorf(core.SerializationError, "missing 'descr' key"))
	assert.EqualValues(t, core.SerializationError, status)
	message, origin := lastError()
	assert.Equal(t, "serialization format error: missing 'descr' key", message)
	assert.Equal(t, "metatensor-core", origin)

	assert.EqualValues(t, core.Success, statusOf(nil))
	message, _ = lastError()
	assert.Equal(t, "serialization format error: missing 'descr' key", message, "success must not clear the last error")

	assert.EqualValues(t, core.InternalError, statusOf(errors.New("unexpected")))
	message, _ = lastError()
	assert.Equal(t, "internal metatensor error (this is likely a bug, please report it): unexpected", message)
}

func TestPanicsBecomeInternalErrors(t *testing.T) {
	onOneThread(t)
	status := statusOf(nil)
	func() {
		defer recoverStatus("mts_test", &status)
		var values []int
		_ = values[3] // an index out of range, as a bug would
	}()
	assert.EqualValues(t, core.InternalError, status)
	message, _ := lastError()
	assert.Contains(t, message, "internal metatensor error (this is likely a bug, please report it): mts_test panicked: runtime error: index out of range")

	// A panic carrying a library error keeps that error's status.
	func() {
		defer recoverStatus("mts_test", &status)
		panic(core.Errorf(core.InvalidParameterError, "lazily found"))
	}()
	assert.EqualValues(t, core.InvalidParameterError, status)
	message, _ = lastError()
	assert.Equal(t, "invalid parameter: lazily found", message)

	result := &struct{}{}
	func() {
		defer recoverObject("mts_test", &result)
		panic("boom")
	}()
	assert.Nil(t, result)
}
