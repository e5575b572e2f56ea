package core

// Freeing the blocks of a large tensor map touches per block memory that is often out of the
// cache by then: the block, and labels of its own (each block with samples of its own, say).
// Each such miss is followed by an atomic operation on the labels' count, which waits for it,
// so the misses come one after the other. A first pass of plain loads over the next warmAhead
// blocks lets the processor wait for their misses together; the atomic operations then find
// the lines in the cache (map_free_used_10000_distinct in bench/map_cycle_bench.c: a map of
// 10,000 blocks with samples of their own, freed).

// warmAhead is how many blocks one pass loads ahead of their use.
const warmAhead = 16

// warm loads the labels' reference count, which every retain and release changes. The load
// stays although its value goes unused: the compiler keeps atomic loads.
func (l *ArrayLabels) warm() {
	if l != nil {
		l.references.Load()
	}
}

// warmBlocks loads the reference counts of the samples and properties of blocks.
func warmBlocks(blocks []*Block) {
	for _, b := range blocks {
		if b != nil {
			b.samples.warm()
			b.properties.warm()
		}
	}
}
