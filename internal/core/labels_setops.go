package core

import "slices"

// Set operations on labels with the same dimensions. Their results are unique by
// construction (rows of unique inputs, each taken once), so they are not checked again. The
// mappings always cover every input entry; the C layer decides which ones the caller gets.

// Union gives the entries of first, in order, followed by the entries of second that are not
// in first, in the order of second. firstMap[i] is i; secondMap[j] is the position of entry j
// of second in the result.
func Union(first, second *Labels) (result *Labels, firstMap, secondMap []int64, err error) {
	if err := checkSetOperands("union", first, second); err != nil {
		return nil, nil, nil, err
	}
	size := first.size

	firstMap = make([]int64, first.count)
	for i := range firstMap {
		firstMap[i] = int64(i)
	}

	// First pass: map every entry of second, counting the new ones; the second pass copies
	// them, so that the result is allocated once, at its exact size.
	secondMap = make([]int64, second.count)
	locateAll(first, second, secondMap)
	next := first.count
	for j, pos := range secondMap {
		if pos < 0 {
			secondMap[j] = int64(next)
			next++
		}
	}

	values := make([]int32, next*size)
	copy(values, first.values)
	for j, pos := range secondMap {
		if int(pos) >= first.count {
			copy(values[int(pos)*size:], second.row(j))
		}
	}
	return newDerivedLabels(first.names, values), firstMap, secondMap, nil
}

// Intersection gives the entries found in both first and second. It walks the smaller input
// (first when they have the same count), so the result follows that input's order. Mappings
// give each entry's position in the result, or -1 for entries not in it.
func Intersection(first, second *Labels) (result *Labels, firstMap, secondMap []int64, err error) {
	if err := checkSetOperands("intersection", first, second); err != nil {
		return nil, nil, nil, err
	}

	small, large := first, second
	if second.count < first.count {
		small, large = second, first
	}
	// smallMap first receives positions in large, then positions in the result.
	smallMap := make([]int64, small.count)
	locateAll(large, small, smallMap)
	largeMap := filledMapping(large.count)
	kept := 0
	for i, pos := range smallMap {
		if pos >= 0 {
			smallMap[i] = int64(kept)
			largeMap[pos] = int64(kept)
			kept++
		}
	}

	result = newDerivedLabels(first.names, keptRows(small, smallMap, kept))
	// Dropping entries keeps sorted rows sorted.
	if small.sorted.Load() == sortedYes {
		result.sorted.Store(sortedYes)
	}
	if small == first {
		return result, smallMap, largeMap, nil
	}
	return result, largeMap, smallMap, nil
}

// Difference gives the entries of first that are not in second, in the order of first.
// firstMap gives each entry's position in the result, or -1 for entries not in it.
func Difference(first, second *Labels) (result *Labels, firstMap []int64, err error) {
	if err := checkSetOperands("difference", first, second); err != nil {
		return nil, nil, err
	}

	// firstMap first receives positions in second, then positions in the result.
	firstMap = make([]int64, first.count)
	locateAll(second, first, firstMap)
	kept := 0
	for i, pos := range firstMap {
		if pos < 0 {
			firstMap[i] = int64(kept)
			kept++
		} else {
			firstMap[i] = -1
		}
	}

	result = newDerivedLabels(first.names, keptRows(first, firstMap, kept))
	if first.sorted.Load() == sortedYes {
		result.sorted.Store(sortedYes)
	}
	return result, firstMap, nil
}

// checkSetOperands rejects missing labels and labels with different dimensions.
func checkSetOperands(operation string, first, second *Labels) error {
	if first == nil {
		return Errorf(InvalidParameterError, "got invalid NULL pointer for first")
	}
	if second == nil {
		return Errorf(InvalidParameterError, "got invalid NULL pointer for second")
	}
	return checkSameNames(operation, first.names, second.names)
}

// checkSameNames rejects set operations between labels with different dimensions.
func checkSameNames(operation string, first, second []string) error {
	if !slices.Equal(first, second) {
		return Errorf(InvalidParameterError,
			"can not take the %s of these Labels, they have different dimensions: %s, and %s",
			operation, debugNameList(first), debugNameList(second))
	}
	return nil
}

// filledMapping gives a mapping of n entries, all -1 (not in the result).
func filledMapping(n int) []int64 {
	mapping := make([]int64, n)
	for i := range mapping {
		mapping[i] = -1
	}
	return mapping
}

// keptRows copies the kept entries of l (mapping >= 0), in order, into a new values slice.
func keptRows(l *Labels, mapping []int64, kept int) []int32 {
	if kept == l.count {
		return slices.Clone(l.values)
	}
	values := make([]int32, 0, kept*l.size)
	for i, pos := range mapping {
		if pos >= 0 {
			values = append(values, l.row(i)...)
		}
	}
	return values
}
