package metatensor_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

func TestLabelsConstructors(t *testing.T) {
	names := []string{"a", "b"}
	rows := [][]int32{{0, 1}, {2, 3}, {-4, 5}}
	flat := []int32{0, 1, 2, 3, -4, 5}
	constructors := map[string]func() (*metatensor.Labels, error){
		"NewLabels":                       func() (*metatensor.Labels, error) { return metatensor.NewLabels(names, rows) },
		"NewLabelsAssumeUnique":           func() (*metatensor.Labels, error) { return metatensor.NewLabelsAssumeUnique(names, rows) },
		"NewLabelsFromValues":             func() (*metatensor.Labels, error) { return metatensor.NewLabelsFromValues(names, flat) },
		"NewLabelsFromValuesAssumeUnique": func() (*metatensor.Labels, error) { return metatensor.NewLabelsFromValuesAssumeUnique(names, flat) },
	}
	for name, constructor := range constructors {
		t.Run(name, func(t *testing.T) {
			labels, err := constructor()
			require.NoError(t, err)
			defer labels.Close()
			require.Equal(t, names, labels.Names())
			require.Equal(t, 3, labels.Count())
			require.Equal(t, 2, labels.Size())
			require.Equal(t, flat, values(t, labels))
			require.Equal(t, []int32{2, 3}, labels.Row(1))
			require.Nil(t, labels.Row(3))
			require.Nil(t, labels.Row(-1))
		})
	}
}

func TestLabelsAreIndependentOfTheirInputs(t *testing.T) {
	names := []string{"a"}
	flat := []int32{1, 2}
	rows := [][]int32{{1}, {2}}
	fromValues, err := metatensor.NewLabelsFromValues(names, flat)
	require.NoError(t, err)
	defer fromValues.Close()
	fromRows, err := metatensor.NewLabels(names, rows)
	require.NoError(t, err)
	defer fromRows.Close()

	names[0], flat[0], rows[0][0] = "z", 9, 9
	require.Equal(t, []string{"a"}, fromValues.Names())
	require.Equal(t, []int32{1, 2}, values(t, fromValues))
	require.Equal(t, []int32{1, 2}, values(t, fromRows))

	// Names gives a copy.
	fromRows.Names()[0] = "z"
	require.Equal(t, []string{"a"}, fromRows.Names())
}

func TestLabelsRange(t *testing.T) {
	labels := rangeLabels(t, "xyz", 3)
	require.Equal(t, []string{"xyz"}, labels.Names())
	require.Equal(t, []int32{0, 1, 2}, values(t, labels))

	empty := rangeLabels(t, "xyz", 0)
	require.Equal(t, 0, empty.Count())

	_, err := metatensor.NewLabelsRange("xyz", -1)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "count of zero or more")
	_, err = metatensor.NewLabelsRange("1x", 2)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "'1x' is not a valid label name")
}

func TestLabelsWithoutDimensionsOrEntries(t *testing.T) {
	none := newLabels(t, nil)
	require.Equal(t, 0, none.Count())
	require.Equal(t, 0, none.Size())
	require.Empty(t, none.Names())
	require.Empty(t, values(t, none))

	noEntries := newLabels(t, []string{"a", "b"})
	require.Equal(t, 0, noEntries.Count())
	require.Equal(t, 2, noEntries.Size())
	position, err := noEntries.Position([]int32{1, 2})
	require.NoError(t, err)
	require.Equal(t, -1, position)

	fromValues, err := metatensor.NewLabelsFromValues(nil, nil)
	require.NoError(t, err)
	defer fromValues.Close()
	require.Equal(t, 0, fromValues.Count())
}

func TestLabelsConstructorErrors(t *testing.T) {
	_, err := metatensor.NewLabels([]string{"a", "a"}, nil)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "label dimensions must be unique, got 'a' multiple times")

	_, err = metatensor.NewLabels([]string{"a b"}, nil)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "'a b' is not a valid label name")

	_, err = metatensor.NewLabels([]string{"a"}, [][]int32{{1}, {1}})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "[1] is already present")

	_, err = metatensor.NewLabels([]string{"a", "b"}, [][]int32{{1, 2}, {3}})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "entry 1 has 1 values, but there are 2 dimensions")

	_, err = metatensor.NewLabelsFromValues([]string{"a", "b"}, []int32{1, 2, 3})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "3 values do not make whole entries of 2 dimensions")

	_, err = metatensor.NewLabelsFromValues(nil, []int32{1})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "no dimensions")

	// Without the check, duplicates are accepted.
	duplicates, err := metatensor.NewLabelsAssumeUnique([]string{"a"}, [][]int32{{1}, {1}})
	require.NoError(t, err)
	duplicates.Close()
}

func TestLabelsPosition(t *testing.T) {
	labels := newLabels(t, []string{"a", "b"}, []int32{0, 1}, []int32{2, 3}, []int32{-4, 5})
	for i, row := range [][]int32{{0, 1}, {2, 3}, {-4, 5}} {
		position, err := labels.Position(row)
		require.NoError(t, err)
		require.Equal(t, i, position)
	}
	position, err := labels.Position([]int32{5, 5})
	require.NoError(t, err)
	require.Equal(t, -1, position)

	_, err = labels.Position([]int32{1})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "expected label of size 2")
}

