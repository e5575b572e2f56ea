package core

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLabelsIndexAgainstMap checks lookups of present and absent rows for every width the
// index special-cases and a few it does not, with values near the int32 extremes too.
func TestLabelsIndexAgainstMap(t *testing.T) {
	rng := newTestRand(4)
	for size := 1; size <= 7; size++ {
		for _, spread := range []int32{2, 50, 1 << 29} {
			rows := randomRows(rng, size, 3000, -spread, spread, false)
			// Values at the int32 extremes, where a careless hash or comparison would wrap.
			rows = append(rows, extremeRow(size, math.MinInt32), extremeRow(size, math.MaxInt32))
			values := flatten(rows)
			ix := buildLabelsIndex(values, size, len(rows))
			model := map[string]int{}
			for i, row := range rows {
				model[fmt.Sprint(row)] = i
			}
			for range 6000 {
				// Half near misses (an existing row, one value changed), half random rows.
				row := make([]int32, size)
				if rng.IntN(2) == 0 {
					copy(row, rows[rng.IntN(len(rows))])
					row[rng.IntN(size)] += int32(rng.IntN(3)) - 1
				} else {
					for k := range row {
						row[k] = rng.Int32N(2*spread) - spread
					}
				}
				want, ok := model[fmt.Sprint(row)]
				if !ok {
					want = -1
				}
				require.Equal(t, want, ix.find(values, row), "size %d row %v", size, row)
			}
			// Bulk lookups (by batches) agree with single ones.
			queries := flatten(rows[:len(rows)/2])
			for range 1000 {
				row := make([]int32, size)
				for k := range row {
					row[k] = rng.Int32N(2*spread) - spread
				}
				queries = append(queries, row...)
			}
			found := make([]int64, len(queries)/size)
			batched := make([]int64, len(queries)/size)
			ix.findAll(values, queries, size, found)
			ix.findAllBatched(values, queries, size, batched)
			for q := range found {
				require.Equal(t, int64(ix.find(values, queries[q*size:(q+1)*size])), found[q])
			}
			require.Equal(t, found, batched)
			for i, row := range rows {
				require.Equal(t, i, ix.find(values, row))
			}
		}
	}
}

func TestLabelsIndexInsert(t *testing.T) {
	values := []int32{1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 5, 6}
	ix := newLabelsIndex(6, 2)
	assert.Equal(t, 16, ix.slotCount())
	ix.insertAllNew(values, 2, 0, 1)
	// Duplicates of indexed rows, and of rows earlier in the same batch, are reported.
	assert.Equal(t, []int{2, 3, 5}, ix.insertAll(values, 2, 1, 6))
	assert.Equal(t, 1, ix.find(values, []int32{3, 4}))
	assert.Equal(t, 4, ix.find(values, []int32{5, 6}))
	assert.Equal(t, -1, ix.find(values, []int32{4, 3}))
	assert.Nil(t, ix.insertAll(values, 2, 6, 6))

	// Capacity stays a power of two at most half full.
	for _, count := range []int{0, 1, 4, 5, 1000, 1 << 20} {
		ix := newLabelsIndex(count, 3)
		n := ix.slotCount()
		assert.Zero(t, n&(n-1))
		assert.GreaterOrEqual(t, n, 2*count)
		assert.Equal(t, uint(64), ix.shift+uint(countTrailingZeros(n)))
	}
}

func extremeRow(size int, v int32) []int32 {
	row := make([]int32, size)
	for k := range row {
		row[k] = v
	}
	return row
}

func countTrailingZeros(n int) int {
	z := 0
	for n > 1 {
		n >>= 1
		z++
	}
	return z
}

