package metatensor_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// roundTrips saves an object in the three ways (path, buffer, writer), loads each result in
// the three ways (path, buffer, reader), and gives the loaded objects. Every save gives the
// same bytes.
func roundTrips[T interface{ Close() }](t *testing.T,
	save func(string) error, saveBuffer func() ([]byte, error), writeTo func(*bytes.Buffer) (int64, error),
	load func(string) (T, error), loadBuffer func([]byte) (T, error), read func(*bytes.Reader) (T, error)) []T {
	t.Helper()
	path := filepath.Join(t.TempDir(), "object.mts")
	require.NoError(t, save(path))
	fromBuffer, err := saveBuffer()
	require.NoError(t, err)
	var written bytes.Buffer
	n, err := writeTo(&written)
	require.NoError(t, err)
	require.Equal(t, int64(len(fromBuffer)), n)
	require.Equal(t, fromBuffer, written.Bytes())

	var loaded []T
	keep := func(object T, err error) {
		t.Helper()
		require.NoError(t, err)
		t.Cleanup(object.Close)
		loaded = append(loaded, object)
	}
	keep(load(path))
	keep(loadBuffer(fromBuffer))
	keep(read(bytes.NewReader(fromBuffer)))
	return loaded
}

func TestLabelsRoundTrips(t *testing.T) {
	labels := newLabels(t, []string{"a", "b"}, []int32{0, -1}, []int32{1 << 30, 5})
	loaded := roundTrips(t, labels.Save, labels.SaveBuffer,
		func(w *bytes.Buffer) (int64, error) { return labels.WriteTo(w) },
		metatensor.LoadLabels, metatensor.LoadLabelsBuffer,
		func(r *bytes.Reader) (*metatensor.Labels, error) { return metatensor.ReadLabels(r) })
	for _, l := range loaded {
		require.True(t, labels.Equal(l))
	}
}

func TestBlockRoundTrips(t *testing.T) {
	block := blockWithGradient(t)
	loaded := roundTrips(t, block.Save, block.SaveBuffer,
		func(w *bytes.Buffer) (int64, error) { return block.WriteTo(w) },
		hostLoader(metatensor.LoadBlock), hostLoader(metatensor.LoadBlockBuffer),
		func(r *bytes.Reader) (*metatensor.TensorBlock, error) { return metatensor.ReadBlock(r, nil) })
	for _, b := range loaded {
		require.Equal(t, float64Values(t, block), float64Values(t, b))
		require.True(t, block.Samples().Equal(b.Samples()))
		require.Equal(t, []string{"positions"}, b.GradientParameters())
		gradient, err := b.Gradient("positions")
		require.NoError(t, err)
		require.Len(t, gradient.Components(), 2)
	}
}

func TestTensorMapRoundTrips(t *testing.T) {
	tensor := fixtureTensor(t)
	require.NoError(t, tensor.SetInfo("unit", "eV"))
	loaded := roundTrips(t, tensor.Save, tensor.SaveBuffer,
		func(w *bytes.Buffer) (int64, error) { return tensor.WriteTo(w) },
		hostLoader(metatensor.LoadTensorMap), hostLoader(metatensor.LoadTensorMapBuffer),
		func(r *bytes.Reader) (*metatensor.TensorMap, error) { return metatensor.ReadTensorMap(r, nil) })
	for _, m := range loaded {
		require.True(t, tensor.Keys().Equal(m.Keys()))
		require.Equal(t, tensor.String(), m.String())
		value, _ := m.Info("unit")
		require.Equal(t, "eV", value)
		for i := range m.Len() {
			original, err := tensor.Block(i)
			require.NoError(t, err)
			block, err := m.Block(i)
			require.NoError(t, err)
			require.Equal(t, float64Values(t, original), float64Values(t, block))
		}
	}
}

// checkDTypeRoundTrip saves and loads a block of elements of type T.
func checkDTypeRoundTrip[T metatensor.Element](t *testing.T, values ...T) {
	name := metatensor.DTypeOf[T]().String()
	t.Run(name, func(t *testing.T) {
		array, err := metatensor.NewArray([]int{len(values), 1}, values)
		require.NoError(t, err)
		block, err := metatensor.NewBlock(array, rangeLabels(t, "s", len(values)), nil, rangeLabels(t, "p", 1))
		require.NoError(t, err)
		defer block.Close()
		data, err := block.SaveBuffer()
		require.NoError(t, err)
		loaded, err := metatensor.LoadBlockBuffer(data, nil)
		require.NoError(t, err)
		defer loaded.Close()
		got, err := metatensor.ArrayValues[T](loaded.Values())
		require.NoError(t, err)
		require.Equal(t, values, got)
	})
}

