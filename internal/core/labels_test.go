package core

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const msgInvalid = "invalid parameter: "
const msgInternal = "internal metatensor error (this is likely a bug, please report it): "

func TestLabelNames(t *testing.T) {
	for _, name := range []string{"a", "_", "_1", "abc_DEF_123", "Z9"} {
		assert.True(t, IsValidLabelName(name), name)
	}
	for _, name := range []string{"", "1a", "9", "a-b", "a b", "é", "aé", "a\x00", "\xff", "a.b"} {
		assert.False(t, IsValidLabelName(name), name)
	}
}

func TestNewLabelsNameErrors(t *testing.T) {
	cases := []struct {
		names   []string
		message string
	}{
		{[]string{"a", "not an ident"}, "'not an ident' is not a valid label name"},
		{[]string{"1a"}, "'1a' is not a valid label name"},
		{[]string{""}, "'' is not a valid label name"},
		{[]string{"not", "there", "not"}, "label dimensions must be unique, got 'not' multiple times"},
		// (i, j) scan order: 'a' repeats later than 'b' does, but comes first.
		{[]string{"a", "b", "b", "a"}, "label dimensions must be unique, got 'a' multiple times"},
		// Every name is validated before uniqueness is checked.
		{[]string{"a", "a", "1"}, "'1' is not a valid label name"},
	}
	for _, c := range cases {
		for _, build := range []func([]string, []int32, int) (*Labels, error){NewLabels, NewLabelsAssumeUnique} {
			l, err := build(c.names, nil, 0)
			assert.Nil(t, l)
			require.Error(t, err)
			assert.Equal(t, msgInvalid+c.message, err.Error())
			assert.ErrorIs(t, err, &Error{Status: InvalidParameterError})
		}
	}

	// Many names take the map path of the duplicate search, with the same answer.
	names := []string{}
	for i := range 40 {
		names = append(names, "n"+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	names = append(names, "x", "y", "x", names[3])
	_, err := NewLabels(names, nil, 0)
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"label dimensions must be unique, got '"+names[3]+"' multiple times", err.Error())
}

func TestNewLabelsShape(t *testing.T) {
	l, err := NewLabels([]string{"a", "b"}, []int32{0, 1, 1, 2}, 2)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, l.Names())
	assert.Equal(t, 2, l.Count())
	assert.Equal(t, 2, l.Size())
	assert.Equal(t, []int32{0, 1, 1, 2}, l.Values())

	for _, c := range []struct {
		values []int32
		count  int
		text   string
	}{
		{[]int32{0, 1, 1}, 2, "labels values have 3 elements, expected 2 entries of 2 dimensions"},
		{[]int32{0, 1, 1, 2}, 1, "labels values have 4 elements, expected 1 entries of 2 dimensions"},
		{[]int32{0, 1}, -1, "labels can not have a negative number of entries (-1)"},
	} {
		for _, build := range []func([]string, []int32, int) (*Labels, error){NewLabels, NewLabelsAssumeUnique} {
			_, err := build([]string{"a", "b"}, c.values, c.count)
			require.Error(t, err)
			assert.Equal(t, msgInternal+c.text, err.Error())
			assert.ErrorIs(t, err, &Error{Status: InternalError})
		}
	}
}

func TestLabelsWithoutDimensions(t *testing.T) {
	for _, build := range []func([]string, []int32, int) (*Labels, error){NewLabels, NewLabelsAssumeUnique} {
		// Like the reference's [count, 0] arrays: any count, no values, and the labels are empty.
		for _, count := range []int{0, 5} {
			l, err := build(nil, nil, count)
			require.NoError(t, err)
			assert.Equal(t, 0, l.Count())
			assert.Equal(t, 0, l.Size())
			assert.Empty(t, l.Names())
			assert.NotNil(t, l.Values())
			assert.Empty(t, l.Values())
			assert.True(t, l.IsSorted())
			assert.Nil(t, l.Row(0))
		}

		_, err := build([]string{}, []int32{1, 2}, 2)
		require.Error(t, err)
		assert.Equal(t, msgInternal+"labels without dimensions can not have values, got 2 values", err.Error())
	}

	l, err := NewLabels(nil, nil, 0)
	require.NoError(t, err)
	_, err = l.Position(nil)
	require.Error(t, err)
	assert.Equal(t, msgInternal+"can not look up an entry in labels without dimensions", err.Error())
	_, err = l.Position([]int32{1})
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"expected label of size 0 in mts_labels_position, got size 1", err.Error())
}

