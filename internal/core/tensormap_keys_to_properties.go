package core

// KeysToProperties moves the key dimensions named by keysToMove to the properties, merging
// the blocks that end up with the same remaining key (docs/reference-behaviour.md#keys-to).
//
// Without entries in keysToMove, the new properties are each block's moved key values
// followed by its properties, in block order. With entries, every block of a group must have
// the same properties, the new properties are each entry followed by each property, and
// blocks whose key is not among the entries are dropped. Merged samples are in first-seen
// order, or sorted with sortSamples. Entries no block fills hold fill.
//
// fill belongs to this function, which destroys it whatever happens. The tensor map is not
// modified.
func (t *TensorMap) KeysToProperties(keysToMove *ArrayLabels, fill Array, sortSamples bool) (*TensorMap, error) {
	if fill != nil {
		defer fill.Destroy()
	}
	if err := t.checkKeysToMove(keysToMove); err != nil {
		return nil, err
	}
	move, err := t.splitKeys(keysToMove.Names())
	if err != nil {
		return nil, err
	}
	var entries *ArrayLabels // the user's values for the moved dimensions, if any
	if keysToMove.Count() > 0 {
		entries = keysToMove
	}
	return t.mergeGroups(move, func(group []keyedBlock) (*Block, error) {
		return mergeAlongProperties(group, entries, move.names, sortSamples, fill)
	})
}

// propertyRange is where the properties of one block land among the merged properties.
type propertyRange struct {
	start, length uintptr
	ok            bool // false for a block whose data is not kept
}

// mergeAlongProperties merges a group of blocks into one, along the properties.
func mergeAlongProperties(group []keyedBlock, entries *ArrayLabels, movedNames []string, sortSamples bool, fill Array) (*Block, error) {
	first := group[0].block
	if err := checkGroup(group, "properties", entries != nil); err != nil {
		return nil, err
	}

	samples, samplesMappings, apart, err := mergeSamples(group, first.samples.Names(), false, sortSamples)
	if err != nil {
		return nil, err
	}
	defer samples.Release()

	properties, ranges, err := mergeProperties(group, entries, movedNames)
	if err != nil {
		return nil, err
	}
	defer properties.Release()

	shape, err := mergedShape(first.values, samples.Count(), properties.Count())
	if err != nil {
		return nil, err
	}
	values, err := createFilled(first.values, shape, fill)
	if err != nil {
		return nil, err
	}
	for b, member := range group {
		if err := moveProperties(values, member.block.values, samplesMappings[b], ranges[b]); err != nil {
			values.Destroy()
			return nil, err
		}
	}

	return newMergedBlock(values, samples, first, properties, "constructed an invalid block", func(block *Block, g Gradient) error {
		return mergeGradientAlongProperties(block, group, g, samplesMappings, apart, ranges, fill)
	})
}

