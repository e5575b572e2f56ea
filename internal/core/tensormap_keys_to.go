package core

import (
	"errors"
	"math"
	"slices"
)

// What keys_to_properties and keys_to_samples share (docs/reference-behaviour.md#keys-to): moving
// key dimensions out of the keys, grouping the blocks that end up with the same new key, merging
// their samples and gradient samples, and creating the merged arrays with the fill value.

// keyedBlock is one block of a group to merge, with its values of the moved key dimensions
// (in the order of keys_to_move's names).
type keyedBlock struct {
	key   []int32
	block *Block
}

// keysMove is the plan of a keys_to_* call: the new keys, and the old blocks each of them
// merges.
type keysMove struct {
	names  []string       // the moved dimensions, in the order of keys_to_move
	keys   *ArrayLabels   // the new keys, built like the old ones; this reference is ours
	groups [][]keyedBlock // for each new key, the old blocks it merges, in old key order

	// the groups and their members when they are few, so that the plan of a small map is
	// one allocation
	fewGroups  [2][]keyedBlock
	fewMembers [4]keyedBlock
}

// checkKeysToMove runs the checks every keys_to_* call starts with.
func (t *TensorMap) checkKeysToMove(keysToMove *ArrayLabels) error {
	if t == nil {
		return Errorf(InvalidParameterError, "got invalid NULL pointer for tensor")
	}
	if keysToMove == nil {
		return Errorf(InvalidParameterError, "got invalid NULL pointer for keys_to_move")
	}
	if t.keys.Count() == 0 {
		return Errorf(InvalidParameterError, "there are no keys to move in an empty TensorMap")
	}
	return nil
}

// placeholderKeyNames names the one key dimension left when every key dimension moves; the
// labels made with it only read it.
var placeholderKeyNames = []string{"_"}

// splitKeys removes the dimensions names from the keys. The remaining dimensions keep their
// order; their values are de-duplicated in first-appearance order, or become a single "_"
// dimension with the entry [0] when nothing remains. Each new key groups the old blocks with
// the same remaining values, in old key order (what selecting them would give).
func (t *TensorMap) splitKeys(names []string) (*keysMove, error) {
	keyNames := t.keys.Names()
	// The columns of the moved dimensions, then of the remaining ones: one allocation.
	columns := make([]int, len(names), len(names)+len(keyNames))
	moved := columns[:len(names):len(names)]
	for i, name := range names {
		moved[i] = slices.Index(keyNames, name)
		if moved[i] < 0 {
			return nil, Errorf(InvalidParameterError, "'%s' is not part of the keys for this tensor map", name)
		}
	}
	remaining := columns[len(names):]
	for i := range keyNames {
		if !slices.Contains(moved, i) {
			remaining = append(remaining, i)
		}
	}
	remainingNames := placeholderKeyNames
	if len(remaining) > 0 {
		remainingNames = make([]string, len(remaining))
		for i, c := range remaining {
			remainingNames[i] = keyNames[c]
		}
	}

	cpu, err := t.keys.CPU()
	if err != nil {
		return nil, err
	}
	count := cpu.Count()
	// The remaining values of every key, the moved ones, then the placeholder key's value
	// (0) when nothing remains: one allocation.
	values := make([]int32, count*(len(remaining)+len(moved))+1)
	rows, movedValues := values[:0:count*len(remaining)], values[count*len(remaining) : len(values)-1][:0]
	for i := range count {
		row := cpu.row(i)
		for _, c := range remaining {
			rows = append(rows, row[c])
		}
		for _, c := range moved {
			movedValues = append(movedValues, row[c])
		}
	}

	var newValues []int32
	var groupOf []int // nil when every block goes to the single new key
	if len(remaining) == 0 {
		newValues = values[len(values)-1:]
	} else {
		newValues, groupOf = uniqueRows(rows, len(remaining))
	}

	// The groups share one slice of members, each group's in old key order.
	move := &keysMove{names: names}
	groups := InRoom(move.fewGroups[:], len(newValues)/len(remainingNames))
	members := InRoom(move.fewMembers[:], count)
	if groupOf == nil {
		groups[0] = members[:0]
	} else {
		sizes := make([]int, len(groups))
		for _, g := range groupOf {
			sizes[g]++
		}
		start := 0
		for g, size := range sizes {
			groups[g] = members[start : start : start+size]
			start += size
		}
	}
	width := len(moved)
	for i := range count {
		g := 0
		if groupOf != nil {
			g = groupOf[i]
		}
		key := movedValues[i*width : i*width+width : i*width+width]
		groups[g] = append(groups[g], keyedBlock{key: key, block: t.blocks[i]})
	}

	keys, err := t.keys.likeRows(remainingNames, newValues, false)
	if err != nil {
		return nil, err
	}
	// names are those of the caller's keys_to_move, which outlive the call: not copied.
	move.keys, move.groups = keys, groups
	return move, nil
}

