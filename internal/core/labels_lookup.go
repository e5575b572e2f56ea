package core

// locateAll sets out[q] to the position in labels of entry q of queries (labels of the same
// width), or -1 when it is absent. It is the bulk lookup behind set operations and select.
//
// Sorted labels (the usual case for samples and properties) are merged: one sequential walk
// of both, with galloping to skip long runs, and no hash index at all, so labels checked as
// sorted never build one. Otherwise the queries go through the index by batches.
func locateAll(labels, queries *Labels, out []int64) {
	if labels.count == 0 || queries.count == 0 {
		for q := range out {
			out[q] = -1
		}
		return
	}
	if labels.IsSorted() && queries.IsSorted() {
		mergeFind(labels.values, queries.values, labels.size, out)
		return
	}
	labels.positions().findAll(labels.values, queries.values, labels.size, out)
}

// mergeFind is locateAll for strictly increasing rows in both values and queries.
func mergeFind(values, queries []int32, size int, out []int64) {
	count := len(values) / size
	j := 0 // every row before j is smaller than the current query
	for q := range out {
		query := rowAt(queries, size, q)
		j = lowerBound(values, size, count, j, query)
		if j < count && compareRows(rowAt(values, size, j), query) == 0 {
			out[q] = int64(j)
			j++
		} else {
			out[q] = -1
		}
	}
}

// lowerBound gives the first row at or after from that is not smaller than query. It
// gallops (steps of 1, 2, 4...) then bisects, so a nearby answer costs a comparison or two
// and a distant one a logarithm of the distance.
func lowerBound(values []int32, size, count, from int, query []int32) int {
	less := func(i int) bool { return compareRows(rowAt(values, size, i), query) < 0 }
	lo, hi, step := from, from, 1
	for hi < count && less(hi) {
		lo = hi + 1
		hi += step
		step *= 2
	}
	hi = min(hi, count)
	// The answer is in [lo, hi]: rows before lo are smaller, row hi (if any) is not.
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if less(mid) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
