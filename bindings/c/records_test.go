package main

import (
	"testing"

	"github.com/metatensor-go/metatensor/internal/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRecordsHoldHandlesNotPointers(t *testing.T) {
	value := &struct{ name string }{"labels value"}
	record := newRecord(labelsRecord, value)
	got, err := lookupRecord(record, labelsRecord)
	require.NoError(t, err)
	assert.Same(t, value, got)

	_, err = lookupRecord(record, blockRecord)
	assert.ErrorIs(t, err, &core.Error{Status: core.InvalidParameterError})
	assert.Contains(t, err.Error(), "is not a valid block")

	require.NoError(t, freeRecord(record, labelsRecord))
}

func TestRecordsOfEveryKind(t *testing.T) {
	for _, kind := range []recordKind{labelsRecord, blockRecord, tensorMapRecord} {
		record := newRecord(kind, kind.String())
		got, err := lookupRecord(record, kind)
		require.NoError(t, err)
		assert.Equal(t, kind.String(), got)
		require.NoError(t, freeRecord(record, kind))
	}
}
