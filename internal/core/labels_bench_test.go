package core

import (
	"testing"
)

var benchNames = []string{"a", "b", "c"}

// benchValues gives the reference benchmark's rows: (i, j, k) for i, j, k < 100, sorted.
func benchValues() []int32 {
	values := make([]int32, 0, 3*1_000_000)
	for i := range int32(100) {
		for j := range int32(100) {
			for k := range int32(100) {
				values = append(values, i, j, k)
			}
		}
	}
	return values
}

// benchShuffled gives the same rows in a scrambled order (a fixed permutation).
func benchShuffled() []int32 {
	values := benchValues()
	rng := newTestRand(5)
	count := len(values) / 3
	for i := count - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		for k := range 3 {
			values[3*i+k], values[3*j+k] = values[3*j+k], values[3*i+k]
		}
	}
	return values
}

func benchLabels(b *testing.B, values []int32) *Labels {
	b.Helper()
	l, err := NewLabels(benchNames, values, len(values)/3)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

// benchCreate times the creation of labels of count rows of values, checked or assumed unique,
// followed by one lookup of the last row (99, 99, 99) in 1e6 rows when lookup is set.
func benchCreate(b *testing.B, values []int32, count int, unique, lookup bool) {
	create := NewLabels
	if unique {
		create = NewLabelsAssumeUnique
	}
	for b.Loop() {
		l, err := create(benchNames, values, count)
		if err != nil {
			b.Fatal(err)
		}
		if !lookup {
			continue
		}
		if p, _ := l.Position([]int32{99, 99, 99}); p != 999_999 {
			b.Fatal(p)
		}
	}
}

// Labels/small of the reference: checked creation of 5x3 labels.
func BenchmarkLabelsSmall(b *testing.B) {
	benchCreate(b, []int32{0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6}, 5, false, false)
}

// Labels/large of the reference: checked creation of 1e6x3 sorted labels.
func BenchmarkLabelsLarge(b *testing.B) {
	benchCreate(b, benchValues(), 1_000_000, false, false)
}

// Checked creation of the same rows, shuffled: the check builds the index.
func BenchmarkLabelsLargeUnsorted(b *testing.B) {
	benchCreate(b, benchShuffled(), 1_000_000, false, false)
}

// Checked creation then one lookup, which builds the index of sorted labels.
func BenchmarkLabelsLargeThenPosition(b *testing.B) {
	benchCreate(b, benchValues(), 1_000_000, false, true)
}

// Labels/large_assume_unique of the reference: nothing read at creation.
func BenchmarkLabelsLargeAssumeUnique(b *testing.B) {
	benchCreate(b, benchValues(), 1_000_000, true, false)
}

// Creation with assume-unique then one lookup: the index is built lazily.
func BenchmarkLabelsLargeAssumeUniqueThenPosition(b *testing.B) {
	benchCreate(b, benchValues(), 1_000_000, true, true)
}

// One lookup (present rows, spread over the labels) in 1e6x3 labels with a built index.
func BenchmarkLabelsPosition(b *testing.B) {
	l := benchLabels(b, benchValues())
	_, _ = l.Position([]int32{0, 0, 0})
	rows := make([][]int32, 4096)
	rng := newTestRand(6)
	for i := range rows {
		rows[i] = l.Row(rng.IntN(l.Count()))
	}
	i := 0
	for b.Loop() {
		if p, _ := l.Position(rows[i&4095]); p < 0 {
			b.Fatal(p)
		}
		i++
	}
}

// One lookup of an absent row in 1e6x3 labels.
func BenchmarkLabelsPositionMissing(b *testing.B) {
	l := benchLabels(b, benchValues())
	rows := make([][]int32, 4096)
	rng := newTestRand(7)
	for i := range rows {
		rows[i] = []int32{rng.Int32N(100), rng.Int32N(100), 100 + rng.Int32N(100)}
	}
	_, _ = l.Position(rows[0])
	i := 0
	for b.Loop() {
		if p, _ := l.Position(rows[i&4095]); p >= 0 {
			b.Fatal(p)
		}
		i++
	}
}

// benchPair gives two 1e6x3 labels sharing half their rows: first is i < 100 (sorted),
// second i in 50..149, sorted or shuffled. Both have their index built: the hash path does
// not pay for it, and the merge path does not use it.
func benchPair(b *testing.B, sorted bool) (*Labels, *Labels) {
	first := benchLabels(b, benchValues())
	shifted := benchShuffled()
	if sorted {
		shifted = benchValues()
	}
	for r := 0; r < len(shifted); r += 3 {
		shifted[r] += 50
	}
	second := benchLabels(b, shifted)
	_, _ = first.Position([]int32{0, 0, 0})
	_, _ = second.Position([]int32{0, 0, 0})
	return first, second
}

func benchUnion(b *testing.B, sorted bool) {
	first, second := benchPair(b, sorted)
	for b.Loop() {
		if u, _, _, err := Union(first, second); err != nil || u.Count() != 1_500_000 {
			b.Fatal(err)
		}
	}
}

func benchIntersection(b *testing.B, sorted bool) {
	first, second := benchPair(b, sorted)
	for b.Loop() {
		if u, _, _, err := Intersection(first, second); err != nil || u.Count() != 500_000 {
			b.Fatal(err)
		}
	}
}

func benchDifference(b *testing.B, sorted bool) {
	first, second := benchPair(b, sorted)
	for b.Loop() {
		if u, _, err := Difference(first, second); err != nil || u.Count() != 500_000 {
			b.Fatal(err)
		}
	}
}

func BenchmarkLabelsUnion(b *testing.B)              { benchUnion(b, false) }
func BenchmarkLabelsUnionSorted(b *testing.B)        { benchUnion(b, true) }
func BenchmarkLabelsIntersection(b *testing.B)       { benchIntersection(b, false) }
func BenchmarkLabelsIntersectionSorted(b *testing.B) { benchIntersection(b, true) }
func BenchmarkLabelsDifference(b *testing.B)         { benchDifference(b, false) }
func BenchmarkLabelsDifferenceSorted(b *testing.B)   { benchDifference(b, true) }

// Select with the same dimensions: 1e5 entries looked up in 1e6 labels.
func BenchmarkLabelsSelectSameDimensions(b *testing.B) {
	l := benchLabels(b, benchValues())
	_, _ = l.Position([]int32{0, 0, 0})
	selection := benchLabels(b, benchShuffled()[:300_000])
	for b.Loop() {
		if s, err := Select(l, selection); err != nil || len(s) != 100_000 {
			b.Fatal(err)
		}
	}
}

// Select on two of three dimensions: every one of the 1e6 entries is projected and looked up
// in a selection of 1000 (j, k) pairs.
func BenchmarkLabelsSelectSubset(b *testing.B) {
	l := benchLabels(b, benchValues())
	values := []int32{}
	for j := range int32(10) {
		for k := range int32(100) {
			values = append(values, 10*j, k)
		}
	}
	selection, err := NewLabels([]string{"b", "c"}, values, 1000)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if s, err := Select(l, selection); err != nil || len(s) != 100_000 {
			b.Fatal(len(s), err)
		}
	}
}

