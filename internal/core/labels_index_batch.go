package core

// Bulk operations on the index. A lookup in a large index costs a cache miss on the slot and,
// for rows wider than 3 not stored in their slot, a second, dependent one on the row it points
// to. Done one at a time, every lookup waits for its misses. Done by batches, a first pass
// loads the slots of a whole batch, a second the rows they point to: these loads do not depend
// on each other, so the processor overlaps their misses, and the last pass (the actual
// probing) finds everything in cache. The values loaded early are used to skip work in the
// last pass, which also keeps the compiler from dropping them.

const indexBatch = 16

// cachedIndexSlots is the number of slots under which an index table is taken to stay in
// cache, so that batching lookups gains nothing.
const cachedIndexSlots = 1 << 16

// batchState holds what the first passes learnt of each row of a batch.
type batchState struct {
	hash  [indexBatch]uint64 // the row's hash
	first [indexBatch]uint32 // header of the first slot of its chain
	lead  [indexBatch]int32  // first value of the row in that slot (the tag matching)
}

// load runs the first passes over rows base..base+n-1 of queries.
func (ix *labelsIndex) load(st *batchState, values, queries []int32, size, base, n int) {
	for k := range n {
		q := (base + k) * size
		h := hashRow(queries[q : q+size])
		st.hash[k] = h
		st.first[k] = ix.header(h >> ix.shift)
	}
	if ix.stride > 1 {
		return // the rows are in the slots just loaded
	}
	for k := range n {
		if s := st.first[k]; s != 0 && s&^ix.posMask == ix.tag(st.hash[k]) {
			st.lead[k] = values[int(s&ix.posMask-1)*size]
		}
	}
}

// startSlot gives where the probe of batch row k must start: past the first slot when the
// first passes showed the row there is not this one.
func (ix *labelsIndex) startSlot(st *batchState, k int, row []int32) uint64 {
	h := st.hash[k]
	i := h >> ix.shift
	if s := st.first[k]; s != 0 && (s&^ix.posMask != ix.tag(h) || (ix.stride == 1 && st.lead[k] != row[0])) {
		// A filled slot never changes, so this holds even after insertions.
		return (i + 1) & ix.mask
	}
	return i
}

// findAll sets out[q] to the position of query row q (rows of width size, row-major in
// queries), or -1 when it is absent.
func (ix *labelsIndex) findAll(values, queries []int32, size int, out []int64) {
	if ix.slotCount() <= cachedIndexSlots {
		// The table is in cache already: the batching machinery would only cost time.
		for q := range out {
			out[q] = int64(ix.find(values, queries[q*size:q*size+size]))
		}
		return
	}
	if ix.useRegions(len(out)) {
		ix.findAllByRegions(values, queries, size, out)
		return
	}
	ix.findAllBatched(values, queries, size, out)
}

// findAllBatched is findAll by batches, whatever the size of the table.
func (ix *labelsIndex) findAllBatched(values, queries []int32, size int, out []int64) {
	var st batchState
	for base := 0; base < len(out); base += indexBatch {
		n := min(indexBatch, len(out)-base)
		ix.load(&st, values, queries, size, base, n)
		for k := range n {
			if st.first[k] == 0 {
				out[base+k] = -1 // the chain is empty
				continue
			}
			q := (base + k) * size
			row := queries[q : q+size : q+size]
			pos, _ := ix.probeFrom(values, row, st.hash[k], ix.startSlot(&st, k, row))
			out[base+k] = int64(pos)
		}
	}
}

// insertAllNew adds rows from..to-1 of values, known to be absent and distinct.
func (ix *labelsIndex) insertAllNew(values []int32, size, from, to int) {
	if ix.useRegions(to - from) {
		ix.insertByRegions(values, size, from, to)
		return
	}
	var hash [indexBatch]uint64
	var first [indexBatch]uint32
	for base := from; base < to; base += indexBatch {
		n := min(indexBatch, to-base)
		for k := range n {
			o := (base + k) * size
			hash[k] = hashRow(values[o : o+size])
			first[k] = ix.header(hash[k] >> ix.shift)
		}
		for k := range n {
			i := hash[k] >> ix.shift
			// An earlier row of this batch may have taken the slot found empty.
			if first[k] != 0 || ix.header(i) != 0 {
				for i = (i + 1) & ix.mask; ix.header(i) != 0; i = (i + 1) & ix.mask {
				}
			}
			o := (base + k) * size
			ix.put(i, hash[k], base+k, values[o:o+size])
		}
	}
}

// insertAll adds rows from..to-1 of values, skipping those equal to a row already indexed,
// whose positions it returns (in increasing order).
func (ix *labelsIndex) insertAll(values []int32, size, from, to int) []int {
	if ix.useRegions(to - from) {
		return ix.insertByRegions(values, size, from, to)
	}
	var st batchState
	var duplicates []int
	for base := 0; base < to-from; base += indexBatch {
		n := min(indexBatch, to-from-base)
		ix.load(&st, values, values, size, from+base, n)
		for k := range n {
			pos := from + base + k
			row := values[pos*size : pos*size+size : pos*size+size]
			h := st.hash[k]
			if i := h >> ix.shift; st.first[k] == 0 && ix.header(i) == 0 {
				// The chain was empty and still is (no earlier row of this batch took the
				// slot): the row is new.
				ix.put(i, h, pos, row)
				continue
			}
			found, slot := ix.probeFrom(values, row, h, ix.startSlot(&st, k, row))
			if found >= 0 {
				duplicates = append(duplicates, pos)
				continue
			}
			ix.put(slot, h, pos, row)
		}
	}
	return duplicates
}
