package metatensor_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// FuzzReadTensorMap reads any bytes through an io.Reader, one byte per Read: it must agree
// with LoadTensorMapBuffer, and what it loads must save and read back to the same bytes.
func FuzzReadTensorMap(f *testing.F) {
	fixtures, _ := filepath.Glob(filepath.Join("..", "..", "internal", "core", "testdata", "mts", "*"))
	for _, path := range fixtures {
		if data, err := os.ReadFile(path); err == nil && len(data) < 1<<20 {
			f.Add(data)
		}
	}
	f.Add([]byte("PK\x05\x06"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tensor, err := metatensor.ReadTensorMap(iotest.OneByteReader(bytes.NewReader(data)), nil)
		buffered, bufferErr := metatensor.LoadTensorMapBuffer(data, nil)
		if err != nil {
			var e, bufferE *metatensor.Error
			require.True(t, errors.As(err, &e) && errors.As(bufferErr, &bufferE), "%v / %v", err, bufferErr)
			require.Equal(t, bufferE, e)
			return
		}
		require.NoError(t, bufferErr)
		defer tensor.Close()
		defer buffered.Close()
		saved, err := tensor.SaveBuffer()
		require.NoError(t, err)
		again, err := metatensor.ReadTensorMap(bytes.NewReader(saved), nil)
		require.NoError(t, err)
		defer again.Close()
		resaved, err := again.SaveBuffer()
		require.NoError(t, err)
		require.True(t, bytes.Equal(saved, resaved), "a tensor map read back saves differently")
	})
}
