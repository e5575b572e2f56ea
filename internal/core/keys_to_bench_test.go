package core

import (
	"fmt"
	"testing"
)

// BenchmarkKeysToTiny moves the keys of the smallest map of the keys_to sweep (bench/): one
// block of 10 samples (system, atom), no component, one property, into the properties and
// into the samples; host arrays, so only the library's own work is timed.
func BenchmarkKeysToTiny(b *testing.B) {
	rows := make([][]int32, 10)
	for i := range rows {
		j := (i * 7) % 10 // shuffled, as in the sweep
		rows[i] = []int32{int32(j / 20), int32(j % 20)}
	}
	samples := rowsLabels(b, []string{"system", "atom"}, rows...)
	properties := rowsLabels(b, []string{"n"}, []int32{0})
	keys := rowsLabels(b, []string{"key"}, []int32{0})
	keysToMove := rowsLabels(b, []string{"key"})
	defer func() {
		for _, l := range []*ArrayLabels{samples, properties, keys, keysToMove} {
			l.Release()
		}
	}()
	block, err := NewBlock(f64Array(b, labelsShape(samples, nil, properties), nil), samples, nil, properties)
	if err != nil {
		b.Fatal(err)
	}
	tensor, err := NewTensorMap(keys, []*Block{block})
	if err != nil {
		b.Fatal(err)
	}
	defer tensor.Free()
	for _, move := range []struct {
		name string
		run  func(fill Array) (*TensorMap, error)
	}{
		{"properties", func(fill Array) (*TensorMap, error) { return tensor.KeysToProperties(keysToMove, fill, true) }},
		{"samples", func(fill Array) (*TensorMap, error) { return tensor.KeysToSamples(keysToMove, fill, true) }},
	} {
		b.Run(move.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				fill, err := HostArrayFromValues([]uintptr{}, []float64{0}) // taken by the call
				if err != nil {
					b.Fatal(err)
				}
				result, err := move.run(fill)
				if err != nil {
					b.Fatal(err)
				}
				result.Free()
			}
		})
	}
}

// BenchmarkSortDistinctRows sorts shuffled distinct rows of 3 values (packed into words) and of
// 4 and 5 (compared as slices), the widths of merged samples such as (system, atom, key): 3
// against 4 shows what the packed sort gains.
func BenchmarkSortDistinctRows(b *testing.B) {
	for _, size := range []int{3, 4, 5} {
		for _, n := range []int{10, 1000, 100000} {
			rows := make([]int32, 0, n*size)
			for i := range n {
				j := (i * 7919) % n // shuffled, all different
				rows = append(rows, int32(j/400), int32(j%400/20), int32(j%20))
				for range size - 3 {
					rows = append(rows, int32(j%3))
				}
			}
			values := make([]int32, len(rows))
			b.Run(fmt.Sprintf("size%d_rows%d", size, n), func(b *testing.B) {
				for b.Loop() {
					copy(values, rows)
					sortDistinctRows(values, size)
				}
			})
		}
	}
}

// BenchmarkKeysToSamplesGradients moves the key of 10 blocks into the samples, each block of
// 100 samples (system, atom) in a shuffled order with a gradient of 3 rows per sample
// (sample, system, atom) x 3 components: the merged gradient samples are all different by
// construction, as are the merged samples. Host arrays, so only the library's work is timed.
func BenchmarkKeysToSamplesGradients(b *testing.B) {
	const blocks, samples = 10, 100
	properties := rowsLabels(b, []string{"n"}, []int32{0}, []int32{1})
	xyz := rowsLabels(b, []string{"xyz"}, []int32{0}, []int32{1}, []int32{2})
	keyRows := make([][]int32, blocks)
	list := make([]*Block, blocks)
	var owned []*ArrayLabels
	for k := range blocks {
		keyRows[k] = []int32{int32(k)}
		rows := make([][]int32, samples)
		var gradientRows [][]int32
		for i := range rows {
			j := (i*37 + k) % samples // shuffled, differently in each block
			rows[i] = []int32{int32(j / 20), int32(j % 20)}
			for atom := range 3 {
				gradientRows = append(gradientRows, []int32{int32(i), int32(j / 20), int32(atom)})
			}
		}
		sampleLabels := rowsLabels(b, []string{"system", "atom"}, rows...)
		gradientSamples := rowsLabels(b, []string{"sample", "system", "atom"}, gradientRows...)
		owned = append(owned, sampleLabels, gradientSamples)
		block, err := NewBlock(f64Array(b, labelsShape(sampleLabels, nil, properties), nil), sampleLabels, nil, properties)
		if err != nil {
			b.Fatal(err)
		}
		components := []*ArrayLabels{xyz}
		gradient, err := NewBlock(f64Array(b, labelsShape(gradientSamples, components, properties), nil),
			gradientSamples, components, properties)
		if err != nil {
			b.Fatal(err)
		}
		if err := block.AddGradient("positions", gradient); err != nil {
			b.Fatal(err)
		}
		list[k] = block
	}
	keys := rowsLabels(b, []string{"key"}, keyRows...)
	keysToMove := rowsLabels(b, []string{"key"})
	defer func() {
		for _, l := range append(owned, properties, xyz, keys, keysToMove) {
			l.Release()
		}
	}()
	tensor, err := NewTensorMap(keys, list)
	if err != nil {
		b.Fatal(err)
	}
	defer tensor.Free()
	b.ReportAllocs()
	for b.Loop() {
		fill, err := HostArrayFromValues([]uintptr{}, []float64{0}) // taken by the call
		if err != nil {
			b.Fatal(err)
		}
		result, err := tensor.KeysToSamples(keysToMove, fill, true)
		if err != nil {
			b.Fatal(err)
		}
		result.Free()
	}
}
