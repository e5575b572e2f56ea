package core

import "math"

// The arithmetic of the sample reductions, on row-major values whose first axis is the
// samples (docs/reference-behaviour.md#reductions-over-samples). It follows
// metatensor-operations' order of operations, so that floating point results agree: sums
// in sample order, then a division by the counts.

// SampleReduction is what ReduceOverSamples computes over each group of samples.
type SampleReduction int

const (
	SamplesSum SampleReduction = iota
	SamplesMean
	SamplesVar
	SamplesStd
	SamplesMax
	SamplesMin
)

// String names a reduction as the functions of metatensor-operations do.
func (r SampleReduction) String() string {
	names := [...]string{"sum", "mean", "var", "std", "max", "min"}
	if r < 0 || int(r) >= len(names) {
		return "unknown"
	}
	return names[r]
}

// ParseSampleReduction reads the name of a reduction, as String gives it.
func ParseSampleReduction(name string) (SampleReduction, error) {
	for r := SamplesSum; r <= SamplesMin; r++ {
		if r.String() == name {
			return r, nil
		}
	}
	return 0, Errorf(InvalidParameterError,
		"unknown reduction '%s': expected sum, mean, var, std, max or min", name)
}

// needsFloat tells whether the reduction divides, so that integers can not hold its result.
func (r SampleReduction) needsFloat() bool {
	return r == SamplesMean || r == SamplesVar || r == SamplesStd
}

// reducedValues is the reduction of a block's values, with what the gradients need.
type reducedValues[T Reducible] struct {
	values   []T   // one row per group
	mean     []T   // for var and std: the mean of every group
	selected []int // for max and min of a block with gradients: the sample each element comes from
}

// reduceSampleValues reduces x, with inner elements per sample, over the groups g; ignoreNaN
// is for max and min, and positions says whether they note the sample of every value (the
// gradients need them).
func reduceSampleValues[T Reducible](op SampleReduction, x []T, inner int, g groups, ignoreNaN, positions bool) (reducedValues[T], error) {
	n := len(g.members)
	r := reducedValues[T]{values: resultBuffer[T](len(g.counts) * inner)}
	var err error
	switch op {
	case SamplesSum:
		err = reduceGroups(ReduceSum, x, 1, n, inner, g, false, r.values, nil)
	case SamplesMean:
		err = reduceGroups(ReduceMean, x, 1, n, inner, g, false, r.values, nil)
	case SamplesVar, SamplesStd:
		r.mean, err = meanAndVariance(x, n, inner, g, r.values)
		if op == SamplesStd {
			squareRoots(r.values)
		}
	case SamplesMax, SamplesMin:
		if positions {
			r.selected = make([]int, len(r.values))
		}
		reduction := ReduceMax
		if op == SamplesMin {
			reduction = ReduceMin
		}
		err = reduceGroups(reduction, x, 1, n, inner, g, ignoreNaN, r.values, r.selected)
	default:
		err = Errorf(InvalidParameterError, "unknown reduction over samples %d", int(op))
	}
	return r, err
}

// meanAndVariance gives the group means of x and its variances, in two passes over each
// group as metatensor-operations 0.5 does: the mean of the squared differences to the
// group's mean, written to variance. The rows of a group are read again while still in cache.
func meanAndVariance[T Reducible](x []T, n, inner int, g groups, variance []T) (mean []T, err error) {
	mean = make([]T, len(variance))
	if err = reduceGroups(ReduceMean, x, 1, n, inner, g, false, mean, nil); err != nil {
		return nil, err
	}
	forRowRanges(len(g.counts), len(x)*sizeOf[T](), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			m, v := mean[r*inner:(r+1)*inner], variance[r*inner:(r+1)*inner]
			clear(v)
			for _, i := range g.of(r) {
				row := x[i*inner : (i+1)*inner]
				for j, value := range row[:len(v)] {
					d := value - m[j]
					v[j] += d * d
				}
			}
			// divided even by a count of 1, as operations does (the same result)
			divideRow(v, g.counts[r])
		}
	})
	return mean, nil
}

// squareRoots replaces every element by its square root (NaN for a negative one).
func squareRoots[T Reducible](v []T) {
	for i, x := range v {
		v[i] = T(math.Sqrt(float64(x)))
	}
}

// gradientPlan says how the rows of a gradient map to the reduced gradient.
type gradientPlan struct {
	rows      groups // the reduced gradient row of every gradient row
	oldSample []int  // the block sample every gradient row refers to
	newSample []int  // the reduced sample of every reduced gradient row
}

