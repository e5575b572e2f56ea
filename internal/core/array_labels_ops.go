package core

import "slices"

// Operations on ArrayLabels: the device rules of the C API around the CPU operations of Labels.
// Results are placed like their first input (see docs/reference-behaviour.md#labels-built-like).

// Position gives the index of the entry equal to row, or -1 when there is none.
// It is a hot path: the lookup in values already read is all it does in line.
func (l *ArrayLabels) Position(row []int32) (int, error) {
	if cpu := l.cpu.Load(); cpu != nil && len(row) == l.size && l.size != 0 {
		return cpu.find(row), nil
	}
	return l.positionSlow(row)
}

// positionSlow is Position reading the values first, or failing.
func (l *ArrayLabels) positionSlow(row []int32) (int, error) {
	// A row of the wrong width fails before the values are read.
	if len(row) != l.size {
		return -1, errPositionWidth(l.size, len(row))
	}
	cpu, err := l.CPU()
	if err != nil {
		return -1, err
	}
	return cpu.Position(row)
}

// Union gives first ∪ second (see Union on Labels) and both mappings.
func (first *ArrayLabels) Union(second *ArrayLabels) (*ArrayLabels, []int64, []int64, error) {
	return first.setOperation("union", second, Union)
}

// Intersection gives first ∩ second (see Intersection on Labels) and both mappings. With an
// empty input, no values are read.
func (first *ArrayLabels) Intersection(second *ArrayLabels) (*ArrayLabels, []int64, []int64, error) {
	if first.count == 0 || second.count == 0 {
		if err := checkSameNames("intersection", first.names, second.names); err != nil {
			return nil, nil, nil, err
		}
		result, err := first.likeRows(first.names, nil, false)
		return result, filledMapping(first.count), filledMapping(second.count), err
	}
	return first.setOperation("intersection", second, Intersection)
}

// Difference gives first − second (see Difference on Labels) and the mapping of first. When
// first is empty, no values are read.
func (first *ArrayLabels) Difference(second *ArrayLabels) (*ArrayLabels, []int64, error) {
	if first.count == 0 {
		if err := checkSameNames("difference", first.names, second.names); err != nil {
			return nil, nil, err
		}
		result, err := first.likeRows(first.names, nil, false)
		return result, []int64{}, err
	}
	result, firstMap, _, err := first.setOperation("difference", second,
		func(a, b *Labels) (*Labels, []int64, []int64, error) {
			cpu, firstMap, err := Difference(a, b)
			return cpu, firstMap, nil, err
		})
	return result, firstMap, err
}

// Select gives the positions of the entries matching selection (see Select on Labels). Values
// are only read when the answer depends on them.
func (l *ArrayLabels) Select(selection *ArrayLabels) ([]uint64, error) {
	if l.count != 0 && selection.count != 0 {
		mine, theirs, err := both(l, selection, (*ArrayLabels).Device)
		if err != nil {
			return nil, err
		}
		if mine != theirs {
			return nil, Errorf(InvalidParameterError,
				"can not select from Labels, the selection is on a different device (%s) than the labels being selected (%s)",
				theirs, mine)
		}
	}
	if slices.Equal(l.names, selection.names) {
		if selection.count == 0 {
			return []uint64{}, nil
		}
	} else {
		for _, name := range selection.names {
			if !slices.Contains(l.names, name) {
				return nil, errNotInSelection(name)
			}
		}
		if len(selection.names) == 0 || l.count == 0 {
			return allEntries(l.count), nil
		}
	}
	cpu, selected, err := both(l, selection, (*ArrayLabels).CPU)
	if err != nil {
		return nil, err
	}
	return Select(cpu, selected)
}

// setOperation runs operation on the CPU values of first and second (see setOperands) and
// places its result like first.
func (first *ArrayLabels) setOperation(name string, second *ArrayLabels,
	operation func(a, b *Labels) (*Labels, []int64, []int64, error)) (*ArrayLabels, []int64, []int64, error) {
	a, b, err := setOperands(name, first, second)
	if err != nil {
		return nil, nil, nil, err
	}
	cpu, firstMap, secondMap, err := operation(a, b)
	if err != nil {
		return nil, nil, nil, err
	}
	result, err := first.like(cpu)
	return result, firstMap, secondMap, err
}

