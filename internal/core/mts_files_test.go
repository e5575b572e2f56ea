package core

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// hostArrays is the CreateArray of the tests: host arrays, counted.
type hostArrays struct{ created []*HostArray }

func (h *hostArrays) create(shape []uintptr, dtype DType) (Array, error) {
	array, err := NewHostArray(dtype, shape)
	if err == nil {
		h.created = append(h.created, array)
	}
	return array, err
}

// gradientBlock builds the gradient of a block with samples (sample, atom) pointing at every
// sample of the parent, a new component of size 3 in front of the parent's, and the parent's
// properties. The caller keeps its references to components and properties.
func gradientBlock(t testing.TB, parentSamples int, name string, components []*ArrayLabels, properties *ArrayLabels, offset float64) *Block {
	rows := make([][]int32, parentSamples)
	for i := range rows {
		rows[i] = []int32{int32(i), int32(i % 3)}
	}
	samples := rowsLabels(t, []string{"sample", "atom"}, rows...)
	direction := rangeLabels(t, name, 3)
	all := append([]*ArrayLabels{direction}, components...)
	shape := labelsShape(samples, all, properties)
	values := make([]float64, product(shape))
	for i := range values {
		values[i] = offset + float64(i)/8
	}
	array := f64Array(t, shape, values)
	block, err := NewBlock(array, samples, all, properties)
	require.NoError(t, err)
	samples.Release()
	direction.Release()
	return block
}

func product(shape []uintptr) int {
	n := 1
	for _, d := range shape {
		n *= int(d)
	}
	return n
}

// testTensorMap: two blocks with a component, a gradient with a nested gradient, and info.
func testTensorMap(t testing.TB) *TensorMap {
	var blocks []*Block
	for b := range 2 {
		samples := rangeLabels(t, "system", 3+b)
		component := rangeLabels(t, "o3_mu", 2)
		properties := rangeLabels(t, "n", 4)
		shape := labelsShape(samples, []*ArrayLabels{component}, properties)
		values := make([]float64, product(shape))
		for i := range values {
			values[i] = float64(100*b + i)
		}
		component.Retain()
		properties.Retain()
		block := newTestBlock(t, values, samples, []*ArrayLabels{component}, properties)
		gradient := gradientBlock(t, 3+b, "xyz", []*ArrayLabels{component}, properties, float64(b))
		xyz := rangeLabels(t, "xyz", 3)
		nested := gradientBlock(t, 3+b, "cell", []*ArrayLabels{xyz, component}, properties, 0.5)
		xyz.Release()
		require.NoError(t, gradient.AddGradient("strain", nested))
		require.NoError(t, block.AddGradient("positions", gradient))
		component.Release()
		properties.Release()
		blocks = append(blocks, block)
	}
	keys := rowsLabels(t, []string{"center", "neighbor"}, []int32{1, 1}, []int32{6, 1})
	tensor, err := NewTensorMap(keys, blocks)
	require.NoError(t, err)
	keys.Release()
	require.NoError(t, tensor.Info().Set("creator", "tests"))
	require.NoError(t, tensor.Info().Set("about", "a \"quoted\" text"))
	return tensor
}

func requireSameLabels(t *testing.T, want, got *ArrayLabels) {
	t.Helper()
	require.Equal(t, want.Names(), got.Names())
	require.Equal(t, labelsRows(t, want), labelsRows(t, got))
}

func requireSameBlock(t *testing.T, want, got *Block) {
	t.Helper()
	require.Equal(t, f64Values(t, want.Values()), f64Values(t, got.Values()))
	wantShape, err := want.Values().Shape()
	require.NoError(t, err)
	gotShape, err := got.Values().Shape()
	require.NoError(t, err)
	require.Equal(t, wantShape, gotShape)
	requireSameLabels(t, want.Samples(), got.Samples())
	require.Len(t, got.Components(), len(want.Components()))
	for i := range want.Components() {
		requireSameLabels(t, want.Components()[i], got.Components()[i])
	}
	requireSameLabels(t, want.Properties(), got.Properties())
	require.Len(t, got.Gradients(), len(want.Gradients()))
	for i, gradient := range want.Gradients() {
		require.Equal(t, gradient.Parameter, got.Gradients()[i].Parameter)
		requireSameBlock(t, gradient.Block, got.Gradients()[i].Block)
	}
}

func requireSameTensorMap(t *testing.T, want, got *TensorMap) {
	t.Helper()
	requireSameLabels(t, want.Keys(), got.Keys())
	require.Len(t, got.Blocks(), len(want.Blocks()))
	for i := range want.Blocks() {
		requireSameBlock(t, want.Blocks()[i], got.Blocks()[i])
	}
	require.ElementsMatch(t, want.Info().Keys(), got.Info().Keys())
	for _, key := range want.Info().Keys() {
		value, _ := want.Info().Get(key)
		loaded, _ := got.Info().Get(key)
		require.Equal(t, value, loaded)
	}
}

