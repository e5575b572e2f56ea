//go:build refbench

package refbench

import (
	"math/rand/v2"
	"slices"
	"testing"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

var names = []string{"a", "b", "c"}

// grid gives the 1e6 rows (i, j, k), i, j, k < 100, in lexicographic order, as the C
// benchmarks' create_large case.
func grid() []int32 {
	values := make([]int32, 0, 3_000_000)
	for i := range int32(100) {
		for j := range int32(100) {
			for k := range int32(100) {
				values = append(values, i, j, k)
			}
		}
	}
	return values
}

// shuffledGrid gives the rows of grid in a random order.
func shuffledGrid() []int32 {
	values := grid()
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(values)/3, func(i, j int) {
		a, b := values[3*i:3*i+3], values[3*j:3*j+3]
		a[0], a[1], a[2], b[0], b[1], b[2] = b[0], b[1], b[2], a[0], a[1], a[2]
	})
	return values
}

// lookups gives n rows of the grid, in a random order.
func lookups(n int) []int32 {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]int32, 0, 3*n)
	for range n {
		rows = append(rows, rng.Int32N(100), rng.Int32N(100), rng.Int32N(100))
	}
	return rows
}

func needReference(b testing.TB) {
	if err := Open(); err != nil {
		b.Skip(err)
	}
}

// benchmarkCreate times create, and frees what it makes outside of the timed region, batch
// objects at a time. With lookup, the time includes a first position lookup.
func benchmarkCreate(b *testing.B, batch int, create func() (free func(), err error)) {
	pending := make([]func(), 0, batch)
	flush := func() {
		b.StopTimer()
		for _, free := range pending {
			free()
		}
		pending = pending[:0]
		b.StartTimer()
	}
	b.ResetTimer()
	for range b.N {
		free, err := create()
		if err != nil {
			b.Fatal(err)
		}
		if pending = append(pending, free); len(pending) == batch {
			flush()
		}
	}
	flush()
}

var lastRow = []int32{99, 99, 99}

// made ends the creation of labels: a first lookup when asked, then the function freeing
// them.
func made(labels interface{ Position([]int32) (int, error) }, err error, lookup bool, free func()) (func(), error) {
	if err == nil && lookup {
		_, err = labels.Position(lastRow)
	}
	if err != nil {
		return nil, err
	}
	return free, nil
}

func benchmarkCreateGo(b *testing.B, values []int32, checkUnique, lookup bool) {
	create := metatensor.NewLabelsFromValuesAssumeUnique
	if checkUnique {
		create = metatensor.NewLabelsFromValues
	}
	benchmarkCreate(b, 1, func() (func(), error) {
		labels, err := create(names, values)
		return made(labels, err, lookup, labels.Close)
	})
}

// benchmarkCreateGoOverArray makes labels assumed unique from an array over values, not a
// copy: the counterpart of the reference given an mts_array_t over the caller's buffer. The
// labels only read the values, so every array may share them.
func benchmarkCreateGoOverArray(b *testing.B, values []int32, lookup bool) {
	shape := []int{len(values) / len(names), len(names)}
	batch := 1
	if !lookup {
		batch = 1024 // as for the reference: nothing is read, the labels are made quickly
	}
	benchmarkCreate(b, batch, func() (func(), error) {
		array, err := metatensor.NewArrayFrom(shape, values)
		if err != nil {
			return nil, err
		}
		labels, err := metatensor.NewLabelsFromArrayAssumeUnique(names, array)
		return made(labels, err, lookup, labels.Close)
	})
}

func benchmarkCreateReference(b *testing.B, rows []int32, checkUnique, lookup bool) {
	needReference(b)
	values := NewValues(rows)
	defer values.Free()
	batch := 1
	if !checkUnique && !lookup {
		batch = 1024 // nothing is read: the labels are small, and made quickly
	}
	benchmarkCreate(b, batch, func() (func(), error) {
		labels, err := NewLabels(values, checkUnique)
		return made(labels, err, lookup, labels.Free)
	})
}

// The creation cases: sorted or shuffled rows, with the uniqueness check, or without it
// (the reference reads nothing then), or without it but followed by one position lookup
// (which makes both libraries read the values and index them).
var createCases = []struct {
	name                string
	values              func() []int32
	checkUnique, lookup bool
}{
	{"unique", grid, true, false},
	{"unique_shuffled", shuffledGrid, true, false},
	{"assume_unique", grid, false, false},
	{"assume_unique_then_position", grid, false, true},
}