// mergeGroups merges every group into one block and builds the result from the new keys and
// these blocks, with the info in alphabetical key order. On error, everything made so far is
// released.
func (t *TensorMap) mergeGroups(move *keysMove, merge func(group []keyedBlock) (*Block, error)) (*TensorMap, error) {
	blocks, err := makeBlocks(len(move.groups), func(i int) (*Block, error) { return merge(move.groups[i]) })
	if err != nil {
		move.keys.Release()
		return nil, err
	}
	return newTensorMapFrom(move.keys, blocks, t.info.Sorted())
}

// checkGroup requires what merging a group needs: no gradients of gradients in the first
// block, and the same components (by value) in every block. With sameProperties, every block
// must also have the first block's properties. target is "properties" or "samples".
func checkGroup(group []keyedBlock, target string, sameProperties bool) error {
	first := group[0].block
	for _, g := range first.gradients {
		if len(g.Block.gradients) != 0 {
			return Errorf(InvalidParameterError,
				"gradient of gradients are not supported yet in keys_to_%s", target)
		}
	}
	for _, member := range group {
		same, err := sameComponents(member.block, first)
		if err != nil {
			return err
		}
		if !same {
			return Errorf(InvalidParameterError,
				"can not move keys to %s if the blocks have different components labels, "+
					"call components_to_properties first", target)
		}
		if sameProperties {
			equal, err := LabelsEqual(member.block.properties, first.properties)
			if err != nil {
				return err
			}
			if !equal {
				return Errorf(InvalidParameterError,
					"can not provide values for the keys to move to properties if the blocks have "+
						"different property labels")
			}
		}
	}
	return nil
}

// sameComponents compares the components of two blocks by value.
func sameComponents(a, b *Block) (bool, error) {
	if len(a.components) != len(b.components) {
		return false, nil
	}
	for i, component := range a.components {
		equal, err := LabelsEqual(component, b.components[i])
		if err != nil || !equal {
			return false, err
		}
	}
	return true, nil
}

// mergeSamples gathers the samples of a group, block after block, each followed by the
// block's moved key values when appendKeys is set. Repeated entries are kept once, in
// first-seen order or sorted. The labels (one reference for the caller) are built like the
// first block's samples; mappings[b][i] is the new position of sample i of block b. apart
// tells that no two samples of the group, in one block or in two, went to the same position.
func mergeSamples(group []keyedBlock, names []string, appendKeys, sortSamples bool) (labels *ArrayLabels, mappings [][]int, apart bool, err error) {
	width := len(names)
	// repeat: block b has the very rows of block b-1 (the blocks of a group often share their
	// samples). Its rows then bring nothing new and land where block b-1's did, so they are
	// left out of the de-duplication, which shrinks from every block's rows to the distinct
	// ones. With appendKeys the rows carry the keys, which differ between blocks.
	type blockSamples struct {
		cpu    *Labels
		repeat bool
	}
	samples := make([]blockSamples, len(group))
	total, sources := 0, 0 // rows and blocks bringing them
	var source *Labels     // the samples of the last of them
	everyDistinct := true  // every block's samples known to be all different
	for b, member := range group {
		cpu, err := member.block.samples.CPU()
		if err != nil {
			return nil, nil, false, err
		}
		samples[b].cpu = cpu
		everyDistinct = everyDistinct && cpu.knownDistinct()
		if !appendKeys && b > 0 && sameRows(cpu, samples[b-1].cpu) {
			samples[b].repeat = true
			continue
		}
		total += cpu.count
		sources, source = sources+1, cpu
	}
	rows := make([]int32, 0, total*width)
	for b, member := range group {
		cpu := samples[b].cpu
		if samples[b].repeat {
			continue
		}
		if !appendKeys {
			rows = append(rows, cpu.values...)
			continue
		}
		for i := range cpu.count {
			rows = append(rows, cpu.row(i)...)
			rows = append(rows, member.key...)
		}
	}

	if err := validateLabelNames(names); err != nil {
		return nil, nil, false, invalidLabelsError("invalid labels in merge_samples", err)
	}
	// The rows of one labels are all different, each with the same key or none; with the keys
	// appended, rows of different blocks differ in their key when no two blocks share one.
	distinct := (sources == 1 && source.knownDistinct()) || (appendKeys && everyDistinct && keysDistinct(group))
	unique, inverse := gatheredRows(rows, width, sortSamples, distinct)
	labels, err = group[0].block.samples.likeRows(names, unique, sortSamples)
	if err != nil {
		return nil, nil, false, err
	}
	mappings = make([][]int, len(group))
	offset := 0
	for b := range group {
		if samples[b].repeat {
			mappings[b] = mappings[b-1] // read only from here on, so sharing it is safe
			continue
		}
		n := samples[b].cpu.count
		mappings[b] = inverse[offset : offset+n : offset+n]
		offset += n
	}
	// (distinct rows of blocks that repeat their predecessor's share its positions)
	return labels, mappings, distinct && (appendKeys || len(group) == 1), nil
}

