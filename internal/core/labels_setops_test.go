package core

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pairs(t testing.TB, values ...int32) *Labels {
	t.Helper()
	l, err := NewLabels([]string{"aa", "bb"}, values, len(values)/2)
	require.NoError(t, err)
	return l
}

// requireSetOp checks op(first, second): its values and both mappings (nil
// for an empty one); it gives the result.
func requireSetOp(t *testing.T, op func(first, second *Labels) (*Labels, []int64, []int64, error), first, second *Labels, values []int32, firstMap, secondMap []int64) *Labels {
	t.Helper()
	result, fm, sm, err := op(first, second)
	require.NoError(t, err)
	assert.Equal(t, values, result.Values())
	for _, mapping := range [][2][]int64{{firstMap, fm}, {secondMap, sm}} {
		if mapping[0] == nil {
			assert.Empty(t, mapping[1])
		} else {
			assert.Equal(t, mapping[0], mapping[1])
		}
	}
	return result
}

func TestUnion(t *testing.T) {
	first := pairs(t, 0, 1, 1, 2)
	second := pairs(t, 2, 3, 1, 2, 4, 5)

	union := requireSetOp(t, Union, first, second, []int32{0, 1, 1, 2, 2, 3, 4, 5}, []int64{0, 1}, []int64{2, 1, 3})
	assert.Equal(t, []string{"aa", "bb"}, union.Names())

	union = requireSetOp(t, Union, second, first, []int32{2, 3, 1, 2, 4, 5, 0, 1}, []int64{0, 1, 2}, []int64{3, 1})
	assert.False(t, union.IsSorted())

	empty := pairs(t)
	union = requireSetOp(t, Union, first, empty, []int32{0, 1, 1, 2}, []int64{0, 1}, nil)

	union = requireSetOp(t, Union, empty, second, second.Values(), nil, []int64{0, 1, 2})

	// The result is a labels like any other: its index is built on demand.
	p, err := union.Position([]int32{1, 2})
	require.NoError(t, err)
	assert.Equal(t, 1, p)
}

func TestIntersection(t *testing.T) {
	first := pairs(t, 0, 1, 1, 2)
	second := pairs(t, 2, 3, 1, 2, 4, 5)

	inter := requireSetOp(t, Intersection, first, second, []int32{1, 2}, []int64{-1, 0}, []int64{-1, 0, -1})
	assert.Equal(t, []string{"aa", "bb"}, inter.Names())

	inter = requireSetOp(t, Intersection, second, first, []int32{1, 2}, []int64{-1, 0, -1}, []int64{-1, 0})

	inter, fm, sm, err := Intersection(first, pairs(t))
	require.NoError(t, err)
	assert.Equal(t, 0, inter.Count())
	assert.Equal(t, []int64{-1, -1}, fm)
	assert.Empty(t, sm)

	// The result follows the smaller input, first on ties.
	big := pairs(t, 5, 5, 3, 3, 1, 1, 4, 4)
	small := pairs(t, 1, 1, 3, 3, 9, 9)
	inter = requireSetOp(t, Intersection, big, small, []int32{1, 1, 3, 3}, []int64{-1, 1, 0, -1}, []int64{0, 1, -1})
	assert.True(t, inter.IsSorted())
	assert.Equal(t, sortedYes, inter.sorted.Load(), "the sorted flag of the smaller input carries over")

	tie := pairs(t, 3, 3, 1, 1, 4, 4, 9, 9)
	inter, _, _, err = Intersection(big, tie)
	require.NoError(t, err)
	assert.Equal(t, []int32{3, 3, 1, 1, 4, 4}, inter.Values())
	inter, _, _, err = Intersection(tie, big)
	require.NoError(t, err)
	assert.Equal(t, []int32{3, 3, 1, 1, 4, 4}, inter.Values())
	assert.False(t, inter.IsSorted())
}

