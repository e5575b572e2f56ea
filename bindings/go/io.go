package metatensor

import (
	"io"

	"github.com/metatensor-go/metatensor/internal/core"
)

// Saving and loading in the .mts format of metatensor-core: labels as a NPY file, blocks and
// tensor maps as zip archives of NPY files. Every file written here loads with
// metatensor-core and the other way round. Loaded values are HostArrays.
//
// Each kind of object is saved to a path (Save), an io.Writer (WriteTo) or a []byte
// (SaveBuffer), and loaded from a path (LoadX), an io.Reader (ReadX) or a []byte
// (LoadXBuffer). The functions that map one to one to the C API (Save, SaveBuffer, LoadX,
// LoadXBuffer) are generated from the spec, in api_gen.go; here are the others and what
// they share.

// hostArrays creates the arrays of loaded blocks.
func hostArrays(shape []uintptr, dtype DType) (Array, error) {
	return core.NewHostArray(dtype, shape)
}

// WriteTo writes the labels' file to w (io.WriterTo).
func (l *Labels) WriteTo(w io.Writer) (int64, error) {
	return writeTo(l.get, saveLabels, w)
}

// saveLabels writes labels to a core.SaveSink, as the other savers do.
func saveLabels(sink core.SaveSink, labels *core.ArrayLabels) error {
	return core.SaveLabels(sink, labels)
}

// ReadLabels reads labels from the whole of r.
func ReadLabels(r io.Reader) (*Labels, error) {
	return readAll(r, LoadLabelsBuffer)
}

// WriteTo writes the block's file to w (io.WriterTo).
func (b *TensorBlock) WriteTo(w io.Writer) (int64, error) {
	return writeTo(b.get, core.SaveBlock, w)
}

// ReadBlock reads a block from the whole of r.
func ReadBlock(r io.Reader) (*TensorBlock, error) {
	return readAll(r, LoadBlockBuffer)
}

// WriteTo writes the tensor map's file to w (io.WriterTo).
func (t *TensorMap) WriteTo(w io.Writer) (int64, error) {
	return writeTo(t.get, core.SaveTensorMap, w)
}

// ReadTensorMap reads a tensor map from the whole of r.
func ReadTensorMap(r io.Reader) (*TensorMap, error) {
	return readAll(r, LoadTensorMapBuffer)
}

// saveFile saves a live object to path.
func saveFile[C any](get func() (C, error), path string, save func(string, C) error) error {
	_, err := with(get, func(object C) (struct{}, error) { return struct{}{}, save(path, object) })
	return err
}

// saveBuffer saves a live object in memory.
func saveBuffer[C any](get func() (C, error), save func(core.SaveSink, C) error) ([]byte, error) {
	return with(get, func(object C) ([]byte, error) {
		var sink bufferSink
		err := save(&sink, object)
		return sink.data, err
	})
}

// writeTo saves a live object in memory, then writes the bytes to w: the format patches
// bytes it already wrote, which an io.Writer can not do.
func writeTo[C any](get func() (C, error), save func(core.SaveSink, C) error, w io.Writer) (int64, error) {
	data, err := saveBuffer(get, save)
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

// bufferSink keeps saved bytes in memory: core.SaveSink over a growing slice.
type bufferSink struct{ data []byte }

func (s *bufferSink) Write(p []byte) (int, error) {
	s.data = append(s.data, p...)
	return len(p), nil
}

func (s *bufferSink) WriteAt(p []byte, offset int64) (int, error) {
	if offset < 0 || offset > int64(len(s.data)) || int64(len(p)) > int64(len(s.data))-offset {
		return 0, core.Errorf(StatusIO, "can not patch %d bytes at offset %d: only %d bytes were written",
			len(p), offset, len(s.data))
	}
	return copy(s.data[offset:], p), nil
}