func TestLabelsWithoutEntries(t *testing.T) {
	for _, build := range []func([]string, []int32, int) (*Labels, error){NewLabels, NewLabelsAssumeUnique} {
		l, err := build([]string{"a", "b", "c"}, []int32{}, 0)
		require.NoError(t, err)
		assert.Equal(t, 0, l.Count())
		assert.Equal(t, 3, l.Size())
		assert.True(t, l.IsSorted())
		p, err := l.Position([]int32{1, 2, 3})
		require.NoError(t, err)
		assert.Equal(t, -1, p)
		assert.Nil(t, l.Row(0))
	}
}

func TestNewLabelsDuplicates(t *testing.T) {
	// Rows reported match the reference library (checked against metatensor-core 0.2.6).
	cases := []struct {
		names  []string
		values []int32
		row    string
	}{
		// An equal neighbour inside the sorted prefix is the row reported.
		{[]string{"a", "b"}, []int32{0, 1, 1, 2, 1, 2, 0, 0, 0, 0}, "[1, 2]"},
		// After a decrease, the smallest duplicated row.
		{[]string{"a", "b"}, []int32{0, 1, 3, 2, 1, 2, 0, 1, 1, 2}, "[0, 1]"},
		{[]string{"a", "b"}, []int32{5, 1, 3, 2, 3, 2, 5, 1}, "[3, 2]"},
		// Comparisons are signed.
		{[]string{"a"}, []int32{-1, -5, -1, -5}, "[-5]"},
		{[]string{"a", "b", "c"}, []int32{0, 0, 0, 0, 0, 1, 0, 0, 1}, "[0, 0, 1]"},
		{[]string{"a", "b", "c", "d", "e"}, []int32{9, 9, 9, 9, 9, 1, 2, 3, 4, 5, 9, 9, 9, 9, 9}, "[9, 9, 9, 9, 9]"},
	}
	for _, c := range cases {
		count := len(c.values) / len(c.names)
		_, err := NewLabels(c.names, c.values, count)
		require.Error(t, err)
		assert.Equal(t, msgInvalid+"can not have the same label entry multiple times: "+c.row+" is already present", err.Error())
		assert.True(t, errors.Is(err, &Error{Status: InvalidParameterError}))

		// assume-unique does not look.
		l, err := NewLabelsAssumeUnique(c.names, c.values, count)
		require.NoError(t, err)
		assert.Equal(t, count, l.Count())
	}
}

func TestLabelsSorted(t *testing.T) {
	l, err := NewLabels([]string{"aa", "bb"}, []int32{0, 1, 1, 2}, 2)
	require.NoError(t, err)
	assert.True(t, l.IsSorted())

	l, err = NewLabels([]string{"aa", "bb"}, []int32{0, 1, 1, 2, 0, 2}, 3)
	require.NoError(t, err)
	assert.False(t, l.IsSorted())

	// assume-unique computes the flag on first use.
	l, err = NewLabelsAssumeUnique([]string{"aa", "bb"}, []int32{0, 1, 1, 2}, 2)
	require.NoError(t, err)
	assert.Equal(t, sortedUnknown, l.sorted.Load())
	assert.True(t, l.IsSorted())
	assert.Equal(t, sortedYes, l.sorted.Load())

	l, err = NewLabelsAssumeUnique([]string{"a"}, []int32{3, -1}, 2)
	require.NoError(t, err)
	assert.False(t, l.IsSorted())
	assert.False(t, l.IsSorted())
}

func TestLabelsAccessors(t *testing.T) {
	names := []string{"a", "b"}
	values := []int32{3, 4, 1, 2, -7, 8}
	l, err := NewLabels(names, values, 3)
	require.NoError(t, err)

	// Names are copied at construction; values are kept as given, and handed out as they are.
	names[0] = "z"
	assert.Equal(t, []string{"a", "b"}, l.Names())
	assert.Same(t, &values[0], &l.Values()[0])

	assert.Equal(t, []int32{3, 4}, l.Row(0))
	assert.Equal(t, []int32{-7, 8}, l.Row(2))
	assert.Nil(t, l.Row(3))
	assert.Nil(t, l.Row(-1))
	assert.Equal(t, 2, cap(l.Row(1)), "a row must not give access to the next one")

	for i := range 3 {
		p, err := l.Position(l.Row(i))
		require.NoError(t, err)
		assert.Equal(t, i, p)
	}
	p, err := l.Position([]int32{4, 3})
	require.NoError(t, err)
	assert.Equal(t, -1, p)

	_, err = l.Position([]int32{1, 2, 3})
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"expected label of size 2 in mts_labels_position, got size 3", err.Error())
	_, err = l.Position(nil)
	require.Error(t, err)
	assert.Equal(t, msgInvalid+"expected label of size 2 in mts_labels_position, got size 0", err.Error())
}