// fewKeys is the most blocks keysDistinct compares pairwise, without hashing their keys.
const fewKeys = 16

// keysDistinct tells whether the moved key values of a group's blocks are all different: they
// are, unless the tensor map's keys were assumed unique and repeat a row. A group of blocks
// with no key values at all has them all equal.
func keysDistinct(group []keyedBlock) bool {
	if len(group) <= 1 {
		return true
	}
	width := len(group[0].key)
	if width == 0 {
		return false
	}
	if len(group) <= fewKeys {
		for i := range group {
			for j := range i {
				if slices.Equal(group[i].key, group[j].key) {
					return false
				}
			}
		}
		return true
	}
	rows := make([]int32, 0, len(group)*width)
	for _, member := range group {
		rows = append(rows, member.key...)
	}
	unique, _ := uniqueRows(rows, width)
	return len(unique) == len(rows)
}

// sameRows tells whether two labels hold the same rows in the same order (their names do
// not matter). Blocks made from one labels object share their values: that case costs a
// pointer comparison.
func sameRows(a, b *Labels) bool {
	if a == b {
		return true
	}
	if a.count != b.count || a.size != b.size {
		return false
	}
	if len(a.values) > 0 && &a.values[0] == &b.values[0] {
		return true
	}
	return slices.Equal(a.values, b.values)
}

// mergeGradientSamples gathers the samples of the gradient with respect to parameter of every
// block of a group, with their first column ("sample") sent through the block's samples
// mapping. The result is an ordered set: sorted, and rows coming from several blocks kept
// once. The labels (one reference for the caller) are built like the first block's gradient
// samples; mappings[b][i] is the new position of gradient sample i of block b. samplesApart
// is mergeSamples' apart: the rows then differ between blocks in their first column, and
// within a block when its gradient samples are known to be all different, so that none is
// hashed.
func mergeGradientSamples(group []keyedBlock, parameter string, samplesMappings [][]int, samplesApart bool) (*ArrayLabels, [][]int, error) {
	gradients := make([]*Block, len(group))
	total := 0
	for b, member := range group {
		gradients[b] = member.block.gradient(parameter)
		if gradients[b] == nil {
			return nil, nil, Errorf(InternalError, "missing gradient with respect to '%s' in a block to merge", parameter)
		}
		total += gradients[b].samples.Count()
	}
	first := gradients[0].samples
	width := first.Size()
	if width == 0 {
		return nil, nil, Errorf(InternalError, "gradient samples without the 'sample' dimension")
	}

	rows := make([]int32, 0, total*width)
	limit := 0 // past the largest merged sample
	for b, gradient := range gradients {
		cpu, err := gradient.samples.CPU()
		if err != nil {
			return nil, nil, err
		}
		samplesApart = samplesApart && cpu.knownDistinct()
		mapping := samplesMappings[b]
		for i := range cpu.count {
			row := cpu.row(i)
			old := row[0]
			if old < 0 || int(old) >= len(mapping) {
				return nil, nil, Errorf(InternalError,
					"gradient sample %d refers to sample %d, but the block has %d samples", i, old, len(mapping))
			}
			sample := mapping[old]
			if sample > math.MaxInt32 {
				return nil, nil, Errorf(InternalError, "merged sample %d does not fit in a label value", sample)
			}
			rows = append(rows, int32(sample))
			rows = append(rows, row[1:]...)
			limit = max(limit, sample+1)
		}
	}

	var unique []int32
	var inverse []int
	if samplesApart {
		unique, inverse = sortedDistinctRows(rows, width, func(values []int32, size int) ([]int32, []int) {
			return sortDistinctRowsByFirst(values, size, limit)
		})
	} else {
		unique, inverse = sortedUniqueRows(rows, width)
	}
	labels, err := first.likeRows(first.Names(), unique, true)
	if err != nil {
		return nil, nil, err
	}
	mappings := make([][]int, len(gradients))
	offset := 0
	for b, gradient := range gradients {
		n := gradient.samples.Count()
		mappings[b] = inverse[offset : offset+n : offset+n]
		offset += n
	}
	return labels, mappings, nil
}

