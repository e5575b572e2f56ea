package core

// labelsRuns releases labels in runs: the blocks of a tensor map, freed one after the other,
// usually share their samples and their properties, and one atomic operation per run of the
// same labels replaces one per block. Each slot (0: samples, 1: properties) has its run; a nil
// *labelsRuns releases at once.
type labelsRuns [2]struct {
	labels *ArrayLabels
	count  int64
}

// release drops one reference to l, in the run of slot.
func (r *labelsRuns) release(slot int, l *ArrayLabels) {
	if r == nil {
		l.Release()
		return
	}
	run := &r[slot]
	if run.labels != l {
		if run.count > 0 {
			run.labels.ReleaseN(run.count)
		}
		run.labels, run.count = l, 0
	}
	run.count++
}

// flush releases what the runs still hold.
func (r *labelsRuns) flush() {
	for slot := range r {
		if r[slot].count > 0 {
			r[slot].labels.ReleaseN(r[slot].count)
		}
		r[slot].labels, r[slot].count = nil, 0
	}
}