func TestLabelsEqual(t *testing.T) {
	a := newLabels(t, []string{"a"}, []int32{1}, []int32{2})
	require.True(t, a.Equal(a))
	require.True(t, a.Equal(newLabels(t, []string{"a"}, []int32{1}, []int32{2})))
	require.False(t, a.Equal(newLabels(t, []string{"a"}, []int32{2}, []int32{1})))
	require.False(t, a.Equal(newLabels(t, []string{"b"}, []int32{1}, []int32{2})))
	require.False(t, a.Equal(nil))
}

func TestLabelsSetOperations(t *testing.T) {
	first := newLabels(t, []string{"a", "b"}, []int32{0, 0}, []int32{1, 1}, []int32{2, 2})
	second := newLabels(t, []string{"a", "b"}, []int32{2, 2}, []int32{3, 3})

	union, firstMap, secondMap, err := first.UnionWithMappings(second)
	require.NoError(t, err)
	defer union.Close()
	require.Equal(t, []string{"a", "b"}, union.Names())
	require.Equal(t, []int32{0, 0, 1, 1, 2, 2, 3, 3}, values(t, union))
	require.Equal(t, []int{0, 1, 2}, firstMap)
	require.Equal(t, []int{2, 3}, secondMap)

	intersection, firstMap, secondMap, err := first.IntersectionWithMappings(second)
	require.NoError(t, err)
	defer intersection.Close()
	require.Equal(t, []int32{2, 2}, values(t, intersection))
	require.Equal(t, []int{-1, -1, 0}, firstMap)
	require.Equal(t, []int{0, -1}, secondMap)

	difference, firstMap, err := first.DifferenceWithMapping(second)
	require.NoError(t, err)
	defer difference.Close()
	require.Equal(t, []int32{0, 0, 1, 1}, values(t, difference))
	require.Equal(t, []int{0, 1, -1}, firstMap)

	for name, operation := range map[string]func(*metatensor.Labels) (*metatensor.Labels, error){
		"union": first.Union, "intersection": first.Intersection, "difference": first.Difference,
	} {
		t.Run(name, func(t *testing.T) {
			result, err := operation(second)
			require.NoError(t, err)
			defer result.Close()
			require.Equal(t, 2, result.Size())

			_, err = operation(newLabels(t, []string{"b", "a"}))
			requireStatus(t, err, metatensor.ErrInvalidParameter, "")
			_, err = operation(nil)
			requireStatus(t, err, metatensor.ErrInvalidParameter, "got nil Labels")
		})
	}
}

func TestLabelsSelect(t *testing.T) {
	labels := newLabels(t, []string{"a", "b"}, []int32{0, 0}, []int32{1, 1}, []int32{0, 2})

	selected, err := labels.Select(newLabels(t, []string{"a"}, []int32{0}))
	require.NoError(t, err)
	require.Equal(t, []int{0, 2}, selected)

	selected, err = labels.Select(newLabels(t, []string{"a", "b"}, []int32{0, 2}, []int32{5, 5}, []int32{0, 0}))
	require.NoError(t, err)
	require.Equal(t, []int{2, 0}, selected)

	_, err = labels.Select(newLabels(t, []string{"c"}, []int32{0}))
	requireStatus(t, err, metatensor.ErrInvalidParameter, "'c'")
}

func TestLabelsClose(t *testing.T) {
	labels, err := metatensor.NewLabels([]string{"a"}, [][]int32{{1}})
	require.NoError(t, err)
	other := newLabels(t, []string{"a"}, []int32{1})
	labels.Close()
	labels.Close() // idempotent

	require.Panics(t, func() { labels.Count() })
	_, err = labels.Values()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	require.Equal(t, "Labels(closed)", labels.String())
	_, err = labels.Position([]int32{1})
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	_, err = other.Union(labels)
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
	require.False(t, other.Equal(labels))

	var none *metatensor.Labels
	none.Close() // nil is fine
}

func TestLabelsString(t *testing.T) {
	one := newLabels(t, []string{"a"}, []int32{4})
	require.Equal(t, "Labels(names=[a], 1 entry)\n  [4]", one.String())

	values := make([]int32, 0, 14)
	for i := range int32(7) {
		values = append(values, i, -i)
	}
	many, err := metatensor.NewLabelsFromValues([]string{"x", "y"}, values)
	require.NoError(t, err)
	defer many.Close()
	require.Equal(t, "Labels(names=[x y], 7 entries)\n  [0 0]\n  [1 -1]\n  [2 -2]\n  [3 -3]\n  [4 -4]\n  ... 2 more",
		fmt.Sprint(many))
}

func TestLabelsCloneAndValuesArray(t *testing.T) {
	labels, err := metatensor.NewLabels([]string{"a", "b"}, [][]int32{{1, 2}, {3, 4}})
	require.NoError(t, err)
	clone, err := labels.Clone()
	require.NoError(t, err)
	labels.Close()
	require.Equal(t, []int32{1, 2, 3, 4}, values(t, clone), "the clone holds its own reference")

	array := clone.ValuesArray()
	shape, err := array.Shape()
	require.NoError(t, err)
	require.Equal(t, []uintptr{2, 2}, shape)
	values, err := metatensor.CopyArrayValues[int32](array)
	require.NoError(t, err)
	require.Equal(t, []int32{1, 2, 3, 4}, values)
	clone.Close()

	_, err = labels.Clone()
	requireStatus(t, err, metatensor.ErrInvalidParameter, "was closed")
}
