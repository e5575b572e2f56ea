package core

import "slices"

// KeysToSamples moves the key dimensions named by keysToMove (which must have no entries) to the
// samples, merging the blocks that end up with the same remaining key
// (docs/reference-behaviour.md#keys-to).
//
// Each block's samples are followed by its moved key values; merged samples are in first-seen
// order, or sorted with sortSamples. The merged properties are the union of the blocks'
// properties, in block order. Entries no block fills hold fill.
//
// fill belongs to this function, which destroys it whatever happens. The tensor map is not
// modified.
func (t *TensorMap) KeysToSamples(keysToMove *ArrayLabels, fill Array, sortSamples bool) (*TensorMap, error) {
	if fill != nil {
		defer fill.Destroy()
	}
	if err := t.checkKeysToMove(keysToMove); err != nil {
		return nil, err
	}
	if keysToMove.Count() > 0 {
		return nil, Errorf(InvalidParameterError,
			"user provided values for the keys to move is not yet implemented, "+
				"`keys_to_move` should not contain any entry when calling keys_to_samples")
	}
	move, err := t.splitKeys(keysToMove.Names())
	if err != nil {
		return nil, err
	}
	return t.mergeGroups(move, func(group []keyedBlock) (*Block, error) {
		return mergeAlongSamples(group, move.names, sortSamples, fill)
	})
}

// propertyRun is a run of consecutive properties of a block that stay consecutive among the
// merged properties: one data movement per sample.
type propertyRun struct {
	in, out, length uintptr
}

// mergeAlongSamples merges a group of blocks into one, along the samples.
func mergeAlongSamples(group []keyedBlock, movedNames []string, sortSamples bool, fill Array) (*Block, error) {
	first := group[0].block
	if err := checkGroup(group, "samples", false); err != nil {
		return nil, err
	}

	var few [4]string // likeRows copies the names
	names := append(append(few[:0], first.samples.Names()...), movedNames...)
	samples, samplesMappings, apart, err := mergeSamples(group, names, true, sortSamples)
	if err != nil {
		return nil, err
	}
	defer samples.Release()

	properties, runs, err := unionProperties(group)
	if err != nil {
		return nil, err
	}
	defer properties.Release()

	inputs := make([]Array, len(group))
	for b, member := range group {
		inputs[b] = member.block.values
	}
	values, err := mergeRows(first.values, samples.Count(), properties.Count(), inputs, samplesMappings, runs, fill)
	if err != nil {
		return nil, err
	}

	return newMergedBlock(values, samples, first, properties, "invalid block", func(block *Block, g Gradient) error {
		return mergeGradientAlongSamples(block, group, g, samplesMappings, apart, runs, fill)
	})
}

// unionProperties folds the union (docs/reference-behaviour.md#union-folding) over the properties
// of a group, in block order. It gives the merged properties (one reference for the caller) and,
// for each block, the runs its properties form among them.
func unionProperties(group []keyedBlock) (*ArrayLabels, [][]propertyRun, error) {
	properties := group[0].block.properties
	properties.Retain()
	var runs [][]propertyRun
	var first []propertyRun
	if len(group) == 1 {
		// a group of one block is common when few keys move: one allocation for both
		one := new(runsOfOne)
		runs, first = one.runs[:], one.run[:]
	} else {
		runs, first = make([][]propertyRun, len(group)), make([]propertyRun, 1)
	}
	if n := properties.Count(); n > 0 {
		first[0] = propertyRun{in: 0, out: 0, length: uintptr(n)}
		runs[0] = first
	}
	for b, member := range group[1:] {
		// A union keeps the entries of its first input where they are, so the runs found
		// for earlier blocks stay valid.
		next, _, mapping, err := properties.Union(member.block.properties)
		properties.Release()
		if err != nil {
			return nil, nil, err
		}
		properties = next
		runs[b+1] = consecutiveRuns(mapping)
	}
	return properties, runs, nil
}

// runsOfOne holds the runs of unionProperties for a group of one block.
type runsOfOne struct {
	runs [1][]propertyRun
	run  [1]propertyRun
}

// consecutiveRuns cuts a mapping of positions into maximal runs that are consecutive in the
// output.
func consecutiveRuns(mapping []int64) []propertyRun {
	var runs []propertyRun
	for i := 0; i < len(mapping); {
		length := 1
		for i+length < len(mapping) && mapping[i+length] == mapping[i]+int64(length) {
			length++
		}
		runs = append(runs, propertyRun{in: uintptr(i), out: uintptr(mapping[i]), length: uintptr(length)})
		i += length
	}
	return runs
}

// mergeRows creates the merged array with like (rows along the first axis, properties along
// the last), then moves every input into it with a single MoveData call per input, even one
// without movements: for each of its rows, one movement per run of its properties.
func mergeRows(like Array, rows, properties int, inputs []Array, mappings [][]int, runs [][]propertyRun, fill Array) (Array, error) {
	shape, err := mergedShape(like, rows, properties)
	if err != nil {
		return nil, err
	}
	output, err := createFilled(like, shape, fill)
	if err != nil {
		return nil, err
	}
	movements := borrowMovements(0)
	defer returnMovements(movements)
	for b, input := range inputs {
		list := slices.Grow((*movements)[:0], len(mappings[b])*len(runs[b]))
		for i, out := range mappings[b] {
			for _, run := range runs[b] {
				list = append(list, DataMovement{
					SampleIn:           uintptr(i),
					SampleOut:          uintptr(out),
					PropertiesStartIn:  run.in,
					PropertiesStartOut: run.out,
					PropertiesLength:   run.length,
				})
			}
		}
		*movements = list
		if err := output.MoveData(input, list); err != nil {
			output.Destroy()
			return nil, err
		}
	}
	return output, nil
}

// mergeGradientAlongSamples merges the gradients with respect to g.Parameter of a group and
// adds the result to block. The merged array is created by the first block's gradient array.
func mergeGradientAlongSamples(block *Block, group []keyedBlock, g Gradient, samplesMappings [][]int, samplesApart bool, runs [][]propertyRun, fill Array) error {
	samples, mappings, err := mergeGradientSamples(group, g.Parameter, samplesMappings, samplesApart)
	if err != nil {
		return err
	}
	defer samples.Release()

	inputs := make([]Array, len(group))
	for b, member := range group {
		inputs[b] = member.block.gradient(g.Parameter).values
	}
	values, err := mergeRows(g.Block.values, samples.Count(), block.properties.Count(), inputs, mappings, runs, fill)
	if err != nil {
		return err
	}

	return addMergedGradient(block, g, values, samples)
}
