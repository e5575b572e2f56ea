package core

import (
	"strconv"
	"strings"
)

// checkUnique fails when two rows are equal, naming the row the reference names; it also
// sets the sorted flag and, for unsorted rows, the hash index.
//
// The reference walks rows while they strictly increase (an equal neighbour is the duplicate
// it reports), and at the first decrease sorts every row and reports the smallest duplicated
// one. Here the walk is the same, but past a decrease the rows go into the hash index
// instead of being sorted: an insertion that finds its row already there is a duplicate, and
// the smallest such row is the one the sort would have found. The index built on the way is
// the labels' own, so checking costs no extra pass.
//
// Sorted rows are proven unique by the walk alone: their index stays lazy, built on first
// lookup, so that labels only carried around (the common case for sorted samples) never pay
// for it.
func (l *Labels) checkUnique() error {
	values, size, count := l.values, l.size, l.count
	if count <= 1 {
		return nil
	}

	first := walkIncreasing(values, size, count)
	if first == count {
		l.sorted.Store(sortedYes)
		return nil
	}
	if compareRows(rowAt(values, size, first-1), rowAt(values, size, first)) == 0 {
		return duplicateEntryError(l.row(first))
	}
	l.sorted.Store(sortedNo)

	ix := newLabelsIndex(count, size)
	// Rows before the decrease are strictly increasing, hence distinct.
	ix.insertAllNew(values, size, 0, first)
	smallest := -1
	for _, pos := range ix.insertAll(values, size, first, count) {
		if smallest < 0 || compareRows(rowAt(values, size, pos), rowAt(values, size, smallest)) < 0 {
			smallest = pos
		}
	}
	if smallest >= 0 {
		return duplicateEntryError(l.row(smallest))
	}
	l.index.Store(ix)
	return nil
}

// walkIncreasing gives the first row that is not strictly greater than the one before it, or
// count when all rows increase.
func walkIncreasing(values []int32, size, count int) int {
	switch size {
	case 1:
		for i := 1; i < count; i++ {
			if values[i-1] >= values[i] {
				return i
			}
		}
		return count
	case 3:
		// The usual width of samples (system, atom, ...): compare without a loop.
		for i := 1; i < count; i++ {
			p := values[3*i-3 : 3*i : 3*i]
			r := values[3*i : 3*i+3 : 3*i+3]
			if p[0] != r[0] {
				if p[0] > r[0] {
					return i
				}
				continue
			}
			if p[1] != r[1] {
				if p[1] > r[1] {
					return i
				}
				continue
			}
			if p[2] >= r[2] {
				return i
			}
		}
		return count
	}
	for i := 1; i < count; i++ {
		if compareRows(rowAt(values, size, i-1), rowAt(values, size, i)) >= 0 {
			return i
		}
	}
	return count
}

func duplicateEntryError(row []int32) error {
	text := make([]string, len(row))
	for k, v := range row {
		text[k] = strconv.FormatInt(int64(v), 10)
	}
	return Errorf(InvalidParameterError,
		"can not have the same label entry multiple times: [%s] is already present", strings.Join(text, ", "))
}