func BenchmarkCreate(b *testing.B) {
	for _, c := range createCases {
		b.Run("go/"+c.name, func(b *testing.B) { benchmarkCreateGo(b, c.values(), c.checkUnique, c.lookup) })
		if !c.checkUnique {
			b.Run("go_over_array/"+c.name, func(b *testing.B) { benchmarkCreateGoOverArray(b, c.values(), c.lookup) })
		}
		b.Run("reference/"+c.name, func(b *testing.B) { benchmarkCreateReference(b, c.values(), c.checkUnique, c.lookup) })
	}
}

// One lookup per operation, among 1<<16 random rows of the 1e6 labels.
const lookupRows = 1 << 16

func benchmarkPositionGo(b *testing.B) {
	labels, err := metatensor.NewLabelsFromValues(names, grid())
	if err != nil {
		b.Fatal(err)
	}
	defer labels.Close()
	lookupLoop(b, labels.Position)
}

// lookupLoop times one call of position per operation, on random rows of the grid.
func lookupLoop(b *testing.B, position func([]int32) (int, error)) {
	rows := lookups(lookupRows)
	b.ResetTimer()
	for i := range b.N {
		o := 3 * (i % lookupRows)
		if _, err := position(rows[o : o+3]); err != nil {
			b.Fatal(err)
		}
	}
}

func referencePositionLabels(b *testing.B) Labels {
	needReference(b)
	values := NewValues(grid())
	labels, err := NewLabels(values, true)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		labels.Free()
		values.Free()
	})
	return labels
}

func benchmarkPositionReferenceCgo(b *testing.B) {
	labels := referencePositionLabels(b)
	lookupLoop(b, labels.Position)
}

func benchmarkPositionReferenceC(b *testing.B) {
	labels := referencePositionLabels(b)
	rows := NewValues(lookups(lookupRows))
	defer rows.Free()
	b.ResetTimer()
	for done := 0; done < b.N; done += lookupRows {
		if labels.Positions(rows, b.N-done) < 0 {
			b.Fatal("a lookup failed")
		}
	}
}

func BenchmarkPosition(b *testing.B) {
	b.Run("go", benchmarkPositionGo)
	b.Run("reference/cgo_call_per_lookup", benchmarkPositionReferenceCgo)
	b.Run("reference/c_loop", benchmarkPositionReferenceC)
}

// ratioRuns is how many times TestRatios runs each benchmark, alternating the two sides;
// it prints the medians.
const ratioRuns = 3

// TestRatios runs each pair of benchmarks and prints the time of the reference divided by
// the time of the Go API (above 1: the Go API is faster).
func TestRatios(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks take a while")
	}
	needReference(t)
	type pair struct {
		name         string
		goBench, ref func(*testing.B)
	}
	var pairs []pair
	for _, c := range createCases {
		pairs = append(pairs, pair{"create 1e6x3, " + c.name,
			func(b *testing.B) { benchmarkCreateGo(b, c.values(), c.checkUnique, c.lookup) },
			func(b *testing.B) { benchmarkCreateReference(b, c.values(), c.checkUnique, c.lookup) }})
		if !c.checkUnique {
			pairs = append(pairs, pair{"create 1e6x3, " + c.name + ", over an array (no copy)",
				func(b *testing.B) { benchmarkCreateGoOverArray(b, c.values(), c.lookup) },
				func(b *testing.B) { benchmarkCreateReference(b, c.values(), c.checkUnique, c.lookup) }})
		}
	}
	pairs = append(pairs,
		pair{"position (reference: one cgo call per lookup)", benchmarkPositionGo, benchmarkPositionReferenceCgo},
		pair{"position (reference: lookups in a C loop)", benchmarkPositionGo, benchmarkPositionReferenceC})
	t.Logf("%-50s %14s %14s %8s", "case", "go ns/op", "reference", "ratio")
	for _, pair := range pairs {
		var goNs, refNs []float64
		for range ratioRuns {
			goNs = append(goNs, nsPerOp(testing.Benchmark(pair.goBench)))
			refNs = append(refNs, nsPerOp(testing.Benchmark(pair.ref)))
		}
		goMedian, refMedian := median(goNs), median(refNs)
		t.Logf("%-50s %14.1f %14.1f %8.2f", pair.name, goMedian, refMedian, refMedian/goMedian)
	}
}

func nsPerOp(result testing.BenchmarkResult) float64 {
	return float64(result.T.Nanoseconds()) / float64(max(result.N, 1))
}

func median(values []float64) float64 {
	slices.Sort(values)
	return values[len(values)/2]
}
