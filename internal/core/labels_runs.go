package core

// labelsRuns counts references to labels in runs: the blocks of a tensor map, freed or copied
// one after the other, usually share their samples and their properties (and their
// components), and one atomic operation per run of the same labels replaces one per block.
// Each slot has its run (0: samples, 1: properties, 2: components; a copy counts those in
// runs, a free releases them at once, in the order TestFreeWithReleasesLabelsThatGo pins).
// Releases: a nil *labelsRuns releases at once, and the labels that go let rel release their
// arrays and records.
type labelsRuns [3]struct {
	labels *ArrayLabels
	count  int64
}

// add counts one reference to l in the run of slot, settling the run it ends with settle.
func (r *labelsRuns) add(slot int, l *ArrayLabels, settle func(l *ArrayLabels, n int64)) {
	run := &r[slot]
	if run.labels != l {
		if run.count > 0 {
			settle(run.labels, run.count)
		}
		run.labels, run.count = l, 0
	}
	run.count++
}

// settle settles what the runs still hold.
func (r *labelsRuns) settle(settle func(l *ArrayLabels, n int64)) {
	for slot := range r {
		if r[slot].count > 0 {
			settle(r[slot].labels, r[slot].count)
		}
		r[slot].labels, r[slot].count = nil, 0
	}
}

// release drops one reference to l, in the run of slot.
func (r *labelsRuns) release(rel Releaser, slot int, l *ArrayLabels) {
	if r == nil {
		l.ReleaseNWith(1, rel)
		return
	}
	r.add(slot, l, func(l *ArrayLabels, n int64) { l.ReleaseNWith(n, rel) })
}

// flush releases what the runs still hold.
func (r *labelsRuns) flush(rel Releaser) {
	r.settle(func(l *ArrayLabels, n int64) { l.ReleaseNWith(n, rel) })
}

// retain adds one reference to l, in the run of slot; retained adds what the runs still hold.
func (r *labelsRuns) retain(slot int, l *ArrayLabels) { r.add(slot, l, (*ArrayLabels).RetainN) }

func (r *labelsRuns) retained() { r.settle((*ArrayLabels).RetainN) }
