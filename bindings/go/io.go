package metatensor

import (
	"io"

	"github.com/metatensor-go/metatensor/internal/core"
)

// Saving and loading in the .mts format of metatensor-core: labels as a NPY file, blocks and
// tensor maps as zip archives of NPY files. Every file written here loads with
// metatensor-core and the other way round.
//
// Each kind of object is saved to a path (Save), a []byte (SaveBuffer) or an io.Writer
// (WriteTo), and loaded from a path (LoadX), a []byte (LoadXBuffer) or an io.Reader (ReadX).
// The first two of each are the counterparts of the C API, in api_gen.go; here are the
// others. Loaders of blocks and tensor maps make the arrays of the values with a
// CreateArray; nil makes HostArrays.

// CreateArray makes an array of the given shape and dtype, filled with zeros, on the CPU:
// loaders call it for the values of every block and gradient, then fill them.
type CreateArray = core.CreateArray

// hostArrays is the CreateArray making HostArrays.
func hostArrays(shape []uintptr, dtype DType) (Array, error) {
	return NewZerosOf(dtype, shape)
}

// WriteTo writes the labels' file to w (io.WriterTo).
func (l *Labels) WriteTo(w io.Writer) (int64, error) { return writeTo(l.SaveBuffer, w) }

// ReadLabels reads labels from the whole of r.
func ReadLabels(r io.Reader) (*Labels, error) {
	return readAll(r, LoadLabelsBuffer)
}

// WriteTo writes the block's file to w (io.WriterTo).
func (b *TensorBlock) WriteTo(w io.Writer) (int64, error) { return writeTo(b.SaveBuffer, w) }

// ReadBlock reads a block from the whole of r.
func ReadBlock(r io.Reader, createArray CreateArray) (*TensorBlock, error) {
	return readAll(r, func(data []byte) (*TensorBlock, error) { return LoadBlockBuffer(data, createArray) })
}

// WriteTo writes the tensor map's file to w (io.WriterTo).
func (t *TensorMap) WriteTo(w io.Writer) (int64, error) { return writeTo(t.SaveBuffer, w) }

// ReadTensorMap reads a tensor map from the whole of r.
func ReadTensorMap(r io.Reader, createArray CreateArray) (*TensorMap, error) {
	return readAll(r, func(data []byte) (*TensorMap, error) { return LoadTensorMapBuffer(data, createArray) })
}

// writeTo saves in memory, then writes the bytes to w: the format patches bytes it already
// wrote, which an io.Writer can not do.
func writeTo(save func() ([]byte, error), w io.Writer) (int64, error) {
	data, err := save()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(data)
	if err != nil {
		return int64(n), core.Errorf(StatusIO, "%v", err)
	}
	return int64(n), nil
}

// readAll reads the whole of r, then loads the bytes.
func readAll[T any](r io.Reader, load func([]byte) (*T, error)) (*T, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, core.Errorf(StatusIO, "%v", err)
	}
	return load(data)
}
