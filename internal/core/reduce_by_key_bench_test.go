package core

import "testing"

// The data of the benchmark: 1,000 structures of 10 to 100 atoms (55 on average), 3
// components and 128 properties, summed per structure.
func benchByKeyData() ([]float64, []int, []int32) {
	var keys []int32
	for s := range 1000 {
		for range 10 + s%91 {
			keys = append(keys, int32(s))
		}
	}
	shape := []int{len(keys), 3, 128}
	values := make([]float64, len(keys)*3*128)
	for i := range values {
		values[i] = float64(i % 101)
	}
	return values, shape, keys
}

// BenchmarkReduceByKeySum is meant to be read against BenchmarkPlainRead: the reduction
// should stream its input at close to the speed of a plain read.
func BenchmarkReduceByKeySum(b *testing.B) { benchReduceByKey(b, ReduceSum) }

func BenchmarkReduceByKeyMax(b *testing.B) { benchReduceByKey(b, ReduceMax) }

func benchReduceByKey(b *testing.B, op Reduction) {
	values, shape, keys := benchByKeyData()
	b.SetBytes(int64(len(values) * 8))
	for b.Loop() {
		if _, err := ReduceByKey(op, values, shape, 0, keys, false); err != nil {
			b.Fatal(err)
		}
	}
}

// benchSink keeps the plain read from being optimised away.
var benchSink float64

// BenchmarkPlainRead reads the same data once, summing it in four independent sums so that
// the additions do not wait on each other.
func BenchmarkPlainRead(b *testing.B) {
	values, _, _ := benchByKeyData()
	b.SetBytes(int64(len(values) * 8))
	for b.Loop() {
		var s0, s1, s2, s3 float64
		for j := 0; j+4 <= len(values); j += 4 {
			v := values[j : j+4 : j+4]
			s0 += v[0]
			s1 += v[1]
			s2 += v[2]
			s3 += v[3]
		}
		benchSink = s0 + s1 + s2 + s3
	}
}

// BenchmarkFoldExtremeValues folds the data's rows into one running max per structure, values
// only (a block without gradients), on one goroutine: "vector" as the reductions do
// (fold_vector_amd64.s where built), "elementwise" with the loop of the other platforms, to
// show what the former gains.
func BenchmarkFoldExtremeValues(b *testing.B) {
	values, shape, keys := benchByKeyData()
	inner := shape[1] * shape[2]
	groupOf, runs := keyRuns(keys)
	g := groupsOf(groupOf, len(runs))
	out := make([]float64, len(runs)*inner)
	defer func() { foldVectors = true }()
	for _, vectors := range []bool{true, false} {
		foldVectors = vectors
		b.Run(map[bool]string{true: "vector", false: "elementwise"}[vectors], func(b *testing.B) {
			b.SetBytes(int64(len(values) * 8))
			for b.Loop() {
				for r := range runs {
					extremeRows(out[r*inner:(r+1)*inner], nil, values, inner, g.of(r), false, true)
				}
			}
		})
	}
}
