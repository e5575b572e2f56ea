package core

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Labels are named, unique rows of int32 values: the metadata of blocks and tensor maps.
// They are immutable once built and safe to share between goroutines; the caches filled on
// first use (sorted flag, hash index) are initialised once, under a lock or atomically.
type Labels struct {
	names  []string
	values []int32 // row-major, count*size values
	count  int
	size   int

	sorted  atomic.Uint32 // one of sortedUnknown, sortedYes, sortedNo
	checked bool          // the rows were checked unique, before the labels were shared

	index     atomic.Pointer[labelsIndex] // nil until built
	indexLock sync.Mutex                  // held while building index
}

const (
	sortedUnknown uint32 = iota
	sortedYes
	sortedNo
)

// NewLabels builds labels from dimension names and count rows of len(names) values, checking
// that the rows are unique. The labels keep values (not a copy): the caller must not modify
// it afterwards. Without names, values must be empty and the labels have no entries, whatever
// count says (the reference turns any [count, 0] array into empty labels).
func NewLabels(names []string, values []int32, count int) (*Labels, error) {
	l, err := newLabels(names, values, count)
	if err != nil {
		return nil, err
	}
	if err := l.checkUnique(); err != nil {
		return nil, err
	}
	l.checked = true
	return l, nil
}

// knownDistinct tells whether no two rows are equal for certain: the labels were checked, or
// have at most one entry. Operations that gather rows skip their de-duplication then; labels
// assumed unique that repeat a row still get the reference's de-duplicated results.
func (l *Labels) knownDistinct() bool { return l.count <= 1 || l.checked }

// initKnownDistinctLabels makes in l, fresh, the labels of values of array labels whose rows
// the caller checked already, finding no repeated one and whether they increase all along
// (sorted): the labels count as checked, share the names of the array labels (valid, and
// never modified), and build their hash index on first use.
func initKnownDistinctLabels(l *Labels, names []string, values []int32, sorted bool) {
	initDerivedLabels(l, names, values)
	l.checked = true
	if sorted {
		l.sorted.Store(sortedYes)
	} else if l.count > 1 {
		l.sorted.Store(sortedNo)
	}
}

// NewLabelsAssumeUnique is NewLabels without the uniqueness check, for rows the caller knows
// to be unique. The sorted flag and the hash index are built on first use.
func NewLabelsAssumeUnique(names []string, values []int32, count int) (*Labels, error) {
	return newLabels(names, values, count)
}

// newLabels validates names and shape, without looking at the values.
func newLabels(names []string, values []int32, count int) (*Labels, error) {
	if err := validateLabelNames(names); err != nil {
		return nil, err
	}
	if count < 0 {
		return nil, Errorf(InternalError, "labels can not have a negative number of entries (%d)", count)
	}

	if len(names) == 0 {
		// Values without dimensions to hold them are a caller bug (a panic in the reference).
		if len(values) != 0 {
			return nil, Errorf(InternalError,
				"labels without dimensions can not have values, got %d values", len(values))
		}
		l := &Labels{values: []int32{}}
		l.sorted.Store(sortedYes)
		return l, nil
	}

	size := len(names)
	if len(values)%size != 0 || len(values)/size != count {
		return nil, Errorf(InternalError,
			"labels values have %d elements, expected %d entries of %d dimensions", len(values), count, size)
	}
	if uint64(count) > maxIndexedCount {
		return nil, Errorf(InvalidParameterError,
			"labels can have at most %d entries, got %d", uint64(maxIndexedCount), count)
	}

	l := &Labels{names: slices.Clone(names), values: values, count: count, size: size}
	if count <= 1 {
		l.sorted.Store(sortedYes)
	}
	return l, nil
}

// newDerivedLabels wraps rows that are unique by construction (results of set operations);
// names are shared with the input labels, which never modify them.
func newDerivedLabels(names []string, values []int32) *Labels {
	l := &Labels{}
	initDerivedLabels(l, names, values)
	return l
}