func TestDifference(t *testing.T) {
	first := pairs(t, 0, 1, 1, 2)
	second := pairs(t, 2, 3, 1, 2, 4, 5)

	diff, fm, err := Difference(first, second)
	require.NoError(t, err)
	assert.Equal(t, []string{"aa", "bb"}, diff.Names())
	assert.Equal(t, []int32{0, 1}, diff.Values())
	assert.Equal(t, []int64{0, -1}, fm)

	diff, fm, err = Difference(second, first)
	require.NoError(t, err)
	assert.Equal(t, []int32{2, 3, 4, 5}, diff.Values())
	assert.Equal(t, []int64{0, -1, 1}, fm)

	diff, fm, err = Difference(first, pairs(t))
	require.NoError(t, err)
	assert.Equal(t, first.Values(), diff.Values())
	assert.Equal(t, []int64{0, 1}, fm)
	assert.True(t, diff.IsSorted())

	diff, fm, err = Difference(pairs(t), first)
	require.NoError(t, err)
	assert.Equal(t, 0, diff.Count())
	assert.Empty(t, fm)
}

func TestSetOperationsDimensions(t *testing.T) {
	first := pairs(t, 0, 1, 1, 2)
	other, err := NewLabels([]string{"aa"}, nil, 0)
	require.NoError(t, err)
	swapped, err := NewLabels([]string{"bb", "aa"}, nil, 0)
	require.NoError(t, err)
	none, err := NewLabels(nil, nil, 0)
	require.NoError(t, err)

	check := func(op string, run func(a, b *Labels) error) {
		err := run(first, other)
		require.Error(t, err)
		assert.Equal(t, msgInvalid+"can not take the "+op+
			` of these Labels, they have different dimensions: ["aa", "bb"], and ["aa"]`, err.Error())
		err = run(first, swapped)
		require.Error(t, err)
		assert.Equal(t, msgInvalid+"can not take the "+op+
			` of these Labels, they have different dimensions: ["aa", "bb"], and ["bb", "aa"]`, err.Error())
		err = run(none, other)
		require.Error(t, err)
		assert.Equal(t, msgInvalid+"can not take the "+op+
			` of these Labels, they have different dimensions: [], and ["aa"]`, err.Error())
		err = run(nil, first)
		require.Error(t, err)
		assert.Equal(t, msgInvalid+"got invalid NULL pointer for first", err.Error())
		err = run(first, nil)
		require.Error(t, err)
		assert.Equal(t, msgInvalid+"got invalid NULL pointer for second", err.Error())
		// Labels without dimensions combine with each other into labels without entries.
		require.NoError(t, run(none, none))
	}
	check("union", func(a, b *Labels) error { _, _, _, err := Union(a, b); return err })
	check("intersection", func(a, b *Labels) error { _, _, _, err := Intersection(a, b); return err })
	check("difference", func(a, b *Labels) error { _, _, err := Difference(a, b); return err })
}

// TestSetOperationsAgainstModel compares every operation with the naive model on random
// labels: widths 1 to 6 (the specialised and generic index paths), sorted or not, checked or
// assume-unique, overlapping heavily or barely.
func TestSetOperationsAgainstModel(t *testing.T) {
	forRandomWidths(2, 6, func(rng *rand.Rand, names []string, spread int32) {
		a := randomRows(rng, len(names), rng.IntN(60), -spread, spread, rng.IntN(2) == 0)
		b := randomRows(rng, len(names), rng.IntN(60), -spread, spread, rng.IntN(2) == 0)
		first := mustLabels(t, names, a, rng.IntN(2) == 0)
		second := mustLabels(t, names, b, rng.IntN(2) == 0)
		// Lookups in either may or may not have built an index already.
		if rng.IntN(2) == 0 && len(a) > 0 {
			_, _ = first.Position(a[0])
		}

		requireSetOpsAsModel(t, names, a, b, first, second)
	})
}
