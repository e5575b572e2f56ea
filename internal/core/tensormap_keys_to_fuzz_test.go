package core

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// fuzzLabels makes labels of the given names and count, each value one of a few small ones so
// that rows repeat often. Checked labels whose rows repeat are made assumed unique instead:
// both kinds reach the operations.
func fuzzLabels(t *testing.T, r *byteReader, names []string, count int, checked bool) *ArrayLabels {
	values := make([]int32, 0, count*len(names))
	for range count * len(names) {
		values = append(values, int32(r.byte()%3))
	}
	host, err := HostArrayFromValues([]uintptr{uintptr(count), uintptr(len(names))}, values)
	require.NoError(t, err)
	labels, err := NewArrayLabels(names, host, checked)
	if err != nil {
		host, err = HostArrayFromValues([]uintptr{uintptr(count), uintptr(len(names))}, values)
		require.NoError(t, err)
		labels, err = NewArrayLabels(names, host, false)
	}
	require.NoError(t, err)
	return labels
}

// keysToFuzzBlock makes a block of float64 values counting from base, with labels read from r (a
// component axis when components > 0), and now and then a gradient; the block holds the only
// references to its labels. repeats tells whether its labels repeat a row.
func keysToFuzzBlock(t *testing.T, r *byteReader, base float64, components int) (block *Block, repeats bool) {
	flags := r.byte()
	samples := fuzzLabels(t, r, []string{"s"}, int(r.byte()%4), flags&1 != 0)
	properties := fuzzLabels(t, r, []string{"p"}, int(r.byte()%4), flags&2 != 0)
	var axes []*ArrayLabels
	if components > 0 {
		axes = []*ArrayLabels{rangeLabels(t, "c", components)}
	}
	defer func() {
		for _, l := range append(axes, samples, properties) {
			l.Release()
		}
	}()
	block, err := NewBlock(fuzzValues(t, base, labelsShape(samples, axes, properties)), samples, axes, properties)
	require.NoError(t, err)
	repeats = repeatsRows(t, samples) || repeatsRows(t, properties)

	if flags&4 != 0 && samples.Count() > 0 {
		count := int(r.byte() % 4)
		rows := make([]int32, 0, 2*count)
		for range count {
			rows = append(rows, int32(int(r.byte())%samples.Count()), int32(r.byte()%2))
		}
		host, err := HostArrayFromValues([]uintptr{uintptr(count), 2}, rows)
		require.NoError(t, err)
		gradientSamples, err := NewArrayLabels([]string{"sample", "x"}, host, flags&8 != 0)
		if err != nil { // repeated rows, checked
			return block, repeats
		}
		defer gradientSamples.Release()
		values := fuzzValues(t, -base, labelsShape(gradientSamples, axes, properties))
		gradient, err := NewBlock(values, gradientSamples, axes, properties)
		require.NoError(t, err)
		require.NoError(t, block.AddGradient("g", gradient))
		repeats = repeats || repeatsRows(t, gradientSamples)
	}
	return block, repeats
}

// fuzzValues makes a float64 array of the shape, its values base, base + 1, ...
func fuzzValues(t *testing.T, base float64, shape []uintptr) *HostArray {
	values := make([]float64, product(shape))
	for i := range values {
		values[i] = base + float64(i)
	}
	return f64Array(t, shape, values)
}

// repeatsRows tells whether labels hold the same row twice.
func repeatsRows(t *testing.T, labels *ArrayLabels) bool {
	rows := labelsRows(t, labels)
	for i := range rows {
		for j := range i {
			if slices.Equal(rows[i], rows[j]) {
				return true
			}
		}
	}
	return false
}