// uniqueRows keeps the first appearance of every row (of width size) of values, in order.
// inverse[i] is the position of row i among the unique rows. When no row repeats, unique is
// values itself.
func uniqueRows(values []int32, size int) (unique []int32, inverse []int) {
	if size == 0 {
		return []int32{}, []int{}
	}
	n := len(values) / size
	inverse = make([]int, n)
	if n == 0 {
		return []int32{}, inverse
	}
	ix := newLabelsIndex(n, size)
	duplicates := ix.insertAll(values, size, 0, n)
	if len(duplicates) == 0 {
		for i := range inverse {
			inverse[i] = i
		}
		return values, inverse
	}
	unique = make([]int32, 0, (n-len(duplicates))*size)
	next := 0
	for i := range n {
		row := values[i*size : i*size+size : i*size+size]
		if len(duplicates) > 0 && duplicates[0] == i {
			duplicates = duplicates[1:]
			// The index holds the first appearance of the row, already numbered.
			inverse[i] = inverse[ix.find(values, row)]
			continue
		}
		inverse[i] = next
		next++
		unique = append(unique, row...)
	}
	return unique, inverse
}

// sortedUniqueRows gives the distinct rows (of width size) of values in increasing
// lexicographic order; inverse[i] is the position of row i among them. values may be
// reordered (unique is then values itself).
func sortedUniqueRows(values []int32, size int) (unique []int32, inverse []int) {
	if unique, inverse, ok := runsOfSortedRows(values, size); ok {
		return unique, inverse
	}
	// De-duplicating first (by hash) leaves only the distinct rows to sort: merged samples
	// repeat a lot, as every block of a group tends to have the same ones.
	unique, inverse = uniqueRows(values, size)
	if size == 0 {
		return unique, inverse
	}
	sorted, rank := sortDistinctRows(unique, size)
	for j, first := range inverse {
		inverse[j] = rank[first]
	}
	return sorted, inverse
}

// fewRows is the most rows sortDistinctRows sorts by insertion (as slices.SortFunc does
// below 13).
const fewRows = 12

// sortDistinctRows sorts rows (of width size > 0) that are all different; rank[i] is the
// position of row i in sorted. sorted may be values itself, sorted in place.
func sortDistinctRows(values []int32, size int) (sorted []int32, rank []int) {
	n := len(values) / size
	if size <= 2 && n <= math.MaxUint32 {
		return sortDistinctNarrowRows(values, size, n)
	}
	if size == 3 && n <= math.MaxUint32 {
		return sortDistinctTripleRows(values, n)
	}
	positions := make([]int, 2*n) // the order, then the ranks: one allocation
	order, rank := positions[:n:n], positions[n:]
	for i := range order {
		order[i] = i
	}
	sortOrder(values, size, order)
	return gatherOrder(values, size, order, rank), rank
}

// sortOrder sorts order, indices of rows (of width size) of values, by their rows.
func sortOrder(values []int32, size int, order []int) {
	if len(order) <= fewRows {
		// An insertion sort calling compareRows directly: a sort through a comparison
		// function pays a call per comparison, most of the time for a few rows.
		for i := 1; i < len(order); i++ {
			for j := i; j > 0 && compareRows(rowAt(values, size, order[j]), rowAt(values, size, order[j-1])) < 0; j-- {
				order[j], order[j-1] = order[j-1], order[j]
			}
		}
		return
	}
	slices.SortFunc(order, func(a, b int) int { return compareRows(rowAt(values, size, a), rowAt(values, size, b)) })
}

