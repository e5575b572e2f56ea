package core

import (
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
	rng := newTestRand(3)
	names := []string{"a", "b", "c", "d", "e", "f"}
	for range 500 {
		size := 1 + rng.IntN(6)
		spread := int32(1 + rng.IntN(4))
		rows := randomRows(rng, size, rng.IntN(80), -spread, spread, rng.IntN(2) == 0)
		labels := mustLabels(t, names[:size], rows, rng.IntN(2) == 0)

		// The selection's names: a random subset in random order, sometimes with a stranger.
		selNames := []string{}
		for _, k := range rng.Perm(size) {
			if rng.IntN(3) != 0 {
				selNames = append(selNames, names[k])
			}
		}
		if rng.IntN(10) == 0 {
			selNames = append(selNames, "zz")
		}
		if rng.IntN(4) == 0 {
			selNames = names[:size]
		}
		selRows := randomRows(rng, len(selNames), rng.IntN(10), -spread, spread, false)
		selection := mustLabels(t, selNames, selRows, rng.IntN(2) == 0)

		want, wantErr := modelSelect(names[:size], rows, selNames, selRows)
		selected, err := Select(labels, selection)
		if wantErr != "" {
			require.Error(t, err)
			require.Equal(t, wantErr, err.Error())
			continue
		}
		require.NoError(t, err)
		require.Equal(t, want, selected)
	}
}