func saveToMemory(t *testing.T, save func(SaveSink) error) []byte {
	t.Helper()
	sink := &memorySink{}
	require.NoError(t, save(sink))
	return sink.data
}

func TestTensorMapSaveLoadRoundTrip(t *testing.T) {
	tensor := testTensorMap(t)
	defer tensor.Free()
	data := saveToMemory(t, func(s SaveSink) error { return SaveTensorMap(s, tensor) })

	arrays := &hostArrays{}
	loaded, err := LoadTensorMapBuffer(data, arrays.create)
	require.NoError(t, err)
	defer loaded.Free()
	requireSameTensorMap(t, tensor, loaded)
	// Values, then gradients, then nested gradients, block after block.
	require.Len(t, arrays.created, 6)
	// Loaded gradients share their parent's properties.
	block := loaded.Blocks()[0]
	require.Same(t, block.Properties(), block.Gradients()[0].Block.Properties())

	// Saving what was loaded gives the same bytes, through memory and through a file.
	require.Equal(t, data, saveToMemory(t, func(s SaveSink) error { return SaveTensorMap(s, loaded) }))
	path := filepath.Join(t.TempDir(), "tensor.mts")
	require.NoError(t, SaveTensorMapFile(path, loaded))
	written, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, data, written)
	fromFile, err := LoadTensorMapFile(path, arrays.create)
	require.NoError(t, err)
	requireSameTensorMap(t, tensor, fromFile)
	fromFile.Free()
}

func TestEmptyTensorMapSaveLoad(t *testing.T) {
	keys := rowsLabels(t, []string{"a"})
	tensor, err := NewTensorMap(keys, nil)
	require.NoError(t, err)
	keys.Release()
	defer tensor.Free()
	data := saveToMemory(t, func(s SaveSink) error { return SaveTensorMap(s, tensor) })
	loaded, err := LoadTensorMapBuffer(data, (&hostArrays{}).create)
	require.NoError(t, err)
	defer loaded.Free()
	require.Equal(t, []string{"a"}, loaded.Keys().Names())
	require.Zero(t, loaded.Keys().Count())
	require.Empty(t, loaded.Blocks())
	require.Zero(t, loaded.Info().Len())
}

func TestBlockAndLabelsSaveLoad(t *testing.T) {
	tensor := testTensorMap(t)
	defer tensor.Free()
	block := tensor.Blocks()[0]
	data := saveToMemory(t, func(s SaveSink) error { return SaveBlock(s, block) })
	loaded, err := LoadBlockBuffer(data, (&hostArrays{}).create)
	require.NoError(t, err)
	requireSameBlock(t, block, loaded)
	require.Equal(t, data, saveToMemory(t, func(s SaveSink) error { return SaveBlock(s, loaded) }))
	loaded.Free()

	keys := saveToMemory(t, func(s SaveSink) error { return SaveLabels(s, tensor.Keys()) })
	labels, err := LoadLabelsBuffer(keys)
	require.NoError(t, err)
	requireSameLabels(t, tensor.Keys(), labels)
	origin, err := labels.Array().Origin()
	require.NoError(t, err)
	require.Equal(t, LabelsOriginName, OriginName(origin))
	labels.Release()
}