// Select on one of three dimensions: every one of the 1e6 entries is looked up in a selection
// of 300 values of b (0, 3, 6, ..., 897), 34 of which are present.
func BenchmarkLabelsSelectOneDimension(b *testing.B) {
	l := benchLabels(b, benchValues())
	values := make([]int32, 300)
	for i := range values {
		values[i] = 3 * int32(i)
	}
	selection, err := NewLabels([]string{"b"}, values, 300)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if s, err := Select(l, selection); err != nil || len(s) != 340_000 {
			b.Fatal(len(s), err)
		}
	}
}

// benchNarrow gives 1e6 distinct rows of width 1 (i) or 2 (i / 1000, i % 1000), in a fixed
// scrambled order: the widths whose rows the index stores in slots of 2 and 4 words.
func benchNarrow(width int) []int32 {
	values := make([]int32, 0, width*1_000_000)
	for i := range int32(1_000_000) {
		if width == 1 {
			values = append(values, i)
		} else {
			values = append(values, i/1000, i%1000)
		}
	}
	rng := newTestRand(7)
	for i := 1_000_000 - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		for k := range width {
			values[width*i+k], values[width*j+k] = values[width*j+k], values[width*i+k]
		}
	}
	return values
}

// Checked creation of 1e6 scrambled rows of width 1 or 2, then lookups of 4096 of them: the
// check inserts by regions, the lookups probe one slot size each.
func benchNarrowCreateAndFind(b *testing.B, width int) {
	values := benchNarrow(width)
	for b.Loop() {
		l, err := NewLabels(benchNames[:width], values, 1_000_000)
		if err != nil {
			b.Fatal(err)
		}
		for i := range 4096 {
			row := values[width*i*200 : width*i*200+width]
			if p, _ := l.Position(row); p != i*200 {
				b.Fatal(p)
			}
		}
	}
}

func BenchmarkLabelsNarrowWidth1(b *testing.B) { benchNarrowCreateAndFind(b, 1) }
func BenchmarkLabelsNarrowWidth2(b *testing.B) { benchNarrowCreateAndFind(b, 2) }
