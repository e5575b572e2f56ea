package metatensor

import (
	"runtime"
	"slices"

	"github.com/metatensor-go/metatensor/internal/core"
)

// Labels are the metadata of blocks and tensor maps: named dimensions and unique entries
// (rows) of int32 values, one value per dimension. They are immutable and reference counted:
// each *Labels holds its own reference, released by Close.
type Labels struct {
	labels *core.ArrayLabels
	// Labels have no views sharing their owner, which can then live in the same allocation.
	owner owner
}

// adoptLabels wraps core labels, taking over one reference to them.
func adoptLabels(labels *core.ArrayLabels) *Labels {
	l := &Labels{labels: labels}
	// Labels in Go memory alone need no cleanup, which is costly to register (the runtime
	// keeps a sorted list per span): the garbage collector reclaims them whole. Otherwise,
	// without views nothing can look at the state once l is unreachable: the cleanup
	// releases the labels alone, and Close stops it first.
	if !labels.ReleasesGoMemoryOnly() {
		l.owner.cleanup = runtime.AddCleanup(l, (*core.ArrayLabels).Release, labels)
	}
	return l
}

// shareLabels wraps core labels that belong to someone else, with a new reference.
func shareLabels(labels *core.ArrayLabels) *Labels {
	labels.Retain()
	return adoptLabels(labels)
}

// NewLabels makes labels with the given dimension names and entries, one row of
// len(names) values each, checking that the entries are unique. Names must be valid
// identifiers (ASCII letters, digits and '_', not starting with a digit) and unique.
func NewLabels(names []string, rows [][]int32) (*Labels, error) {
	return labelsFromRows(names, rows, true)
}

// NewLabelsAssumeUnique is NewLabels without the check that entries are unique, for rows
// known to be: it is faster, and labels with duplicate entries behave unpredictably.
func NewLabelsAssumeUnique(names []string, rows [][]int32) (*Labels, error) {
	return labelsFromRows(names, rows, false)
}

// NewLabelsFromValues makes labels from the values of every entry, one after the other
// (row-major): len(values) must be a multiple of len(names). The values are copied.
func NewLabelsFromValues(names []string, values []int32) (*Labels, error) {
	return labelsFromValues(names, values, true)
}

// NewLabelsFromValuesAssumeUnique is NewLabelsFromValues without the check that entries are
// unique.
func NewLabelsFromValuesAssumeUnique(names []string, values []int32) (*Labels, error) {
	return labelsFromValues(names, values, false)
}

// NewLabelsRange makes labels with one dimension and the entries 0, 1, ..., count-1.
func NewLabelsRange(name string, count int) (*Labels, error) {
	if count < 0 {
		return nil, invalidf("NewLabelsRange needs a count of zero or more, got %d", count)
	}
	values := make([]int32, count)
	for i := range values {
		values[i] = int32(i)
	}
	return newLabels([]string{name}, values, count, false)
}

func labelsFromRows(names []string, rows [][]int32, checkUnique bool) (*Labels, error) {
	values := make([]int32, 0, len(rows)*len(names))
	for i, row := range rows {
		if len(row) != len(names) {
			return nil, invalidf("invalid labels: entry %d has %d values, but there are %d dimensions %v",
				i, len(row), len(names), names)
		}
		values = append(values, row...)
	}
	return newLabels(names, values, len(rows), checkUnique)
}

func labelsFromValues(names []string, values []int32, checkUnique bool) (*Labels, error) {
	if len(names) == 0 {
		if len(values) != 0 {
			return nil, invalidf("invalid labels: %d values, but there are no dimensions", len(values))
		}
		return newLabels(names, nil, 0, checkUnique)
	}
	if len(values)%len(names) != 0 {
		return nil, invalidf("invalid labels: %d values do not make whole entries of %d dimensions %v",
			len(values), len(names), names)
	}
	return newLabels(names, slices.Clone(values), len(values)/len(names), checkUnique)
}

// newLabels builds labels over values, which they keep.
func newLabels(names []string, values []int32, count int, checkUnique bool) (*Labels, error) {
	if len(names) == 0 {
		values, count = nil, 0 // entries without dimensions make empty labels, as in the C API
	}
	var cpu *core.Labels
	var err error
	if checkUnique {
		cpu, err = core.NewLabels(names, values, count)
	} else {
		cpu, err = core.NewLabelsAssumeUnique(names, values, count)
	}
	if err != nil {
		return nil, err
	}
	return adoptLabels(core.LabelsFromValues(cpu.Names(), cpu)), nil
}

// get gives the core labels, or the error of nil labels or labels used after Close (out of
// line: get is on the path of every lookup).
func (l *Labels) get() (*core.ArrayLabels, error) {
	if l == nil || l.owner.state.Load() != live {
		return nil, l.unusable()
	}
	return l.labels, nil
}

// unusable gives the error of get: an owner is never live again once it was not.
func (l *Labels) unusable() error {
	if l == nil {
		return invalidf("got nil Labels")
	}
	return l.owner.check("Labels")
}

// closing ends a live reference, once, for Close.
func (l *Labels) closing() bool { return l != nil && l.owner.release(closed) }

// cpu gives the values on the CPU, for the methods without an error result: labels used
// after Close, or whose values array can not give its values (see Values), panic there.
func (l *Labels) cpu() *core.Labels {
	labels := must(l.get())
	return must(labels.CPU())
}

// Count gives the number of entries.
func (l *Labels) Count() int { return must(l.get()).Count() }

// Size gives the number of dimensions.
func (l *Labels) Size() int { return must(l.get()).Size() }

// Row gives the values of entry i, shared with the labels (do not modify them), or nil when
// i is out of range. It panics when the values can not be read (see Values).
func (l *Labels) Row(i int) []int32 { return l.cpu().Row(i) }

// Equal tells whether l and other have the same names and the same entries in the same
// order.
func (l *Labels) Equal(other *Labels) bool {
	defer runtime.KeepAlive(l)
	defer runtime.KeepAlive(other)
	a, err := l.get()
	if err != nil {
		return false
	}
	b, err := other.get()
	if err != nil {
		return false
	}
	equal, err := core.LabelsEqual(a, b)
	return err == nil && equal
}
