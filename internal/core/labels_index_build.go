package core

import (
	"math/bits"
	"slices"
)

// Building a large index one row at a time writes every row to a random slot: with the table
// far larger than the processor's caches and address translation buffers, each insertion
// waits on memory. Building it by regions instead, the rows are first sorted (a counting sort,
// stable) by the region of the table their chain starts in; the insertions then fill one
// region after the other, each small enough to stay in cache. Sorting is stable, so equal
// rows are still inserted in the order of their positions: the first one is kept, and the
// others are the duplicates.

// regionSlots is the number of slots of a region (64 KiB of slots of 4 words).
const regionSlots = 1 << 12

// regionBuildCount is the number of rows from which inserting them by regions pays.
const regionBuildCount = 1 << 15

// useRegions tells whether inserting count rows goes by regions.
func (ix *labelsIndex) useRegions(count int) bool {
	return count >= regionBuildCount && ix.slotCount() > cachedIndexSlots
}

// insertByRegions adds rows from..to-1 of values. With check, rows equal to a row already
// indexed (or to an earlier one of these) are skipped, and their positions returned in
// increasing order; without, the rows are known to be absent and distinct.
func (ix *labelsIndex) insertByRegions(values []int32, size, from, to int, check bool) []int {
	regionShift := uint(bits.TrailingZeros64(regionSlots))
	regions := ix.slotCount() >> regionShift
	stride := int(ix.stride)
	// An entry is the home slot of a row, then the slot it will fill: a header and, for rows
	// stored inline, the row (with zero padding, as in the table).
	entryWords := 1 + stride

	starts := make([]int, regions+1)
	for pos := from; pos < to; pos++ {
		h := hashRow(values[pos*size : pos*size+size])
		starts[(h>>ix.shift)>>regionShift+1]++
	}
	for r := range regions {
		starts[r+1] += starts[r]
	}

	entries := make([]uint32, (to-from)*entryWords)
	for pos := from; pos < to; pos++ {
		row := values[pos*size : pos*size+size : pos*size+size]
		h := hashRow(row)
		home := h >> ix.shift
		r := home >> regionShift
		e := entries[starts[r]*entryWords : (starts[r]+1)*entryWords : (starts[r]+1)*entryWords]
		starts[r]++
		e[0] = uint32(home)
		e[1] = ix.tag(h) | uint32(pos+1)
		if stride > 1 {
			for k, v := range row {
				e[2+k] = uint32(v)
			}
		}
	}

	// The insertions go by batches, as in insertAllNew: the slots of a batch are read first,
	// so that their cache misses overlap (the region was never read since it was cleared).
	var duplicates []int
	var first [indexBatch]uint32
	count := to - from
	for base := 0; base < count; base += indexBatch {
		n := min(indexBatch, count-base)
		for k := range n {
			first[k] = ix.header(uint64(entries[(base+k)*entryWords]))
		}
		for k := range n {
			e := (base + k) * entryWords
			entry := entries[e : e+entryWords : e+entryWords]
			slot := entry[1:]
			i := uint64(entry[0])
			if first[k] != 0 || ix.header(i) != 0 {
				if pos, free := ix.probeSlot(i, slot, values, size, check); pos >= 0 {
					duplicates = append(duplicates, pos)
					continue
				} else {
					i = free
				}
			}
			copy(ix.slots[i*ix.stride:(i+1)*ix.stride], slot)
		}
	}
	slices.Sort(duplicates)
	return duplicates
}

// probeSlot walks the chain from slot i for the row of slot (the content of a slot not in the
// table yet). With check, it gives the position of the row of slot when the table holds an
// equal one; otherwise -1 and the empty slot that ends the chain.
func (ix *labelsIndex) probeSlot(i uint64, slot []uint32, values []int32, size int, check bool) (int, uint64) {
	for ; ix.header(i) != 0; i = (i + 1) & ix.mask {
		if check && ix.sameRow(i, slot, values, size) {
			return int(slot[0]&ix.posMask) - 1, i
		}
	}
	return -1, i
}

// sameRow tells whether the filled slot i holds the row of slot, the content of a slot not in
// the table yet.
func (ix *labelsIndex) sameRow(i uint64, slot []uint32, values []int32, size int) bool {
	held := ix.slots[i*ix.stride : (i+1)*ix.stride]
	if (held[0]^slot[0])&^ix.posMask != 0 {
		return false // the tags differ
	}
	if ix.stride > 1 {
		return slices.Equal(held[1:], slot[1:])
	}
	p, q := int(held[0]&ix.posMask)-1, int(slot[0]&ix.posMask)-1
	return rowsEqual(values[p*size:p*size+size], values[q*size:q*size+size])
}