func TestEveryDTypeRoundTrips(t *testing.T) {
	checkDTypeRoundTrip(t, true, false)
	checkDTypeRoundTrip(t, int8(-128), 127)
	checkDTypeRoundTrip(t, int16(-32768), 32767)
	checkDTypeRoundTrip(t, int32(-5), 6)
	checkDTypeRoundTrip(t, int64(-1)<<62, 1<<62)
	checkDTypeRoundTrip(t, uint8(0), 255)
	checkDTypeRoundTrip(t, uint16(1), 65535)
	checkDTypeRoundTrip(t, uint32(1), 1<<31)
	checkDTypeRoundTrip(t, uint64(1), 1<<63)
	checkDTypeRoundTrip(t, metatensor.Float16(0x3c00), metatensor.Float16(0x7c00))
	checkDTypeRoundTrip(t, float32(1.5), -2.25)
	checkDTypeRoundTrip(t, 1.5, -2.25)
	checkDTypeRoundTrip(t, complex64(1+2i), -3i)
	checkDTypeRoundTrip(t, 1+2i, -3i)
}

func TestLoadErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.mts")
	_, err := metatensor.LoadTensorMap(missing, nil)
	requireStatus(t, err, metatensor.ErrIO, "No such file or directory")
	_, err = metatensor.LoadBlock(missing, nil)
	requireStatus(t, err, metatensor.ErrIO, "No such file or directory")
	_, err = metatensor.LoadLabels(missing)
	requireStatus(t, err, metatensor.ErrIO, "No such file or directory")

	_, err = metatensor.LoadLabelsBuffer(nil)
	requireStatus(t, err, metatensor.ErrSerialization, "unable to load Labels from empty buffer")
	_, err = metatensor.LoadBlockBuffer([]byte("PK garbage"), nil)
	requireStatus(t, err, metatensor.ErrSerialization, "unable to load a TensorBlock from buffer")

	// The wrong loader says which one to use.
	tensor := fixtureTensor(t)
	data, err := tensor.SaveBuffer()
	require.NoError(t, err)
	_, err = metatensor.LoadBlockBuffer(data, nil)
	requireStatus(t, err, metatensor.ErrSerialization, "use `load` to load TensorMap")
	labels, err := tensor.Keys().SaveBuffer()
	require.NoError(t, err)
	_, err = metatensor.LoadTensorMapBuffer(labels, nil)
	requireStatus(t, err, metatensor.ErrSerialization, "use `load_labels_buffer` to load Labels")

	// Truncated files are rejected.
	for _, n := range []int{1, len(data) / 2, len(data) - 1} {
		_, err = metatensor.LoadTensorMapBuffer(data[:n], nil)
		require.Error(t, err)
	}

	failure := errors.New("the disk is on fire")
	_, err = metatensor.ReadTensorMap(failingIO{failure}, nil)
	requireStatus(t, err, metatensor.ErrIO, "the disk is on fire")
}

func TestSaveErrors(t *testing.T) {
	tensor := fixtureTensor(t)
	failure := errors.New("the disk is full")
	_, err := tensor.WriteTo(failingIO{failure})
	requireStatus(t, err, metatensor.ErrIO, "the disk is full")

	err = tensor.Save(filepath.Join(t.TempDir(), "missing", "tensor.mts"))
	requireStatus(t, err, metatensor.ErrIO, "No such file or directory")

	labels, err := metatensor.NewLabelsRange("a", 1)
	require.NoError(t, err)
	labels.Close()
	_, err = labels.SaveBuffer()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	_, err = labels.WriteTo(&bytes.Buffer{})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	err = labels.Save(filepath.Join(t.TempDir(), "labels.mts"))
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
}

// failingIO is a reader and writer that always fail.
type failingIO struct{ err error }

func (f failingIO) Read([]byte) (int, error)  { return 0, f.err }
func (f failingIO) Write([]byte) (int, error) { return 0, f.err }
