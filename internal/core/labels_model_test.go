package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A naive model of labels: rows as slices, everything done by linear scans. Tests compare
// the real implementation against it.

func modelRows(values []int32, size, count int) [][]int32 {
	rows := make([][]int32, count)
	for i := range rows {
		rows[i] = values[i*size : (i+1)*size]
	}
	return rows
}

func flatten(rows [][]int32) []int32 {
	values := []int32{}
	for _, row := range rows {
		values = append(values, row...)
	}
	return values
}

func modelPosition(rows [][]int32, row []int32) int {
	for i, r := range rows {
		if slices.Equal(r, row) {
			return i
		}
	}
	return -1
}

func modelIsSorted(rows [][]int32) bool {
	for i := 1; i < len(rows); i++ {
		if slices.Compare(rows[i-1], rows[i]) >= 0 {
			return false
		}
	}
	return true
}

// modelDuplicate is the reference's uniqueness scan, done literally: walk while increasing,
// then sort everything and take the first equal neighbours.
func modelDuplicate(rows [][]int32) ([]int32, bool) {
	for i := 1; i < len(rows); i++ {
		c := slices.Compare(rows[i-1], rows[i])
		if c == 0 {
			return rows[i], true
		}
		if c > 0 {
			sorted := slices.Clone(rows)
			slices.SortFunc(sorted, slices.Compare)
			for k := 1; k < len(sorted); k++ {
				if slices.Equal(sorted[k-1], sorted[k]) {
					return sorted[k], true
				}
			}
			return nil, false
		}
	}
	return nil, false
}

func modelUnion(a, b [][]int32) ([][]int32, []int64, []int64) {
	result := slices.Clone(a)
	am := make([]int64, len(a))
	for i := range am {
		am[i] = int64(i)
	}
	bm := make([]int64, len(b))
	for j, row := range b {
		p := modelPosition(result, row)
		if p < 0 {
			result = append(result, row)
			p = len(result) - 1
		}
		bm[j] = int64(p)
	}
	return result, am, bm
}

func modelIntersection(a, b [][]int32) ([][]int32, []int64, []int64) {
	am := slices.Repeat([]int64{-1}, len(a))
	bm := slices.Repeat([]int64{-1}, len(b))
	result := [][]int32{}
	if len(b) < len(a) {
		for j, row := range b {
			if i := modelPosition(a, row); i >= 0 {
				am[i], bm[j] = int64(len(result)), int64(len(result))
				result = append(result, row)
			}
		}
		return result, am, bm
	}
	for i, row := range a {
		if j := modelPosition(b, row); j >= 0 {
			am[i], bm[j] = int64(len(result)), int64(len(result))
			result = append(result, row)
		}
	}
	return result, am, bm
}

func modelDifference(a, b [][]int32) ([][]int32, []int64) {
	am := slices.Repeat([]int64{-1}, len(a))
	result := [][]int32{}
	for i, row := range a {
		if modelPosition(b, row) < 0 {
			am[i] = int64(len(result))
			result = append(result, row)
		}
	}
	return result, am
}

// modelSelect gives the expected selection, or the expected error message.
func modelSelect(names []string, rows [][]int32, selNames []string, selRows [][]int32) ([]uint64, string) {
	selected := []uint64{}
	if slices.Equal(names, selNames) {
		for _, s := range selRows {
			if p := modelPosition(rows, s); p >= 0 {
				selected = append(selected, uint64(p))
			}
		}
		return selected, ""
	}
	columns := []int{}
	for _, name := range selNames {
		c := slices.Index(names, name)
		if c < 0 {
			return nil, fmt.Sprintf("invalid parameter: '%s' in selection is not part of these Labels", name)
		}
		columns = append(columns, c)
	}
	for i, row := range rows {
		keep := len(columns) == 0
		for _, s := range selRows {
			match := true
			for k, c := range columns {
				match = match && row[c] == s[k]
			}
			keep = keep || match
		}
		if keep {
			selected = append(selected, uint64(i))
		}
	}
	return selected, ""
}

