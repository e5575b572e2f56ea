package metatensor

// Set operations on labels with the same dimensions, without the mappings that
// UnionWithMappings, IntersectionWithMappings and DifferenceWithMapping also give.

// Union gives the entries of l followed by those of other that are not in l.
func (l *Labels) Union(other *Labels) (*Labels, error) {
	union, _, _, err := l.UnionWithMappings(other)
	return union, err
}

// Intersection gives the entries that l and other share, in the order of whichever has
// fewer entries (l when both have as many).
func (l *Labels) Intersection(other *Labels) (*Labels, error) {
	intersection, _, _, err := l.IntersectionWithMappings(other)
	return intersection, err
}

// Difference gives the entries of l that are not in other, in the order of l.
func (l *Labels) Difference(other *Labels) (*Labels, error) {
	difference, _, err := l.DifferenceWithMapping(other)
	return difference, err
}

// intPositions converts the positions given by the core.
func intPositions[T int64 | uint64](mapping []T) []int {
	positions := make([]int, len(mapping))
	for i, p := range mapping {
		positions[i] = int(p)
	}
	return positions
}
