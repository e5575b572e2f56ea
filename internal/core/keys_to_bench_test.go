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