// modelNewLabelsError gives the full error text NewLabels must return, or "".
func modelNewLabelsError(names []string, values []int32, count int, checked bool) string {
	for _, name := range names {
		valid := name != "" && !(name[0] >= '0' && name[0] <= '9')
		for _, c := range []byte(name) {
			valid = valid && (c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		}
		if !valid {
			return "invalid parameter: '" + name + "' is not a valid label name"
		}
	}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[i] == names[j] {
				return "invalid parameter: label dimensions must be unique, got '" + names[i] + "' multiple times"
			}
		}
	}
	internal := "internal metatensor error (this is likely a bug, please report it): "
	if count < 0 {
		return internal + "labels can not have a negative number of entries (" + fmt.Sprint(count) + ")"
	}
	if len(names) == 0 {
		if len(values) != 0 {
			return internal + fmt.Sprintf("labels without dimensions can not have values, got %d values", len(values))
		}
		return ""
	}
	if len(values) != count*len(names) {
		return internal + fmt.Sprintf("labels values have %d elements, expected %d entries of %d dimensions",
			len(values), count, len(names))
	}
	if checked {
		if row, ok := modelDuplicate(modelRows(values, len(names), count)); ok {
			text := []string{}
			for _, v := range row {
				text = append(text, fmt.Sprint(v))
			}
			return "invalid parameter: can not have the same label entry multiple times: [" +
				strings.Join(text, ", ") + "] is already present"
		}
	}
	return ""
}

// randomRows draws up to n distinct rows of the given width with values in [lo, hi),
// shuffled or sorted.
func randomRows(rng *rand.Rand, size, n int, lo, hi int32, sorted bool) [][]int32 {
	rows := [][]int32{}
	if size == 0 {
		return rows
	}
	seen := map[string]bool{}
	for range n {
		row := make([]int32, size)
		for k := range row {
			row[k] = lo + rng.Int32N(hi-lo)
		}
		key := fmt.Sprint(row)
		if !seen[key] {
			seen[key] = true
			rows = append(rows, row)
		}
	}
	if sorted {
		slices.SortFunc(rows, slices.Compare)
	}
	return rows
}

// mustLabels builds labels from rows, checked or assume-unique.
func mustLabels(t testing.TB, names []string, rows [][]int32, checked bool) *Labels {
	t.Helper()
	build := NewLabelsAssumeUnique
	if checked {
		build = NewLabels
	}
	l, err := build(names, flatten(rows), len(rows))
	require.NoError(t, err)
	return l
}

// requireSetOpsAsModel checks Union, Intersection and Difference of first and
// second (the rows a and b under names) against the model.
func requireSetOpsAsModel(t testing.TB, names []string, a, b [][]int32, first, second *Labels) {
	t.Helper()
	rows, am, bm := modelUnion(a, b)
	union, fm, sm, err := Union(first, second)
	requireOpAsModel(t, names, rows, union, err, [2][]int64{am, fm}, [2][]int64{bm, sm})

	rows, am, bm = modelIntersection(a, b)
	inter, fm, sm, err := Intersection(first, second)
	requireOpAsModel(t, names, rows, inter, err, [2][]int64{am, fm}, [2][]int64{bm, sm})

	rows, am = modelDifference(a, b)
	diff, fm, err := Difference(first, second)
	requireOpAsModel(t, names, rows, diff, err, [2][]int64{am, fm})
}

// requireOpAsModel checks one operation's result and error against the
// model's rows, and each mapping pair (the model's, the operation's).
func requireOpAsModel(t testing.TB, names []string, rows [][]int32, got *Labels, err error, mappings ...[2][]int64) {
	t.Helper()
	require.NoError(t, err)
	requireLabels(t, names, rows, got)
	for _, mapping := range mappings {
		require.Equal(t, mapping[0], mapping[1])
	}
}

// requireLabels checks l against the model rows.
func requireLabels(t testing.TB, names []string, rows [][]int32, l *Labels) {
	t.Helper()
	require.Equal(t, len(names), l.Size())
	if len(names) == 0 {
		require.Equal(t, 0, l.Count())
		require.Empty(t, l.Values())
		return
	}
	require.Equal(t, names, l.Names())
	require.Equal(t, len(rows), l.Count())
	require.Equal(t, flatten(rows), append([]int32{}, l.Values()...))
	require.Equal(t, modelIsSorted(rows), l.IsSorted())
	for i, row := range rows {
		p, err := l.Position(row)
		require.NoError(t, err)
		require.Equal(t, i, p)
	}
}

// forRandomWidths runs body 500 times with a generator seeded with seed, the
// names of a random width from 1 to 6 and a random spread from 1 to maxSpread.
func forRandomWidths(seed uint64, maxSpread int, body func(rng *rand.Rand, names []string, spread int32)) {
	rng := newTestRand(seed)
	names := []string{"a", "b", "c", "d", "e", "f"}
	for range 500 {
		size := 1 + rng.IntN(6)
		spread := int32(1 + rng.IntN(maxSpread))
		body(rng, names[:size], spread)
	}
}

func newTestRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

func sortRows(rows [][]int32) {
	slices.SortFunc(rows, slices.Compare)
}
