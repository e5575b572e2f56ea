package core

import (
	"math"
	"slices"
)

// Select gives the positions in labels of the entries matching selection.
//
// When both have the same dimensions in the same order, each selection entry is looked up:
// the positions come in selection order, entries that are absent being skipped. Otherwise
// every selection dimension must be a dimension of labels, and the entries of labels whose
// values on those dimensions equal any selection entry are kept, in the order of labels (all
// of them for a selection without dimensions).
func Select(labels, selection *Labels) ([]uint64, error) {
	if labels == nil {
		return nil, Errorf(InvalidParameterError, "got invalid NULL pointer for labels")
	}
	if selection == nil {
		return nil, Errorf(InvalidParameterError, "got invalid NULL pointer for selection")
	}

	if slices.Equal(labels.names, selection.names) {
		return selectEntries(labels, selection)
	}

	columns := make([]int, len(selection.names))
	for i, name := range selection.names {
		columns[i] = slices.Index(labels.names, name)
		if columns[i] < 0 {
			return nil, errNotInSelection(name)
		}
	}

	if len(columns) == 0 {
		return allEntries(labels.count), nil
	}

	return selectProjections(labels, selection, columns), nil
}

// selectProjections keeps the entries of labels whose values in columns (the selection's
// dimensions) form an entry of selection, found through the selection's own index.
func selectProjections(labels, selection *Labels, columns []int) []uint64 {
	selected := []uint64{}
	if labels.count == 0 || selection.count == 0 {
		return selected
	}
	if selected, ok := selectInDenseRange(labels, selection, columns); ok {
		return selected
	}
	ix := selection.positions()
	width := len(columns)

	if ix.slotCount() <= cachedIndexSlots {
		// The usual small selection, whose index stays in cache: one entry at a time.
		projection := make([]int32, width)
		for i := 0; i < labels.count; i++ {
			row := labels.row(i)
			for k, c := range columns {
				projection[k] = row[c]
			}
			if ix.find(selection.values, projection) >= 0 {
				selected = append(selected, uint64(i))
			}
		}
		return selected
	}

	// A large selection: project a chunk of entries, then look them up by batches.
	chunk := min(labels.count, selectChunk)
	projections := make([]int32, chunk*width)
	found := make([]int64, chunk)
	for base := 0; base < labels.count; base += chunk {
		n := min(chunk, labels.count-base)
		for i := range n {
			row := labels.row(base + i)
			projection := projections[i*width : i*width+width : i*width+width]
			for k, c := range columns {
				projection[k] = row[c]
			}
		}
		ix.findAllBatched(selection.values, projections[:n*width], width, found[:n])
		for i, pos := range found[:n] {
			if pos >= 0 {
				selected = append(selected, uint64(base+i))
			}
		}
	}
	return selected
}

// maxDenseSelection is the largest number of value combinations (bits) a dense selection
// covers: 128 KiB, which stays in cache.
const maxDenseSelection = 1 << 20

// selectInDenseRange is selectProjections for the usual selection of small integers: when the
// selection's values span few combinations, a bit per combination replaces the hash lookup,
// so each entry of labels costs a few comparisons and one bit test. ok is false (and nothing
// is done) when the span is too large.
func selectInDenseRange(labels, selection *Labels, columns []int) (selected []uint64, ok bool) {
	width := len(columns)
	lo := make([]int64, width)
	span := make([]int64, width) // number of values from the smallest to the largest
	for k := range width {
		low, high := int64(math.MaxInt32), int64(math.MinInt32)
		for e := range selection.count {
			v := int64(selection.values[e*width+k])
			low, high = min(low, v), max(high, v)
		}
		lo[k], span[k] = low, high-low+1
	}
	combinations := int64(1)
	for _, n := range span {
		if combinations *= n; combinations > maxDenseSelection {
			return nil, false
		}
	}

	// Bit b of chosen is set for the combination b: the offsets from lo, row-major.
	chosen := make([]uint64, (combinations+63)/64)
	for e := range selection.count {
		b := int64(0)
		for k := range width {
			b = b*span[k] + int64(selection.values[e*width+k]) - lo[k]
		}
		chosen[b/64] |= 1 << (b % 64)
	}

	selected = []uint64{}
	for i := range labels.count {
		row := labels.row(i)
		b := int64(0)
		inside := true
		for k, c := range columns {
			offset := int64(row[c]) - lo[k]
			if uint64(offset) >= uint64(span[k]) {
				inside = false
				break
			}
			b = b*span[k] + offset
		}
		if inside && chosen[b/64]&(1<<(b%64)) != 0 {
			selected = append(selected, uint64(i))
		}
	}
	return selected, true
}

// selectChunk is how many projections of labels entries selectProjections looks up at once.
const selectChunk = 1024

// selectEntries looks up each selection entry in labels, which have the same dimensions.
func selectEntries(labels, selection *Labels) ([]uint64, error) {
	selected := make([]uint64, 0, min(labels.count, selection.count))
	if labels.count == 0 || selection.count == 0 {
		return selected, nil
	}
	found := make([]int64, selection.count)
	locateAll(labels, selection, found)
	for _, pos := range found {
		if pos >= 0 {
			selected = append(selected, uint64(pos))
		}
	}
	// Only a selection made with assume-unique and holding duplicates gets here; the
	// reference overflows the caller's buffer of Count() slots and panics.
	if len(selected) > labels.count {
		return nil, Errorf(InternalError,
			"the selection has %d matching entries for labels of %d entries: it contains duplicated entries",
			len(selected), labels.count)
	}
	return selected, nil
}

func errNotInSelection(name string) error {
	return Errorf(InvalidParameterError, "'%s' in selection is not part of these Labels", name)
}

// allEntries selects every one of count entries, as a selection without dimensions does.
func allEntries(count int) []uint64 {
	selected := make([]uint64, count)
	for i := range selected {
		selected[i] = uint64(i)
	}
	return selected
}
