package core

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Inside an archive, an NPY header declaring more data than its entry holds is a malformed
// entry, named with the sizes (on purpose: the reference says "io error: failed to fill whole
// buffer" once it runs out of bytes). Found before anything is allocated for it.
func TestOversizeEntriesAreNamed(t *testing.T) {
	block := func(header []byte) []byte {
		return bombArchive([]bombEntry{
			storedEntry("values.npy", append(header, make([]byte, 8)...)),
			storedEntry("samples.npy", labelsNpy(t, "s", 1)),
			storedEntry("properties.npy", labelsNpy(t, "p", 1)),
		})
	}
	_, err := LoadBlockBuffer(block(valuesNpyHeader(t, 1000000000000)), createHost)
	requireCoreError(t, err, SerializationError, "unable to load a TensorBlock from buffer: the NPY header "+
		"declares 8000000000000 bytes of data (shape (1000000000000), 8-byte elements) where the entry holds 8: "+
		"at 'values.npy'")
	_, err = LoadBlockBuffer(block(valuesNpyHeader(t, 1<<63, 1<<63, 2)), createHost)
	requireCoreError(t, err, SerializationError, "unable to load a TensorBlock from buffer: the NPY header "+
		"declares more than 18446744073709551615 bytes of data (shape (9223372036854775808, 9223372036854775808, 2), "+
		"8-byte elements) where the entry holds 8: at 'values.npy'")

	keys := labelsNpy(t, "k", 2)
	tensor := bombArchive([]bombEntry{storedEntry("keys.npy", keys[:len(keys)-1])})
	_, err = LoadTensorMapBuffer(tensor, createHost)
	requireCoreError(t, err, SerializationError, "unable to load a TensorMap from buffer: the NPY header "+
		"declares 8 bytes of data (shape (2, 1), 4-byte elements) where the entry holds 7: at 'keys.npy'")

	// A bare labels file keeps the reference's I/O error, as a plain *Error.
	_, err = LoadLabelsBuffer(keys[:len(keys)-1])
	require.IsType(t, &Error{}, err)
	requireCoreError(t, err, IOError, "failed to fill whole buffer")
}

// Two entries of one name are refused (on purpose: the reference's zip reader lets the last
// one win, so that another reader of the file could see other data).
func TestDuplicateEntriesAreRefused(t *testing.T) {
	samples := labelsNpy(t, "s", 1)
	archive := bombArchive([]bombEntry{
		storedEntry("values.npy", append(valuesNpyHeader(t, 1, 1), make([]byte, 8)...)),
		storedEntry("samples.npy", samples),
		storedEntry("samples.npy", samples),
		storedEntry("properties.npy", labelsNpy(t, "p", 1)),
	})
	_, err := LoadBlockBuffer(archive, createHost)
	requireCoreError(t, err, SerializationError,
		"unable to load a TensorBlock from buffer: invalid Zip archive: more than one entry has this name: at 'samples.npy'")
}