// gatherOrder gives the rows of values in the order of order, and sets rank[i] to the position
// of row i there.
func gatherOrder(values []int32, size int, order, rank []int) []int32 {
	sorted := make([]int32, 0, len(values))
	for k, i := range order {
		rank[i] = k
		sorted = append(sorted, values[i*size:i*size+size]...)
	}
	return sorted
}

// sortDistinctRowsByFirst is sortDistinctRows for rows whose first value lies in [0, limit),
// as the merged gradient samples, whose first value is a merged sample: a counting sort by
// that value, then a sort of the few rows that share one (a gradient's rows for one sample),
// instead of comparing rows throughout. Rows of one value, or a limit far above the number of
// rows, take sortDistinctRows.
func sortDistinctRowsByFirst(values []int32, size, limit int) (sorted []int32, rank []int) {
	n := len(values) / size
	if size < 2 || limit > 4*n+64 {
		return sortDistinctRows(values, size)
	}
	positions := make([]int, 2*n+limit+1) // the order, the ranks, then where each value starts
	order, rank, starts := positions[:n:n], positions[n:2*n:2*n], positions[2*n:]
	for i := range n {
		starts[values[i*size]+1]++
	}
	for v := range limit {
		starts[v+1] += starts[v]
	}
	for i := range n {
		v := values[i*size]
		order[starts[v]] = i
		starts[v]++
	}
	// starts[v] is now where the rows of v end, and those of v+1 begin
	begin := 0
	for v := range limit {
		if starts[v]-begin > 1 {
			sortOrder(values, size, order[begin:starts[v]])
		}
		begin = starts[v]
	}
	return gatherOrder(values, size, order, rank), rank
}

// sortDistinctNarrowRows is sortDistinctRows for rows of one or two values (samples are often
// (system, atom) pairs), sorted as unsigned integers, without a comparison function: a row
// becomes its values with the sign bit flipped, which orders them as compareRows does. One
// value leaves room for the row's index beside it; for two, each row finds its rank in the
// sorted keys, all different, by a binary search. The rows are sorted in place.
func sortDistinctNarrowRows(values []int32, size, n int) (sorted []int32, rank []int) {
	const sign = 1 << 31
	var few [2 * fewRows]uint64    // the keys of few rows, without an allocation
	keys := InRoom(few[:], size*n) // the keys to sort, then for size 2 the same in row order
	sorting, original := keys[:n:n], keys[n:]
	for i := range n {
		if size == 1 {
			sorting[i] = uint64(uint32(values[i])^sign)<<32 | uint64(i)
		} else {
			sorting[i] = uint64(uint32(values[2*i])^sign)<<32 | uint64(uint32(values[2*i+1])^sign)
		}
	}
	copy(original, sorting)
	slices.Sort(sorting)
	rank = make([]int, n)
	sorted = values[:0] // the keys hold every value: the rows are written back in order
	for k, key := range sorting {
		if size == 1 {
			rank[uint32(key)] = k
			sorted = append(sorted, int32(uint32(key>>32)^sign))
		} else {
			sorted = append(sorted, int32(uint32(key>>32)^sign), int32(uint32(key)^sign))
		}
	}
	if size == 2 {
		for i, key := range original {
			rank[i], _ = slices.BinarySearch(sorting, key)
		}
	}
	return sorted, rank
}

// tripleRow is a row of three values as two words that order as compareRows orders the rows
// (sortDistinctTripleRows), with the row's index in the low half of the second.
type tripleRow struct{ high, low uint64 }

func (a tripleRow) less(b tripleRow) bool {
	return a.high < b.high || (a.high == b.high && a.low < b.low)
}

func compareTripleRows(a, b tripleRow) int {
	switch {
	case a.less(b):
		return -1
	case b.less(a):
		return 1
	}
	return 0
}