// reduceGradientValues reduces the values gv of a gradient, with inner elements per row,
// given the block's values x (xInner elements per sample) and their reduction r.
func reduceGradientValues[T Reducible](op SampleReduction, gv []T, inner int, plan gradientPlan, x []T, xInner int, r reducedValues[T], sampleGroups []int) ([]T, error) {
	n := len(plan.oldSample)
	switch op {
	case SamplesSum, SamplesMean:
		reduction := ReduceSum
		if op == SamplesMean {
			reduction = ReduceMean
		}
		out := resultBuffer[T](len(plan.newSample) * inner)
		err := reduceGroups(reduction, gv, 1, n, inner, plan.rows, false, out, nil)
		return out, err
	case SamplesVar, SamplesStd:
		return varianceGradient(op, gv, inner, plan, x, xInner, r)
	case SamplesMax, SamplesMin:
		return selectedGradient(gv, inner, plan, xInner, r.selected, sampleGroups), nil
	}
	return nil, Errorf(InvalidParameterError, "unknown reduction over samples %d", int(op))
}

// varianceGradient is the gradient of the variance, 2 (<g x> - <g> <x>), or of the standard
// deviation, (<g x> - <g> <x>) / std, where NaN and infinities become 0. As in
// metatensor-operations, <g> and <g x> average over the gradient rows that land on each
// reduced gradient row. Each reduced row is made at once from its gradient rows, <g x> in a
// scratch row, so that no array as large as the gradient is written but the result.
func varianceGradient[T Reducible](op SampleReduction, gv []T, inner int, plan gradientPlan, x []T, xInner int, r reducedValues[T]) ([]T, error) {
	out := resultBuffer[T](len(plan.newSample) * inner)
	forRowRanges(len(plan.newSample), len(gv)*sizeOf[T](), func(lo, hi int) {
		gx := make([]T, inner)
		for row := lo; row < hi; row++ {
			g, members := out[row*inner:(row+1)*inner], plan.rows.of(row)
			sumRows(g, gv, inner, members)
			productRows(gx, gv, inner, members, plan.oldSample, x, xInner)
			count := plan.rows.counts[row]
			divideRow(g, count)
			divideRow(gx, count)
			s := plan.newSample[row]
			spreadGradientRow(op, g, gx, r.mean[s*xInner:(s+1)*xInner], r.values[s*xInner:(s+1)*xInner])
		}
	})
	return out, nil
}

// productRows sets gx to the sum of the gradient rows members of gv, each times the values
// of its sample (x, xInner elements per sample). A gradient row is its own components
// (xyz...) times a row of the values: the loops go over these chunks, so that no element
// needs a division to find its value.
func productRows[T Reducible](gx, gv []T, inner int, members, oldSample []int, x []T, xInner int) {
	clear(gx)
	for _, i := range members {
		xs := x[oldSample[i]*xInner : (oldSample[i]+1)*xInner]
		in := gv[i*inner : (i+1)*inner]
		for start := 0; start < len(gx); start += xInner {
			chunk, acc := in[start:start+xInner], gx[start:start+xInner]
			for j, v := range xs {
				acc[j] += chunk[j] * v
			}
		}
	}
}

// spreadGradientRow turns g = <g> into the gradient of the variance or of the standard
// deviation, given gx = <g x> and the sample's mean and variance or standard deviation.
func spreadGradientRow[T Reducible](op SampleReduction, g, gx, mean, spread []T) {
	for start := 0; start < len(g); start += len(mean) {
		g, gx := g[start:start+len(mean)], gx[start:start+len(mean)]
		for j, m := range mean {
			d := gx[j] - g[j]*m
			if op == SamplesVar {
				g[j] = 2 * d
				continue
			}
			q := float64(d / spread[j])
			if math.IsNaN(q) || math.IsInf(q, 0) {
				q = 0
			}
			g[j] = T(q)
		}
	}
}

// selectedGradient is the gradient of max and min: every element takes the gradient of the
// sample it was selected from, other samples bringing nothing.
func selectedGradient[T Reducible](gv []T, inner int, plan gradientPlan, xInner int, selected []int, sampleGroups []int) []T {
	out := resultBuffer[T](len(plan.newSample) * inner)
	forRowRanges(len(plan.newSample), len(gv)*sizeOf[T](), func(lo, hi int) {
		for row := lo; row < hi; row++ {
			dst := out[row*inner : (row+1)*inner]
			clear(dst)
			for _, i := range plan.rows.of(row) {
				s := plan.oldSample[i]
				in := gv[i*inner : (i+1)*inner]
				picked := selected[sampleGroups[s]*xInner : (sampleGroups[s]+1)*xInner]
				for start := 0; start < inner; start += xInner {
					chunk, d := in[start:start+xInner], dst[start:start+xInner]
					for j, p := range picked {
						if p == s {
							d[j] += chunk[j]
						}
					}
				}
			}
		}
	})
	return out
}