// mergeProperties builds the merged properties (one reference for the caller, built like the
// first block's properties) and the range of each block in them.
func mergeProperties(group []keyedBlock, entries *ArrayLabels, movedNames []string) (*ArrayLabels, []propertyRange, error) {
	first := group[0].block.properties
	var few [4]string // likeRows copies the names
	names := append(append(few[:0], movedNames...), first.Names()...)
	width := len(names)
	ranges := make([]propertyRange, len(group))

	var values []int32
	if entries == nil {
		// Each block's moved key followed by each of its properties, in block order: all
		// different when every block's properties are known to be and the group's keys differ.
		// Keys assumed unique may repeat: equal rows then merge, as they would in a set.
		total, distinct := 0, true
		for _, member := range group {
			total += member.block.properties.Count()
		}
		rows := make([]int32, 0, total*width)
		for _, member := range group {
			cpu, err := member.block.properties.CPU()
			if err != nil {
				return nil, nil, err
			}
			distinct = distinct && cpu.knownDistinct()
			for i := range cpu.count {
				rows = append(rows, member.key...)
				rows = append(rows, cpu.row(i)...)
			}
		}
		if err := validateLabelNames(names); err != nil {
			return nil, nil, invalidLabelsError("invalid labels", err)
		}
		distinct = distinct && keysDistinct(group)
		var inverse []int
		values, inverse = gatheredRows(rows, width, false, distinct)
		offset := 0
		for b, member := range group {
			n := member.block.properties.Count()
			if n > 0 {
				if !distinct && !followEachOther(inverse[offset:offset+n]) {
					return nil, nil, Errorf(InvalidParameterError, "can not move keys to properties: the "+
						"properties of block %d do not form one range of the merged properties, the keys or "+
						"the properties repeat an entry (were they assumed unique?)", b)
				}
				ranges[b] = propertyRange{start: uintptr(inverse[offset]), length: uintptr(n), ok: true}
			}
			offset += n
		}
	} else {
		// Each entry followed by each property, the same in every block (checked before).
		chosen, old, err := both(entries, first, (*ArrayLabels).CPU)
		if err != nil {
			return nil, nil, err
		}
		if err := validateLabelNames(names); err != nil {
			return nil, nil, invalidLabelsError("invalid labels", err)
		}
		values = make([]int32, 0, chosen.count*old.count*width)
		for e := range chosen.count {
			for p := range old.count {
				values = append(values, chosen.row(e)...)
				values = append(values, old.row(p)...)
			}
		}
		// Entry and property pairs repeat exactly when the entries or the properties do.
		if (old.count > 0 && repeatsRow(chosen)) || (chosen.count > 0 && repeatsRow(old)) {
			return nil, nil, Errorf(InvalidParameterError, "can not move keys to properties: the new "+
				"properties repeat an entry, the entries of keys_to_move or the blocks' properties do "+
				"(were they assumed unique?)")
		}
		for b, member := range group {
			n := member.block.properties.Count()
			if n == 0 {
				continue
			}
			// A block whose key is not among the entries has nowhere to go: its data is
			// dropped.
			if e := chosen.find(member.key); e >= 0 {
				ranges[b] = propertyRange{start: uintptr(e * old.count), length: uintptr(n), ok: true}
			}
		}
	}

	properties, err := first.likeRows(names, values, false)
	if err != nil {
		return nil, nil, err
	}
	return properties, ranges, nil
}

// repeatsRow tells whether labels that were not checked unique hold a row twice.
func repeatsRow(l *Labels) bool {
	if l.knownDistinct() {
		return false
	}
	if l.size == 0 {
		return true // count > 1 empty rows
	}
	unique, _ := uniqueRows(l.values, l.size)
	return len(unique) != len(l.values)
}

// followEachOther tells whether positions count up by one from the first: the merged
// properties a block's properties went to form one range.
func followEachOther(positions []int) bool {
	for i, position := range positions {
		if position != positions[0]+i {
			return false
		}
	}
	return true
}

// moveProperties copies every row of input (sample i going to mapping[i]) into the range of
// properties of output, with a single MoveData call; blocks without a range are skipped.
func moveProperties(output, input Array, mapping []int, r propertyRange) error {
	if !r.ok {
		return nil
	}
	movements := borrowMovements(len(mapping))
	defer returnMovements(movements)
	// Filling a local slice by index keeps the loop free of appends through the pointer.
	list := (*movements)[:len(mapping)]
	for i, out := range mapping {
		list[i] = DataMovement{
			SampleIn:           uintptr(i),
			SampleOut:          uintptr(out),
			PropertiesStartIn:  0,
			PropertiesStartOut: r.start,
			PropertiesLength:   r.length,
		}
	}
	return output.MoveData(input, list)
}

// mergeGradientAlongProperties merges the gradients with respect to g.Parameter of a group
// and adds the result to block. As in the reference, the merged gradient array is created by
// the first block's values array.
func mergeGradientAlongProperties(block *Block, group []keyedBlock, g Gradient, samplesMappings [][]int, samplesApart bool, ranges []propertyRange, fill Array) error {
	samples, mappings, err := mergeGradientSamples(group, g.Parameter, samplesMappings, samplesApart)
	if err != nil {
		return err
	}
	defer samples.Release()

	shape, err := mergedShape(g.Block.values, samples.Count(), block.properties.Count())
	if err != nil {
		return err
	}
	values, err := createFilled(group[0].block.values, shape, fill)
	if err != nil {
		return err
	}
	for b, member := range group {
		if !ranges[b].ok {
			continue
		}
		gradient := member.block.gradient(g.Parameter)
		if err := moveProperties(values, gradient.values, mappings[b], ranges[b]); err != nil {
			values.Destroy()
			return err
		}
	}

	return addMergedGradient(block, g, values, samples)
}