func TestLoadErrorsNameTheSourceAndHint(t *testing.T) {
	tensor := testTensorMap(t)
	defer tensor.Free()
	tensorData := saveToMemory(t, func(s SaveSink) error { return SaveTensorMap(s, tensor) })
	blockData := saveToMemory(t, func(s SaveSink) error { return SaveBlock(s, tensor.Blocks()[1]) })
	labelsData := saveToMemory(t, func(s SaveSink) error { return SaveLabels(s, tensor.Keys()) })
	create := (&hostArrays{}).create

	check := func(err error, message string) {
		t.Helper()
		require.ErrorIs(t, err, &Error{Status: SerializationError})
		require.Contains(t, err.Error(), "serialization format error: "+message)
	}
	_, err := LoadTensorMapBuffer(labelsData, create)
	check(err, "unable to load a TensorMap from buffer, use `load_labels_buffer` to load Labels: ")
	_, err = LoadTensorMapBuffer(blockData, create)
	check(err, "unable to load a TensorMap from buffer, use `load_block_buffer` to load TensorBlock: ")
	_, err = LoadTensorMapBuffer([]byte("this is not a valid mts file"), create)
	check(err, "unable to load a TensorMap from buffer: ")
	_, err = LoadBlockBuffer(labelsData, create)
	check(err, "unable to load a TensorBlock from buffer, use `load_labels` to load Labels: ")
	_, err = LoadBlockBuffer(tensorData, create)
	check(err, "unable to load a TensorBlock from buffer, use `load` to load TensorMap: ")
	_, err = LoadLabelsBuffer(tensorData)
	check(err, "unable to load Labels from buffer, use `load_buffer` to load TensorMap: ")
	_, err = LoadLabelsBuffer(blockData)
	check(err, "unable to load Labels from buffer, use `load_block_buffer` to load TensorBlock: ")

	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		return path
	}
	labelsPath := write("keys.NPY", labelsData)
	_, err = LoadTensorMapFile(labelsPath, create)
	check(err, "unable to load a TensorMap from '"+labelsPath+"', use `load_labels` to load Labels: ")
	blockPath := write("block.mts", blockData)
	_, err = LoadTensorMapFile(blockPath, create)
	check(err, "unable to load a TensorMap from '"+blockPath+"', use `load_block` to load TensorBlock: ")
	tensorPath := write("tensor.mts", tensorData)
	_, err = LoadLabelsFile(tensorPath)
	check(err, "unable to load Labels from '"+tensorPath+"', use `load` to load TensorMap: ")
	_, err = LoadBlockFile(tensorPath, create)
	check(err, "unable to load a TensorBlock from '"+tensorPath+"', use `load` to load TensorMap: ")

	for _, err := range []error{
		func() error { _, err := LoadTensorMapBuffer(nil, create); return err }(),
		func() error { _, err := LoadBlockBuffer(nil, create); return err }(),
		func() error { _, err := LoadLabelsBuffer(nil); return err }(),
	} {
		require.ErrorIs(t, err, &Error{Status: SerializationError})
		require.Regexp(t, "unable to load (TensorMap|TensorBlock|Labels) from empty buffer$", err.Error())
	}

	_, err = LoadTensorMapFile(filepath.Join(dir, "missing.mts"), create)
	require.ErrorIs(t, err, &Error{Status: IOError})
	require.Contains(t, err.Error(), "No such file or directory (os error 2)")
	err = SaveTensorMapFile(filepath.Join(dir, "missing", "x.mts"), tensor)
	require.ErrorIs(t, err, &Error{Status: IOError})
}

func TestLoadFailureDestroysCreatedArrays(t *testing.T) {
	tensor := testTensorMap(t)
	defer tensor.Free()
	data := saveToMemory(t, func(s SaveSink) error { return SaveTensorMap(s, tensor) })

	// Fail at each create call in turn: every array made before must be destroyed.
	for failAt := range 6 {
		var made []*countedArray
		create := func(shape []uintptr, dtype DType) (Array, error) {
			if len(made) == failAt {
				return nil, Errorf(CallbackError, "no more arrays")
			}
			array, err := NewHostArray(dtype, shape)
			require.NoError(t, err)
			c := counted(array)
			made = append(made, c)
			return c, nil
		}
		_, err := LoadTensorMapBuffer(data, create)
		require.ErrorIs(t, err, &Error{Status: CallbackError}, "failing at %d", failAt)
		require.Len(t, made, failAt)
		for _, array := range made {
			require.Equal(t, 1, array.calls["destroy"])
		}
	}
}

func TestSaveRejectsNonUTF8InfoValues(t *testing.T) {
	tensor := testTensorMap(t)
	defer tensor.Free()
	require.NoError(t, tensor.Info().Set("bad", "\xff"))
	err := SaveTensorMap(&memorySink{}, tensor)
	require.ErrorIs(t, err, &Error{Status: InternalError})
}

func TestGradientsAreWrittenSortedByParameter(t *testing.T) {
	entries := func(order ...string) []string {
		samples := rangeLabels(t, "s", 2)
		properties := rangeLabels(t, "p", 1)
		properties.Retain()
		block := newTestBlock(t, nil, samples, nil, properties)
		defer block.Free()
		for _, parameter := range order {
			require.NoError(t, block.AddGradient(parameter, gradientBlock(t, 2, "xyz", nil, properties, 0)))
		}
		properties.Release()
		data := saveToMemory(t, func(s SaveSink) error { return SaveBlock(s, block) })
		archive, err := openZip(bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err)
		return archive.Names()
	}
	sorted := entries("Z", "a", "b")
	require.Equal(t, sorted, entries("b", "Z", "a"))
	require.Equal(t, []string{"values.npy", "samples.npy", "properties.npy",
		"gradients/Z/values.npy", "gradients/Z/samples.npy", "gradients/Z/components/0.npy",
		"gradients/a/values.npy", "gradients/a/samples.npy", "gradients/a/components/0.npy",
		"gradients/b/values.npy", "gradients/b/samples.npy", "gradients/b/components/0.npy"}, sorted)
}
