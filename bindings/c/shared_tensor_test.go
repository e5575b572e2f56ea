package main

import (
	"testing"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exportRoundTrip exports count int32 values (flags as given) to C and views the export from
// Go again, as a caller's from_dlpack would see it; released counts the Go tensor's releases.
func exportRoundTrip(t *testing.T, count int, flags uint64, released *int) ([]int32, *core.Tensor) {
	values := make([]int32, count)
	for i := range values {
		values[i] = int32(3*i + 1)
	}
	tensor := core.NewTensor(core.Tensor{
		Version: core.CurrentDLPack, Flags: flags, Data: unsafe.Pointer(&values[0]),
		Device: core.CPU, DType: core.Int32, Shape: []int64{int64(count), 1}, Strides: []int64{1, 1},
	}, func() { *released++ })
	managed, err := tensorToCShared(tensor)
	require.NoError(t, err)
	exported, err := tensorFromC(managed)
	require.NoError(t, err)
	assert.Equal(t, []int64{int64(count), 1}, exported.Shape)
	assert.Equal(t, []int64{1, 1}, exported.Strides)
	assert.Equal(t, flags, exported.Flags)
	assert.Equal(t, values, unsafe.Slice((*int32)(exported.Data), count))
	return values, exported
}

func TestSmallReadOnlyExportsAreCopies(t *testing.T) {
	released := 0
	values, exported := exportRoundTrip(t, copiedExportBytes/4, core.FlagReadOnly, &released)
	assert.NotEqual(t, unsafe.Pointer(&values[0]), exported.Data, "a small read-only export is a copy")
	assert.Equal(t, 1, released, "the Go tensor goes as soon as it is copied")
	exported.Release()
	assert.Equal(t, 1, released)
}

func TestOtherExportsShareTheirMemory(t *testing.T) {
	for _, c := range []struct {
		name  string
		count int
		flags uint64
	}{
		{"larger than the copy limit", copiedExportBytes/4 + 1, core.FlagReadOnly},
		{"writable", 4, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			released := 0
			values, exported := exportRoundTrip(t, c.count, c.flags, &released)
			assert.Equal(t, unsafe.Pointer(&values[0]), exported.Data, "the export views the Go memory")
			assert.Equal(t, 0, released, "the Go tensor lives until the deleter")
			exported.Release()
			assert.Equal(t, 1, released)
		})
	}
}