func TestLabelsIndexBuiltWhenChecking(t *testing.T) {
	// Unsorted checked labels get their index from the check itself...
	l, err := NewLabels([]string{"a"}, []int32{2, 1, 0}, 3)
	require.NoError(t, err)
	assert.NotNil(t, l.index.Load())

	// ...sorted ones are proven unique without it, and build it on first lookup.
	l, err = NewLabels([]string{"a"}, []int32{0, 1, 2}, 3)
	require.NoError(t, err)
	assert.Nil(t, l.index.Load())
	p, err := l.Position([]int32{2})
	require.NoError(t, err)
	assert.Equal(t, 2, p)
	assert.NotNil(t, l.index.Load())

	l, err = NewLabelsAssumeUnique([]string{"a"}, []int32{2, 1, 0}, 3)
	require.NoError(t, err)
	assert.Nil(t, l.index.Load())
	p, err = l.Position([]int32{0})
	require.NoError(t, err)
	assert.Equal(t, 2, p)
}

func TestLabelsAssumeUniqueWithDuplicates(t *testing.T) {
	// A broken promise must not break lookups: the first occurrence is found.
	l, err := NewLabelsAssumeUnique([]string{"a", "b"}, []int32{1, 1, 2, 2, 1, 1, 3, 3, 2, 2}, 5)
	require.NoError(t, err)
	for row, want := range map[[2]int32]int{{1, 1}: 0, {2, 2}: 1, {3, 3}: 3, {4, 4}: -1} {
		p, err := l.Position(row[:])
		require.NoError(t, err)
		assert.Equal(t, want, p)
	}
}

func TestLabelsEqual(t *testing.T) {
	build := func(names []string, values ...int32) *Labels {
		l, err := NewLabelsAssumeUnique(names, values, len(values)/max(len(names), 1))
		require.NoError(t, err)
		return l
	}
	a := build([]string{"a", "b"}, 0, 1, 1, 2)
	assert.True(t, Equal(a, a))
	assert.True(t, Equal(a, build([]string{"a", "b"}, 0, 1, 1, 2)))
	assert.False(t, Equal(a, build([]string{"b", "a"}, 0, 1, 1, 2)))
	assert.False(t, Equal(a, build([]string{"a", "c"}, 0, 1, 1, 2)))
	assert.False(t, Equal(a, build([]string{"a", "b"}, 1, 2, 0, 1)))
	assert.False(t, Equal(a, build([]string{"a", "b"}, 0, 1)))
	assert.False(t, Equal(a, build([]string{"a"}, 0, 1, 1, 2)))
	assert.True(t, Equal(build(nil), build([]string{})))
	assert.True(t, Equal(build([]string{"x"}), build([]string{"x"})))
	assert.False(t, Equal(build([]string{"x"}), build([]string{"y"})))
	assert.True(t, Equal(nil, nil))
	assert.False(t, Equal(a, nil))
	assert.False(t, Equal(nil, a))
}

func TestNewLabelsAgainstModel(t *testing.T) {
	rng := newTestRand(1)
	for range 400 {
		size := rng.IntN(6)
		names := []string{"a", "b", "c", "d", "e", "f"}[:size]
		count := rng.IntN(40)
		values := make([]int32, count*size)
		spread := int32(1 + rng.IntN(4))
		for k := range values {
			values[k] = rng.Int32N(2*spread) - spread
		}
		// Sorted inputs exercise the walk, shuffled ones the index.
		if rng.IntN(2) == 0 && size > 0 {
			rows := modelRows(values, size, count)
			sortRows(rows)
			values = flatten(rows)
		}
		checked := rng.IntN(4) != 0
		build := NewLabelsAssumeUnique
		if checked {
			build = NewLabels
		}
		l, err := build(names, values, count)
		want := modelNewLabelsError(names, values, count, checked)
		if want != "" {
			require.Error(t, err)
			require.Equal(t, want, err.Error())
			continue
		}
		require.NoError(t, err)
		rows := modelRows(values, size, count)
		if size == 0 {
			rows = nil
		}
		require.Equal(t, count*size, len(l.Values()))
		require.Equal(t, modelIsSorted(rows), l.IsSorted())
		for _, row := range rows {
			p, err := l.Position(row)
			require.NoError(t, err)
			require.Equal(t, modelPosition(rows, row), p)
		}
	}
}
