package core

// labelsRuns releases labels in runs: the blocks of a tensor map, freed one after the other,
// usually share their samples and their properties, and one atomic operation per run of the
// same labels replaces one per block. Each slot (0: samples, 1: properties) has its run; a nil
// *labelsRuns releases at once. The labels that go let rel release their arrays and records.
type labelsRuns [2]struct {
	labels *ArrayLabels
	count  int64
}

// release drops one reference to l, in the run of slot.
func (r *labelsRuns) release(rel Releaser, slot int, l *ArrayLabels) {
	if r == nil {
		l.ReleaseNWith(1, rel)
		return
	}
	run := &r[slot]
	if run.labels != l {
		if run.count > 0 {
			run.labels.ReleaseNWith(run.count, rel)
		}
		run.labels, run.count = l, 0
	}
	run.count++
}

// flush releases what the runs still hold.
func (r *labelsRuns) flush(rel Releaser) {
	for slot := range r {
		if r[slot].count > 0 {
			r[slot].labels.ReleaseNWith(r[slot].count, rel)
		}
		r[slot].labels, r[slot].count = nil, 0
	}
}