// setOperands checks names, then devices (only when both inputs have entries), and gives the
// CPU values of both inputs.
func setOperands(operation string, first, second *ArrayLabels) (*Labels, *Labels, error) {
	if err := checkSameNames(operation, first.names, second.names); err != nil {
		return nil, nil, err
	}
	if first.count != 0 && second.count != 0 {
		a, b, err := both(first, second, (*ArrayLabels).Device)
		if err != nil {
			return nil, nil, err
		}
		if a != b {
			return nil, nil, Errorf(InvalidParameterError,
				"can not take the %s of these Labels, they are on different devices: '%s', and '%s'",
				operation, a, b)
		}
	}
	return both(first, second, (*ArrayLabels).CPU)
}

// labelsValuesMaker is an array that does MakeLabelsValuesInSteps itself, in one step (a
// binding crossing into the caller's language once instead of twice), with the same calls in
// the same order and the same errors.
type labelsValuesMaker interface {
	MakeLabelsValues(values []int32, count, size int) (created Array, device Device, err error)
}

// MakeLabelsValuesInSteps makes new labels values (count x size) in an array of array's kind,
// through its from_dlpack, then asks array's device: what like needs to put them where
// array's are. On error nothing is left.
func MakeLabelsValuesInSteps(array Array, values []int32, count, size int) (Array, Device, error) {
	created, err := array.FromDLPack(labelsValuesTensor(values, count, size))
	if err != nil {
		return nil, Device{}, err
	}
	device, err := array.Device()
	if err != nil {
		created.Destroy()
		return nil, Device{}, err
	}
	return created, device, nil
}

// like wraps CPU labels the core built (with their own names) in an array of the same kind
// and on the same device as l's: the library's own array goes through l's from_dlpack, then a copy to l's device
// when it is not the CPU.
func (l *ArrayLabels) like(cpu *Labels) (*ArrayLabels, error) {
	return l.likeInto(cpu, nil)
}

// likeRows is like over new rows (values, distinct by construction, sorted when sorted says
// so) named names: the labels and their rows take one allocation, which holds a copy of the
// names when there are few, so that callers may build them in a temporary.
func (l *ArrayLabels) likeRows(names []string, values []int32, sorted bool) (*ArrayLabels, error) {
	memory := new(LabelsMemory)
	owned := append(memory.labels.ownNames[:0:len(memory.labels.ownNames)], names...)
	initDerivedLabels(&memory.rows, owned, values)
	if sorted {
		memory.rows.sorted.Store(sortedYes)
	}
	return l.likeInto(&memory.rows, &memory.labels)
}

// likeInto is like, making the labels in into, or in a new allocation when into is nil.
func (l *ArrayLabels) likeInto(cpu *Labels, into *ArrayLabels) (*ArrayLabels, error) {
	if _, ok := l.array.(*ReadOnlyLabelsValues); ok {
		return labelsFromValuesInto(into, cpu.names, cpu), nil
	}
	var created Array
	var device Device
	var err error
	if maker, ok := l.array.(labelsValuesMaker); ok {
		created, device, err = maker.MakeLabelsValues(cpu.values, cpu.count, cpu.size)
	} else {
		created, device, err = MakeLabelsValuesInSteps(l.array, cpu.values, cpu.count, cpu.size)
	}
	if err != nil {
		return nil, err
	}
	if device.Type != DeviceCPU {
		moved, err := created.Copy(device)
		created.Destroy()
		if err != nil {
			return nil, err
		}
		created = moved
	}
	if into == nil {
		into = new(ArrayLabels)
	}
	into.names, into.array, into.count, into.size = cpu.names, created, cpu.count, cpu.size
	into.references.Store(1)
	into.cpu.Store(cpu)
	return into, nil
}