// requireValidResult checks what every tensor map keys_to gives must hold: values shaped as
// the labels say, gradient samples pointing at samples, and, when distinct is set (no labels
// of the blocks, nor the entries to move, repeat a row: the keys may), labels with distinct
// rows.
func requireValidResult(t *testing.T, result *TensorMap, distinct bool) {
	requireDistinct := func(labels *ArrayLabels, what string) {
		if distinct {
			require.False(t, repeatsRows(t, labels), "%s repeat a row: %v", what, labelsRows(t, labels))
		}
	}
	requireDistinct(result.Keys(), "keys")
	require.Len(t, result.Blocks(), result.Keys().Count())
	for _, block := range result.Blocks() {
		requireDistinct(block.Samples(), "samples")
		requireDistinct(block.Properties(), "properties")
		for _, c := range block.Components() {
			requireDistinct(c, "components")
		}
		shape, err := block.Values().Shape()
		require.NoError(t, err)
		require.Equal(t, labelsShape(block.Samples(), block.Components(), block.Properties()), shape)
		for _, g := range block.Gradients() {
			requireDistinct(g.Block.Samples(), "gradient samples")
			for _, row := range labelsRows(t, g.Block.Samples()) {
				require.Less(t, int(row[0]), block.Samples().Count(), "gradient sample %v", row)
			}
			shape, err := g.Block.Values().Shape()
			require.NoError(t, err)
			require.Equal(t, labelsShape(g.Block.Samples(), g.Block.Components(), block.Properties()), shape)
		}
	}
}

// requireSomeCoreError fails unless err is a core error with a message.
func requireSomeCoreError(t *testing.T, err error) {
	var coreErr *Error
	require.ErrorAs(t, err, &coreErr)
	require.NotEmpty(t, coreErr.Message)
}

// FuzzKeysTo runs keys_to_properties and keys_to_samples (now and then components_to_properties
// instead) on small tensor maps whose keys, samples, properties and gradient samples may repeat
// a row (made assumed unique), with or without entries to move: no call may panic, an error
// must be a core error, and a result must hold values of its labels' shape, and labels with
// distinct rows unless the blocks' labels or the entries repeated one (or the keys, for
// components_to_properties, which keeps them).
func FuzzKeysTo(f *testing.F) {
	f.Add([]byte{0x00, 2, 0, 1, 0, 1, 0, 2, 0, 1, 2, 0, 1, 0, 1, 1, 2, 0, 1})
	f.Add([]byte{0x01, 2, 0, 0, 0, 0, 2, 1, 0, 1, 2, 0, 1, 2, 1, 2, 1, 0, 2, 2, 1})
	f.Add([]byte{0x06, 3, 1, 0, 1, 0, 2, 0, 4, 2, 0, 1, 2, 1, 0, 3, 0, 1, 0, 1, 1, 0, 0, 4, 3, 0, 1, 2, 2})
	f.Add([]byte{0x1a, 2, 0, 1, 0, 1, 0x0c, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 1, 1, 2, 1, 0x0c, 2, 0, 1, 2, 1, 2, 2, 0, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &byteReader{data: data}
		flags := r.byte()
		count := 1 + int(r.byte()%4)
		keys := fuzzLabels(t, r, []string{"a", "b"}, count, flags&1 != 0)
		components := int(flags>>1) % 3
		blocks := make([]*Block, count)
		repeats := false
		for b := range blocks {
			axis := components
			if flags&0x20 != 0 && r.byte()%4 == 0 {
				axis = int(r.byte() % 3) // components that differ between blocks
			}
			var blockRepeats bool
			blocks[b], blockRepeats = keysToFuzzBlock(t, r, float64(1000*(b+1)), axis)
			repeats = repeats || blockRepeats
		}
		keysRepeat := repeatsRows(t, keys)
		tensor, err := NewTensorMap(keys, blocks)
		keys.Release()
		if err != nil { // blocks that do not fit together, freed by NewTensorMap
			requireSomeCoreError(t, err)
			return
		}
		defer tensor.Free()

		moved := [][]string{{"a"}, {"b"}, {"b", "a"}}[int(r.byte())%3]
		move := rowsLabels(t, moved)
		if flags&0x08 != 0 {
			move.Release()
			move = fuzzLabels(t, r, moved, int(r.byte()%3), flags&0x40 != 0)
			repeats = repeats || repeatsRows(t, move)
		}
		defer move.Release()
		fill, err := HostArrayFromValues([]uintptr{}, []float64{-1})
		require.NoError(t, err)

		var result *TensorMap
		switch {
		case flags&0x10 != 0:
			result, err = tensor.KeysToSamples(move, fill, flags&0x80 != 0)
		case r.byte()%4 == 3:
			fill.Destroy()
			result, err = tensor.ComponentsToProperties([]string{"c"})
			repeats = repeats || keysRepeat // the keys stay as they were
		default:
			result, err = tensor.KeysToProperties(move, fill, flags&0x80 != 0)
		}
		if err != nil {
			requireSomeCoreError(t, err)
			return
		}
		defer result.Free()
		requireValidResult(t, result, !repeats)
	})
}