// initDerivedLabels is newDerivedLabels in l, fresh.
func initDerivedLabels(l *Labels, names []string, values []int32) {
	size := len(names)
	if size == 0 {
		l.values = []int32{}
		l.sorted.Store(sortedYes)
		return
	}
	l.names, l.values, l.count, l.size = names, values, len(values)/size, size
	if l.count <= 1 {
		l.sorted.Store(sortedYes)
	}
}

// Names gives the dimension names. The slice belongs to the labels: do not modify it.
func (l *Labels) Names() []string { return l.names }

// Count gives the number of entries (rows).
func (l *Labels) Count() int { return l.count }

// Size gives the number of dimensions (the width of a row).
func (l *Labels) Size() int { return l.size }

// Values gives the row-major values, Count()*Size() of them. The slice belongs to the labels:
// do not modify it.
func (l *Labels) Values() []int32 { return l.values }

// Row gives the values of entry i (a view, do not modify it), or nil when i is out of range.
func (l *Labels) Row(i int) []int32 {
	if i < 0 || i >= l.count {
		return nil
	}
	return l.row(i)
}

func (l *Labels) row(i int) []int32 {
	o := i * l.size
	return l.values[o : o+l.size : o+l.size]
}

// IsSorted tells whether the entries are in strictly increasing lexicographic order.
func (l *Labels) IsSorted() bool {
	switch l.sorted.Load() {
	case sortedYes:
		return true
	case sortedNo:
		return false
	}
	// Racing goroutines compute the same answer, so storing it twice is harmless.
	sorted := walkIncreasing(l.values, l.size, l.count) == l.count
	if sorted {
		l.sorted.Store(sortedYes)
	} else {
		l.sorted.Store(sortedNo)
	}
	return sorted
}

// Position gives the index of the entry equal to row, or -1 when there is none.
func (l *Labels) Position(row []int32) (int, error) {
	if len(row) != l.size {
		return -1, errPositionWidth(l.size, len(row))
	}
	if l.size == 0 {
		return -1, Errorf(InternalError, "can not look up an entry in labels without dimensions")
	}
	return l.find(row), nil
}

// errPositionWidth is the error of a position lookup of a row of width values in labels of
// size dimensions.
func errPositionWidth(size, width int) error {
	return Errorf(InvalidParameterError,
		"expected label of size %d in mts_labels_position, got size %d", size, width)
}

// find is Position for a row of the right width.
func (l *Labels) find(row []int32) int {
	ix := l.index.Load()
	if ix == nil {
		if l.count == 0 {
			return -1 // no index without entries
		}
		ix = l.buildIndex()
	}
	return ix.find(l.values, row)
}

// positions gives the hash index of the rows, building it on first use. Labels without
// entries have none: callers check Count() first.
func (l *Labels) positions() *labelsIndex {
	if ix := l.index.Load(); ix != nil {
		return ix
	}
	return l.buildIndex()
}

// buildIndex builds the hash index once, for positions and find.
func (l *Labels) buildIndex() *labelsIndex {
	l.indexLock.Lock()
	defer l.indexLock.Unlock()
	if ix := l.index.Load(); ix != nil {
		return ix
	}
	ix := buildLabelsIndex(l.values, l.size, l.count)
	l.index.Store(ix)
	return ix
}

// Equal tells whether a and b have the same names in the same order and the same entries in
// the same order.
func Equal(a, b *Labels) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.count == b.count && slices.Equal(a.names, b.names) && slices.Equal(a.values, b.values)
}

// rowAt gives row i of a [count, size] values matrix, capped so appends cannot reach row i+1.
func rowAt(values []int32, size, i int) []int32 {
	return values[i*size : i*size+size : i*size+size]
}

// compareRows compares two rows of the same width lexicographically, as signed integers. It
// is the only row order of the library: sorting, merging and equality all go through it.
func compareRows(a, b []int32) int {
	b = b[:len(a)]
	for k := range a {
		if a[k] != b[k] {
			if a[k] < b[k] {
				return -1
			}
			return 1
		}
	}
	return 0
}
