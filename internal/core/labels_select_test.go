package core

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSelectSameDimensions(t *testing.T) {
	labels := pairs(t, 1, 1, 1, 2, 1, 3, 2, 1, 2, 2)
	// The reference's C++ test: output in selection order, absent entries skipped.
	selection := pairs(t, 1, 1, 2, 1, 5, 1, 1, 2)
	selected, err := Select(labels, selection)
	require.NoError(t, err)
	assert.Equal(t, []uint64{0, 3, 1}, selected)

	selected, err = Select(labels, pairs(t))
	require.NoError(t, err)
	assert.Empty(t, selected)
	selected, err = Select(pairs(t), selection)
	require.NoError(t, err)
	assert.Empty(t, selected)

	// A selection that broke its assume-unique promise can select more than there is.
	broken, err := NewLabelsAssumeUnique([]string{"aa", "bb"}, []int32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 6)
	require.NoError(t, err)
	_, err = Select(labels, broken)
	require.Error(t, err)
	assert.ErrorIs(t, err, &Error{Status: InternalError})
}

func TestSelectSubsetOfDimensions(t *testing.T) {
	labels, err := NewLabels([]string{"a", "b"}, []int32{0, 1, 1, 2, 2, 1}, 3)
	require.NoError(t, err)

	build := func(names []string, values ...int32) *Labels {
		l, err := NewLabels(names, values, len(values)/max(len(names), 1))
		require.NoError(t, err)
		return l
	}

	selected, err := Select(labels, build([]string{"b"}, 1))
	require.NoError(t, err)
	assert.Equal(t, []uint64{0, 2}, selected)

	// Any selection entry matches (logical OR); output in the order of labels.
	selected, err = Select(labels, build([]string{"b"}, 2, 1))
	require.NoError(t, err)
	assert.Equal(t, []uint64{0, 1, 2}, selected)

	// Same names, other order: matched by name.
	selected, err = Select(labels, build([]string{"b", "a"}, 1, 2, 1, 0))
	require.NoError(t, err)
	assert.Equal(t, []uint64{0, 2}, selected)

	// No dimensions: everything.
	selected, err = Select(labels, build(nil))
	require.NoError(t, err)
	assert.Equal(t, []uint64{0, 1, 2}, selected)
	none := build(nil)
	selected, err = Select(none, none)
	require.NoError(t, err)
	assert.Empty(t, selected)

	selected, err = Select(labels, build([]string{"a"}))
	require.NoError(t, err)
	assert.Empty(t, selected)

	// Every selection name must exist, even without entries.
	_, err = Select(labels, build([]string{"c"}))
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"'c' in selection is not part of these Labels", err.Error())
	_, err = Select(labels, build([]string{"a", "c"}, 0, 0))
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"'c' in selection is not part of these Labels", err.Error())
	_, err = Select(none, build([]string{"a"}))
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"'a' in selection is not part of these Labels", err.Error())

	_, err = Select(nil, labels)
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"got invalid NULL pointer for labels", err.Error())
	_, err = Select(labels, nil)
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"got invalid NULL pointer for selection", err.Error())
}

func TestSelectAgainstModel(t *testing.T) {
	forRandomWidths(3, 4, func(rng *rand.Rand, names []string, spread int32) {
		rows := randomRows(rng, len(names), rng.IntN(80), -spread, spread, rng.IntN(2) == 0)
		labels := mustLabels(t, names, rows, rng.IntN(2) == 0)

		// The selection's names: a random subset in random order, sometimes with a stranger.
		selNames := []string{}
		for _, k := range rng.Perm(len(names)) {
			if rng.IntN(3) != 0 {
				selNames = append(selNames, names[k])
			}
		}
		if rng.IntN(10) == 0 {
			selNames = append(selNames, "zz")
		}
		if rng.IntN(4) == 0 {
			selNames = names
		}
		selRows := randomRows(rng, len(selNames), rng.IntN(10), -spread, spread, false)
		if rng.IntN(3) == 0 {
			// Values far apart: the selection spans too many combinations for the dense
			// path, and goes through its hash index.
			rows, selRows = scaleRows(rows, 1<<26), scaleRows(selRows, 1<<26)
			labels = mustLabels(t, names, rows, rng.IntN(2) == 0)
		}
		selection := mustLabels(t, selNames, selRows, rng.IntN(2) == 0)

		want, wantErr := modelSelect(names, rows, selNames, selRows)
		requireSelectAsModel(t, labels, selection, want, wantErr)
	})
}

// requireSelectAsModel checks Select(labels, selection) against the model's answer: want, or
// the error wantErr when it is not empty.
func requireSelectAsModel(t *testing.T, labels, selection *Labels, want []uint64, wantErr string) {
	t.Helper()
	selected, err := Select(labels, selection)
	if wantErr != "" {
		require.Error(t, err)
		require.Equal(t, wantErr, err.Error())
		return
	}
	require.NoError(t, err)
	require.Equal(t, want, selected)
}

// scaleRows multiplies every value by factor, keeping the order of the rows.
func scaleRows(rows [][]int32, factor int32) [][]int32 {
	scaled := make([][]int32, len(rows))
	for i, row := range rows {
		scaled[i] = make([]int32, len(row))
		for k, v := range row {
			scaled[i][k] = v * factor
		}
	}
	return scaled
}

// TestSelectDenseRangeLimits checks where the dense path of select stops: at the number of
// combinations it covers, counted over every selection dimension, and at the int32 extremes.
func TestSelectDenseRangeLimits(t *testing.T) {
	labels := mustLabels(t, []string{"a", "b"}, [][]int32{{0, 0}, {1023, 1023}, {1024, 0}, {math.MinInt32, math.MaxInt32}}, true)
	for _, c := range []struct {
		rows  [][]int32
		dense bool
		want  []uint64
	}{
		{[][]int32{{0, 0}, {1023, 1023}}, true, []uint64{0, 1}},        // 1024 x 1024 combinations
		{[][]int32{{0, 0}, {1024, 1023}}, false, []uint64{0}},          // 1025 x 1024
		{[][]int32{{math.MinInt32, math.MaxInt32}}, true, []uint64{3}}, // a single combination
		{[][]int32{{math.MinInt32, 0}, {math.MaxInt32, 0}}, false, []uint64{}},
	} {
		selection := mustLabels(t, []string{"a", "b"}, c.rows, false)
		_, dense := selectInDenseRange(labels, selection, []int{0, 1})
		assert.Equal(t, c.dense, dense, "%v", c.rows)
		// The same through the columns in another order, which is not the same-names path.
		swapped := mustLabels(t, []string{"b", "a"}, swapColumns(c.rows), false)
		selected, err := Select(labels, swapped)
		require.NoError(t, err)
		assert.Equal(t, c.want, selected, "%v", c.rows)
	}
}

func swapColumns(rows [][]int32) [][]int32 {
	swapped := make([][]int32, len(rows))
	for i, row := range rows {
		swapped[i] = []int32{row[1], row[0]}
	}
	return swapped
}