// TestLabelsHashSpread guards against a hash that clusters the usual label shapes (small
// sorted integers): long probe chains would make lookups linear.
func TestLabelsHashSpread(t *testing.T) {
	for size := 1; size <= 5; size++ {
		count := 1 << 16
		values := make([]int32, 0, count*size)
		// Sorted distinct rows: the bits of i spread over the dimensions, small values in each.
		bitsPer := (16 + size - 1) / size
		for i := range count {
			for k := range size {
				values = append(values, int32((i>>(bitsPer*(size-1-k)))&(1<<bitsPer-1)))
			}
		}
		ix := buildLabelsIndex(values, size, count)
		total := 0
		for pos := range count {
			row := values[pos*size : pos*size+size]
			for i := hashRow(row) >> ix.shift; ; i = (i + 1) & ix.mask {
				total++
				if ix.header(i)&ix.posMask == uint32(pos+1) {
					break
				}
				require.Less(t, total, 64*count, "row %d is not in its chain", pos)
			}
		}
		mean := float64(total) / float64(count)
		t.Logf("size %d: %.3f probes per hit", size, mean)
		assert.Less(t, mean, 2.0, "size %d: %.2f probes per hit", size, mean)
	}
}

// TestLabelsConcurrentLazyIndex has many goroutines look up entries of assume-unique labels
// while the index and sorted flag are built on first use. Run with -race.
func TestLabelsConcurrentLazyIndex(t *testing.T) {
	const count = 20000
	for round := range 6 {
		// Sorted rows on even rounds, reversed on odd ones: set operations and select then
		// merge, or go through the lazily built index.
		values := make([]int32, 0, 3*count)
		for i := range count {
			if round%2 == 1 {
				i = count - 1 - i
			}
			values = append(values, int32(i/400), int32(i/20%20), int32(i%20))
		}
		l, err := NewLabelsAssumeUnique([]string{"a", "b", "c"}, values, count)
		require.NoError(t, err)
		other, err := NewLabelsAssumeUnique([]string{"a", "b", "c"}, values[:3*count/2], count/2)
		require.NoError(t, err)

		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for g := range 16 {
			wg.Go(func() {
				for i := g; i < count; i += 97 + round {
					p, err := l.Position(l.Row(i))
					if err != nil || p != i {
						errs <- fmt.Errorf("position of row %d: %d, %v", i, p, err)
						return
					}
				}
				if l.IsSorted() != (round%2 == 0) {
					errs <- fmt.Errorf("wrong sorted flag")
				}
				if _, _, _, err := Intersection(other, l); err != nil {
					errs <- err
				}
				if s, err := Select(l, other); err != nil || len(s) != count/2 {
					errs <- fmt.Errorf("select: %d, %v", len(s), err)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}

// TestLocateAllMergeAndHashAgree runs the sorted merge (with galloping over long gaps) and
// the hash lookups on the same sorted inputs: dense and sparse queries, absent rows before,
// between and after the labels' rows.
func TestLocateAllMergeAndHashAgree(t *testing.T) {
	rng := newTestRand(8)
	for round := range 200 {
		size := 1 + rng.IntN(5)
		spread := int32(2 + rng.IntN(8))
		rows := randomRows(rng, size, rng.IntN(400), -spread, spread, true)
		queries := randomRows(rng, size, rng.IntN(400), -spread-1, spread+1, true)
		if round%4 == 0 && len(rows) > 0 {
			// A sparse subset of the rows: long gaps for the galloping.
			queries = [][]int32{}
			for i := 0; i < len(rows); i += 1 + rng.IntN(60) {
				queries = append(queries, rows[i])
			}
		}
		values, flat := flatten(rows), flatten(queries)
		merged := make([]int64, len(queries))
		hashed := make([]int64, len(queries))
		if len(rows) > 0 {
			mergeFind(values, flat, size, merged)
			buildLabelsIndex(values, size, len(rows)).findAllBatched(values, flat, size, hashed)
		} else {
			for q := range hashed {
				merged[q], hashed[q] = -1, -1
			}
		}
		require.Equal(t, hashed, merged)
		for q, row := range queries {
			require.Equal(t, int64(modelPosition(rows, row)), merged[q])
		}
	}
}

// TestLabelsIndexWithoutTags checks the index when positions need every bit of a slot (more
// than 2^31 entries), leaving no room for tags: simulated on a small table.
func TestLabelsIndexWithoutTags(t *testing.T) {
	rng := newTestRand(9)
	// Rows stored in their slots, and rows left in the values.
	for _, size := range []int{3, 5} {
		rows := randomRows(rng, size, 500, -10, 10, false)
		values := flatten(rows)
		ix := newLabelsIndex(len(rows), size)
		ix.posBits, ix.posMask = 32, math.MaxUint32
		assert.Zero(t, ix.tag(math.MaxUint64))
		ix.insertAllNew(values, size, 0, len(rows)/2)
		assert.Empty(t, ix.insertAll(values, size, len(rows)/2, len(rows)))
		for i, row := range rows {
			require.Equal(t, i, ix.find(values, row))
		}
		require.Equal(t, -1, ix.find(values, extremeRow(size, 11)))
	}
}

// TestSelectLargeSelection goes through the chunked, batched path of select, taken when the
// selection's index is too large to stay in cache.
func TestSelectLargeSelection(t *testing.T) {
	values := []int32{}
	for i := range int32(60000) {
		values = append(values, i/300, i%300, -1000*i)
	}
	labels, err := NewLabels([]string{"a", "b", "c"}, values, 60000)
	require.NoError(t, err)

	// Selection on (c, a): every other entry, plus entries that match nothing.
	selValues := []int32{}
	want := []uint64{}
	for i := int32(0); i < 60000; i += 2 {
		selValues = append(selValues, -1000*i, i/300)
		want = append(want, uint64(i))
	}
	for i := int32(0); i < 10000; i++ {
		selValues = append(selValues, -1000*i, 1000+i)
	}
	selection, err := NewLabelsAssumeUnique([]string{"c", "a"}, selValues, len(selValues)/2)
	require.NoError(t, err)
	selected, err := Select(labels, selection)
	require.NoError(t, err)
	require.Greater(t, selection.positions().slotCount(), cachedIndexSlots)
	require.Equal(t, want, selected)
}

// TestLabelsIndexRegionBuild checks that building by regions (large inputs) and row by row
// agree: the same duplicates, in increasing order, and lookups finding first occurrences,
// for rows stored in their slots and rows left in the values.
func TestLabelsIndexRegionBuild(t *testing.T) {
	rng := newTestRand(11)
	for _, size := range []int{1, 2, 3, 4, 6} {
		rows := randomRows(rng, size, 3*regionBuildCount, -1<<20, 1<<20, false)
		count := len(rows) // random rows are distinct, so there may be fewer
		// Repeat some rows later on, some of them more than once.
		for range 500 {
			rows[count/2+rng.IntN(count/2)] = rows[rng.IntN(count)]
		}
		values := flatten(rows)
		want := map[string]int{}
		var wantDuplicates []int
		for i, row := range rows {
			if _, seen := want[fmt.Sprint(row)]; seen {
				wantDuplicates = append(wantDuplicates, i)
			} else {
				want[fmt.Sprint(row)] = i
			}
		}

		// Checked insertion, after a first part known distinct (as checkUnique does it).
		ix := newLabelsIndex(count, size)
		require.True(t, ix.useRegions(count-10))
		ix.insertAllNew(values, size, 0, 10)
		require.Equal(t, wantDuplicates, ix.insertAll(values, size, 10, count), "size %d", size)
		// Unchecked insertion of rows with duplicates (careless assume-unique labels).
		unchecked := buildLabelsIndex(values, size, count)
		for _, row := range rows {
			require.Equal(t, want[fmt.Sprint(row)], ix.find(values, row), "size %d", size)
			require.Equal(t, want[fmt.Sprint(row)], unchecked.find(values, row), "size %d", size)
		}
		require.Equal(t, -1, ix.find(values, extremeRow(size, 5000)))

		// Bulk lookups by regions: every row (duplicates give the first occurrence), shuffled,
		// and as many absent rows.
		queries := append([]int32(nil), values...)
		for range count {
			queries = append(queries, extremeRow(size, 1<<21+rng.Int32N(1<<20))...)
		}
		rng.Shuffle(len(queries)/size, func(a, b int) {
			for k := range size {
				queries[a*size+k], queries[b*size+k] = queries[b*size+k], queries[a*size+k]
			}
		})
		require.True(t, ix.useRegions(len(queries)/size))
		found := make([]int64, len(queries)/size)
		ix.findAll(values, queries, size, found)
		for q := range found {
			require.Equal(t, int64(ix.find(values, queries[q*size:q*size+size])), found[q], "size %d", size)
		}
	}
}
