package metatensor

import (
	"runtime"

	"github.com/metatensor-go/metatensor/internal/core"
)

// Set operations and selection on labels with the same dimensions. Mappings give, for each
// entry of an input, its position in the result, or -1 when it is not there.

// Union gives the entries of l followed by those of other that are not in l.
func (l *Labels) Union(other *Labels) (*Labels, error) {
	union, _, _, err := l.UnionWithMappings(other)
	return union, err
}

// UnionWithMappings is Union, with the position in the result of every entry of l and of
// other.
func (l *Labels) UnionWithMappings(other *Labels) (union *Labels, first, second []int, err error) {
	return withTwoMappings(l, other, (*core.ArrayLabels).Union)
}

// Intersection gives the entries of l that are also in other, in the order of l.
func (l *Labels) Intersection(other *Labels) (*Labels, error) {
	intersection, _, _, err := l.IntersectionWithMappings(other)
	return intersection, err
}

// IntersectionWithMappings is Intersection, with the position in the result of every entry
// of l and of other (-1 for those not in the result).
func (l *Labels) IntersectionWithMappings(other *Labels) (intersection *Labels, first, second []int, err error) {
	return withTwoMappings(l, other, (*core.ArrayLabels).Intersection)
}

// Difference gives the entries of l that are not in other, in the order of l.
func (l *Labels) Difference(other *Labels) (*Labels, error) {
	difference, _, err := l.DifferenceWithMapping(other)
	return difference, err
}

// DifferenceWithMapping is Difference, with the position in the result of every entry of l
// (-1 for those not in the result).
func (l *Labels) DifferenceWithMapping(other *Labels) (difference *Labels, first []int, err error) {
	defer keepOperands(l, other)
	a, b, err := setOperands(l, other)
	if err != nil {
		return nil, nil, err
	}
	result, firstMap, err := a.Difference(b)
	if err != nil {
		return nil, nil, err
	}
	return adoptLabels(result), intPositions(firstMap), nil
}

// Select gives the positions of the entries of l that match selection. When selection has
// the dimensions of l, in the same order, its entries are looked up in turn (absent ones are
// skipped). Otherwise each of its dimensions must be one of l's, and the entries of l whose
// values on these dimensions form an entry of selection are given, in the order of l.
func (l *Labels) Select(selection *Labels) ([]int, error) {
	defer keepOperands(l, selection)
	labels, chosen, err := setOperands(l, selection)
	if err != nil {
		return nil, err
	}
	positions, err := labels.Select(chosen)
	if err != nil {
		return nil, err
	}
	return intPositions(positions), nil
}

// withTwoMappings runs a set operation that maps the entries of both operands.
func withTwoMappings(first, second *Labels,
	operation func(a, b *core.ArrayLabels) (*core.ArrayLabels, []int64, []int64, error)) (*Labels, []int, []int, error) {
	defer keepOperands(first, second)
	a, b, err := setOperands(first, second)
	if err != nil {
		return nil, nil, nil, err
	}
	result, firstMap, secondMap, err := operation(a, b)
	if err != nil {
		return nil, nil, nil, err
	}
	return adoptLabels(result), intPositions(firstMap), intPositions(secondMap), nil
}

// setOperands gives the core labels of both operands.
func setOperands(first, second *Labels) (*core.ArrayLabels, *core.ArrayLabels, error) {
	a, err := first.get()
	if err != nil {
		return nil, nil, err
	}
	b, err := second.get()
	if err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// keepOperands keeps both operands reachable until the operation is done.
func keepOperands(first, second *Labels) {
	runtime.KeepAlive(first)
	runtime.KeepAlive(second)
}

// intPositions converts the positions given by the core.
func intPositions[T int64 | uint64](mapping []T) []int {
	positions := make([]int, len(mapping))
	for i, p := range mapping {
		positions[i] = int(p)
	}
	return positions
}
