package main

import (
	"testing"

	"github.com/metatensor-go/metatensor/internal/core"
	"github.com/stretchr/testify/assert"
)

// A NUL inside a message (a loader reports names read from the file) must not cut what C
// reads of it.
func TestMessagesKeepTheTextAfterANul(t *testing.T) {
	onOneThread(t)
	status := statusOf(core.Errorf(core.SerializationError, "invalid Zip archive: more than one entry has this name: at 'a\x00b'"))
	assert.EqualValues(t, core.SerializationError, status)
	message, _ := lastError()
	assert.Equal(t, `serialization format error: invalid Zip archive: more than one entry has this name: at 'a\0b'`, message)
}
