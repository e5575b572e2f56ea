package core

import (
	"math/bits"
	"slices"
	"sync/atomic"
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

// sortByRegion sorts rows from..to-1 of rows (of width size) by region. It also gives where
// the entries of each region end: those of region r are ends[r-1] (0 for r = 0) to ends[r].
func (ix *labelsIndex) sortByRegion(rows []int32, size, from, to int) (regionEntries, []int) {
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
	return regionEntries{words, width}, starts[:len(starts)-1]
}

// entry gives entry e.
func (re regionEntries) entry(e int) []uint32 {
	return re.words[e*re.width : (e+1)*re.width : (e+1)*re.width]
}

// count gives the number of entries.
func (re regionEntries) count() int { return len(re.words) / re.width }

// insertByRegions adds rows from..to-1 of values, skipping those equal to a row already
// indexed or to an earlier one of these, whose positions it returns in increasing order.
func (ix *labelsIndex) insertByRegions(values []int32, size, from, to int) []int {
	duplicates := ix.walkRegions(values, values, size, from, to, nil)
	slices.Sort(duplicates)
	return duplicates
}

// findAllByRegions is findAll by regions: out[q] is the position of query row q, or -1.
func (ix *labelsIndex) findAllByRegions(values, queries []int32, size int, out []int64) {
	ix.walkRegions(values, queries, size, 0, len(out), out)
}

// walkRegions looks up rows from..to-1 of rows region by region. Given out, it sets out[q]
// to the position of row q, or -1. Without, it inserts the rows not found and gives the
// positions of the others (unordered). Each region of the table is first read from end to
// end, which the processor streams in far faster than it serves scattered reads: the probes
// that follow hit the cache.
func (ix *labelsIndex) walkRegions(values, rows []int32, size, from, to int, out []int64) []int {
	entries, ends := ix.sortByRegion(rows, size, from, to)
	var duplicates []int
	begin := 0
	for r, end := range ends {
		if end == begin {
			continue
		}
		ix.streamRegion(r)
		if ix.stride > 1 {
			duplicates = ix.regionPass(entries.words[begin*entries.width:end*entries.width], out, duplicates)
		} else {
			duplicates = ix.regionPassValues(entries, begin, end, values, rows, size, out, duplicates)
		}
		begin = end
	}
	return duplicates
}

// streamSink keeps the reads of streamRegion from being optimised away (atomic: indexes are
// built and searched from several goroutines at once).
var streamSink atomic.Uint32

// streamRegion reads one word of every cache line of region r of the table.
func (ix *labelsIndex) streamRegion(r int) {
	from := uint64(r) * regionSlots * ix.stride
	to := min(from+regionSlots*ix.stride, uint64(len(ix.slots)))
	var sum uint32
	for at := from; at < to; at += 16 {
		sum += ix.slots[at]
	}
	if sum == 1 {
		streamSink.Add(1)
	}
}

// regionPass is walkRegions for the entries in words, one region's, of an index storing its
// rows inline: the tag and the row are compared in the slot itself. Each slot size has its
// function, with the width a constant (regionPass2 and regionPass4, generated into
// labels_probe_gen.go by gen/gocore).
func (ix *labelsIndex) regionPass(words []uint32, out []int64, duplicates []int) []int {
	if ix.stride == 2 {
		return ix.regionPass2(words, out, duplicates)
	}
	return ix.regionPass4(words, out, duplicates)
}

// regionPassValues is regionPass for an index whose rows stay in the values: entries
// begin..end-1 stand for rows of rows, compared with the rows of values the slots point to.
func (ix *labelsIndex) regionPassValues(entries regionEntries, begin, end int, values, rows []int32, size int,
	out []int64, duplicates []int) []int {
	for k := begin; k < end; k++ {
		e := entries.entry(k)
		tag, q := e[entryHash]<<ix.posBits, int(e[entryIndex])
		row := rows[q*size : q*size+size : q*size+size]
		pos := -1
		i := uint64(e[entryHome])
		for ; ix.slots[i] != 0; i = (i + 1) & ix.mask {
			if s := ix.slots[i]; s&^ix.posMask == tag {
				if p := int(s&ix.posMask) - 1; compareRows(rowAt(values, size, p), row) == 0 {
					pos = p
					break
				}
			}
		}
		if out != nil {
			out[q] = int64(pos)
		} else if pos >= 0 {
			duplicates = append(duplicates, q)
		} else {
			ix.slots[i] = tag | uint32(q+1)
		}
	}
	return duplicates
}