// sortDistinctTripleRows is sortDistinctRows for rows of three values (merged samples such as
// (system, atom, key)): each row becomes two words of its values with the sign bit flipped and
// its index, compared without going through slices; the index gives the row's rank at once.
// Few rows are sorted by insertion. The rows are sorted in place. (Four values leave no room
// for the index, and a search for the ranks cost more than it saved: wider rows take the
// general sort.)
func sortDistinctTripleRows(values []int32, n int) (sorted []int32, rank []int) {
	const sign = 1 << 31
	word := func(v int32) uint64 { return uint64(uint32(v) ^ sign) }
	var few [fewRows]tripleRow // the keys of few rows, without an allocation
	keys := InRoom(few[:], n)
	for i := range keys {
		row := values[3*i : 3*i+3 : 3*i+3]
		keys[i] = tripleRow{high: word(row[0])<<32 | word(row[1]), low: word(row[2])<<32 | uint64(i)}
	}
	if n <= fewRows {
		for i := 1; i < n; i++ {
			for j := i; j > 0 && keys[j].less(keys[j-1]); j-- {
				keys[j], keys[j-1] = keys[j-1], keys[j]
			}
		}
	} else {
		slices.SortFunc(keys, compareTripleRows)
	}
	rank = make([]int, n)
	sorted = values[:0] // the words hold every value: the rows are written back in order
	for k, key := range keys {
		sorted = append(sorted, int32(uint32(key.high>>32)^sign), int32(uint32(key.high)^sign), int32(uint32(key.low>>32)^sign))
		rank[uint32(key.low)] = k
	}
	return sorted, rank
}

// gatheredRows is sortedUniqueRows (sorted) or uniqueRows for rows gathered from labels; when
// they are known to be all different (see Labels.knownDistinct) no row is hashed.
func gatheredRows(values []int32, size int, sorted, distinct bool) (unique []int32, inverse []int) {
	switch {
	case distinct:
		return distinctRows(values, size, sorted)
	case sorted:
		return sortedUniqueRows(values, size)
	}
	return uniqueRows(values, size)
}

// distinctRows is gatheredRows for rows known to be all different.
func distinctRows(values []int32, size int, sorted bool) (unique []int32, inverse []int) {
	if sorted && size > 0 {
		return sortedDistinctRows(values, size, sortDistinctRows)
	}
	if size == 0 || len(values) == 0 {
		return []int32{}, []int{}
	}
	inverse = make([]int, len(values)/size)
	for i := range inverse {
		inverse[i] = i
	}
	return values, inverse
}

// sortedDistinctRows sorts rows (of width size > 0) known to be all different: in one pass
// when they are in order already, else with sortRows (sortDistinctRows or a variant).
func sortedDistinctRows(values []int32, size int, sortRows func(values []int32, size int) ([]int32, []int)) (sorted []int32, rank []int) {
	if sorted, rank, ok := runsOfSortedRows(values, size); ok {
		return sorted, rank
	}
	return sortRows(values, size)
}

// runsOfSortedRows is sortedUniqueRows for rows already in non-decreasing order, where equal
// rows are neighbours: one pass, no hashing nor sorting. ok is false, and nothing computed,
// when a row is smaller than the one before it.
func runsOfSortedRows(values []int32, size int) (unique []int32, inverse []int, ok bool) {
	if size == 0 {
		return nil, nil, false
	}
	n := len(values) / size
	distinct := min(n, 1)
	for i := 1; i < n; i++ {
		switch compareRows(rowAt(values, size, i-1), rowAt(values, size, i)) {
		case 1:
			return nil, nil, false
		case -1:
			distinct++
		}
	}
	unique = make([]int32, 0, distinct*size)
	inverse = make([]int, n)
	for i := range n {
		if i == 0 || compareRows(rowAt(values, size, i-1), rowAt(values, size, i)) != 0 {
			unique = append(unique, rowAt(values, size, i)...)
		}
		inverse[i] = len(unique)/size - 1
	}
	return unique, inverse, true
}

// mergedShape gives the shape of a merged array: that of array, with samples entries along
// the first axis and properties along the last.
func mergedShape(array Array, samples, properties int) ([]uintptr, error) {
	var small SmallShape
	shape, err := shapeInto(array, &small)
	if err != nil {
		return nil, err
	}
	if len(shape) < 2 {
		return nil, Errorf(InternalError, "a block array has shape %s, with less than 2 axes", formatShape(shape))
	}
	merged := slices.Clone(shape)
	merged[0] = uintptr(samples)
	merged[len(merged)-1] = uintptr(properties)
	return merged, nil
}

