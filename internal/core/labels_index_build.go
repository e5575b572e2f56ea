package core

import (
	"math/bits"
	"slices"
)

// Visiting a large index in the order of the rows at hand sends every row to a random slot:
// with the table far larger than the processor's caches and address translation buffers, each
// step waits on memory. Going by regions instead, the rows are first sorted (a counting sort,
// stable) by the region of the table their chain starts in; the insertions or lookups then
// work on one region after the other, each small enough to stay in cache. The sort being
// stable, equal rows are still inserted in the order of their positions: the first one is
// kept, and the others are the duplicates.

// regionSlots is the number of slots of a region (64 KiB of slots of 4 words).
const regionSlots = 1 << 12

// regionBuildCount is the number of rows from which going by regions pays.
const regionBuildCount = 1 << 15

// useRegions tells whether inserting or looking up count rows goes by regions.
func (ix *labelsIndex) useRegions(count int) bool {
	return count >= regionBuildCount && ix.slotCount() > cachedIndexSlots
}

// regionEntries describes rows sorted by region: entry e is words[e*width : (e+1)*width],
// holding the row's home slot, its index in its own rows, the low half of its hash and, when
// the index stores rows inline, the row (zero-padded to fill a slot).
type regionEntries struct {
	words []uint32
	width int
}

const (
	entryHome = iota
	entryIndex
	entryHash
	entryRow
)

// sortByRegion sorts rows from..to-1 of rows (of width size) by region.
func (ix *labelsIndex) sortByRegion(rows []int32, size, from, to int) regionEntries {
	regionShift := uint(bits.TrailingZeros64(regionSlots))
	starts := make([]int, ix.slotCount()>>regionShift+1)
	for r := from; r < to; r++ {
		h := hashRow(rows[r*size : r*size+size])
		starts[(h>>ix.shift)>>regionShift+1]++
	}
	for k := 1; k < len(starts); k++ {
		starts[k] += starts[k-1]
	}

	width := entryRow + int(ix.stride) - 1
	words := make([]uint32, (to-from)*width)
	for r := from; r < to; r++ {
		row := rows[r*size : r*size+size : r*size+size]
		h := hashRow(row)
		home := h >> ix.shift
		region := home >> regionShift
		e := words[starts[region]*width : (starts[region]+1)*width : (starts[region]+1)*width]
		starts[region]++
		e[entryHome], e[entryIndex], e[entryHash] = uint32(home), uint32(r), uint32(h)
		if ix.stride > 1 {
			for k, v := range row {
				e[entryRow+k] = uint32(v)
			}
		}
	}
	return regionEntries{words, width}
}

// entry gives entry e.
func (re regionEntries) entry(e int) []uint32 {
	return re.words[e*re.width : (e+1)*re.width : (e+1)*re.width]
}

// count gives the number of entries.
func (re regionEntries) count() int { return len(re.words) / re.width }

// insertByRegions adds rows from..to-1 of values. With check, rows equal to a row already
// indexed (or to an earlier one of these) are skipped, and their positions returned in
// increasing order; without, the rows are known to be absent and distinct.
func (ix *labelsIndex) insertByRegions(values []int32, size, from, to int, check bool) []int {
	entries := ix.sortByRegion(values, size, from, to)
	// By batches, as in insertAllNew: the slots of a batch are read first, so that their
	// cache misses overlap (the region was not read since the table was cleared).
	var duplicates []int
	var first [indexBatch]uint32
	for base := 0; base < entries.count(); base += indexBatch {
		n := ix.loadHomes(entries, base, &first)
		for k := range n {
			e := entries.entry(base + k)
			i := uint64(e[entryHome])
			if first[k] != 0 || ix.header(i) != 0 {
				pos, free := ix.probeEntry(e, values, values, size, check)
				if pos >= 0 {
					duplicates = append(duplicates, int(e[entryIndex]))
					continue
				}
				i = free
			}
			at := i * ix.stride
			ix.slots[at] = ix.tag(uint64(e[entryHash])) | (e[entryIndex] + 1)
			copy(ix.slots[at+1:at+ix.stride], e[entryRow:])
		}
	}
	slices.Sort(duplicates)
	return duplicates
}

// findAllByRegions is findAll by regions: out[q] is the position of query row q, or -1.
func (ix *labelsIndex) findAllByRegions(values, queries []int32, size int, out []int64) {
	entries := ix.sortByRegion(queries, size, 0, len(out))
	var first [indexBatch]uint32
	for base := 0; base < entries.count(); base += indexBatch {
		n := ix.loadHomes(entries, base, &first)
		for k := range n {
			e := entries.entry(base + k)
			pos := -1
			if first[k] != 0 {
				pos, _ = ix.probeEntry(e, values, queries, size, true)
			}
			out[e[entryIndex]] = int64(pos)
		}
	}
}

// loadHomes reads the home slots of the batch of entries from base into first, and gives
// the number of entries in the batch.
func (ix *labelsIndex) loadHomes(entries regionEntries, base int, first *[indexBatch]uint32) int {
	n := min(indexBatch, entries.count()-base)
	for k := range n {
		first[k] = ix.header(uint64(entries.entry(base + k)[entryHome]))
	}
	return n
}

// probeEntry walks the chain of the row of entry e (a row of rows) from its home slot. With
// compare, it gives the position of the equal row when the table holds one; otherwise -1 and
// the empty slot that ends the chain.
func (ix *labelsIndex) probeEntry(e []uint32, values, rows []int32, size int, compare bool) (int, uint64) {
	tag := ix.tag(uint64(e[entryHash]))
	for i := uint64(e[entryHome]); ; i = (i + 1) & ix.mask {
		held := ix.slots[i*ix.stride : (i+1)*ix.stride]
		if held[0] == 0 {
			return -1, i
		}
		if !compare || held[0]&^ix.posMask != tag {
			continue
		}
		p := int(held[0]&ix.posMask) - 1
		if ix.stride > 1 {
			if slices.Equal(held[1:], e[entryRow:]) {
				return p, i
			}
		} else if q := int(e[entryIndex]); rowsEqual(values[p*size:p*size+size], rows[q*size:q*size+size]) {
			return p, i
		}
	}
}