// createFilled asks like for a new array of the given shape filled with fill, after the
// checks the reference makes on every such call: fill must have like's dtype, no axes, and
// live on the CPU. fill is lent to the callback, which must not destroy it.
func createFilled(like Array, shape []uintptr, fill Array) (Array, error) {
	if fill == nil {
		return nil, Errorf(InvalidParameterError, "got invalid NULL pointer for fill_value")
	}
	if creator, ok := like.(FilledCreator); ok {
		if asked, ok := creator.CreateFilled(shape, fill); ok {
			return asked.check()
		}
	}
	dtype, err := like.DType()
	if err != nil {
		return nil, err
	}
	if err := checkFillValue(fill, dtype); err != nil {
		return nil, err
	}
	device, err := fill.Device()
	if err != nil {
		return nil, err
	}
	if err := fillDeviceError(device); err != nil {
		return nil, err
	}
	created, err := like.Create(shape, fill)
	if err != nil {
		return nil, err
	}
	return created, createdError(created)
}

// createdError is the error of a create call that succeeded without giving an array.
func createdError(created Array) error {
	if created == nil {
		return Errorf(InternalError, "mts_array_t.create succeeded without giving an array")
	}
	return nil
}

// FilledCreator is an Array that makes createFilled's five calls itself, in one step: its
// dtype, then the fill's dtype, shape and device, then its create; it stops after the first
// call that fails or whose answer createFilled rejects. This is for arrays whose every call
// crosses into another language, where the crossing costs more than the answer. It gives back
// what it asked, which createFilled checks as it checks its own calls, so that the errors read
// the same; false when it can not ask this fill (createFilled then calls member by member).
type FilledCreator interface {
	Array
	CreateFilled(shape []uintptr, fill Array) (FilledAsked, bool)
}

// FilledAsked is what a FilledCreator asked, in createFilled's order: Calls is how many of the
// five calls it made, Err the error of the last one when that one failed. FillShape matters
// only when it has axes (an error names it).
type FilledAsked struct {
	DType, FillDType DType
	FillShape        []uintptr
	FillDevice       Device
	Created          Array
	Calls            int
	Err              error
}

// check makes createFilled's checks on what was asked, stopping where the calls stopped.
func (a FilledAsked) check() (Array, error) {
	checks := [...]func() error{
		func() error { return nil },
		func() error { return fillDTypeError(a.FillDType, a.DType) },
		func() error { return fillShapeError(a.FillShape) },
		func() error { return fillDeviceError(a.FillDevice) },
		func() error { return createdError(a.Created) },
	}
	for call, check := range checks {
		if call >= a.Calls {
			return nil, Errorf(InternalError, "the calls of a filled array's creation stopped after %d of 5 without a reason", a.Calls)
		}
		if call == a.Calls-1 && a.Err != nil {
			return nil, a.Err
		}
		if err := check(); err != nil {
			return nil, err
		}
	}
	return a.Created, nil
}

// invalidLabelsError is the error of labels the operation built with invalid names (a panic,
// status 255, in the reference).
func invalidLabelsError(context string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return Errorf(InternalError, "%s: InvalidParameter(%q)", context, e.Message)
	}
	return Errorf(InternalError, "%s: %v", context, err)
}

// newMergedBlock builds a merged block from its values (consumed), its new samples and
// properties and the components of the group's first block, then adds each gradient of the
// first block through mergeGradient.
func newMergedBlock(values Array, samples *ArrayLabels, first *Block, properties *ArrayLabels, context string,
	mergeGradient func(block *Block, g Gradient) error) (*Block, error) {
	block, err := NewBlock(values, samples, first.components, properties)
	if err != nil {
		return nil, invalidResultError(context, err)
	}
	for _, g := range first.gradients {
		if err := mergeGradient(block, g); err != nil {
			block.Free()
			return nil, err
		}
	}
	return block, nil
}

// addMergedGradient gives a merged block the gradient with respect to g.Parameter made of
// values (consumed), the merged gradient samples, the components of the first block's
// gradient g and the block's properties.
func addMergedGradient(block *Block, g Gradient, values Array, samples *ArrayLabels) error {
	gradient, err := NewBlock(values, samples, g.Block.components, block.properties)
	if err != nil {
		return invalidResultError("created invalid gradient", err)
	}
	if err := block.AddGradient(g.Parameter, gradient); err != nil {
		return invalidResultError("could not add gradient", err)
	}
	return nil
}

// invalidResultError is the error of a merged block or gradient that fails its own checks:
// the reference panics there (status 255). Failed callbacks, and internal errors, pass through
// unchanged.
func invalidResultError(context string, err error) error {
	var e *Error
	if errors.As(err, &e) && (e.Status == CallbackError || e.Status == InternalError) {
		return err
	}
	if e != nil {
		return Errorf(InternalError, "%s: %s", context, e.Message)
	}
	return err
}
