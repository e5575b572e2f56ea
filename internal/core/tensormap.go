package core

import "slices"

// TensorMap is a set of blocks, one per entry of its keys, that share their sample,
// component, property and gradient dimension names. It owns its blocks, holds a reference to
// its keys, and carries string metadata (info).
type TensorMap struct {
	keys   *ArrayLabels
	blocks []*Block
	info   Info

	view View
}

// NewTensorMap makes a tensor map. The blocks, and the slice holding them, belong to it from
// now on, and the blocks are freed when this fails; the keys gain a reference only when it
// succeeds.
func NewTensorMap(keys *ArrayLabels, blocks []*Block) (tensor *TensorMap, err error) {
	defer func() {
		if err != nil {
			for _, block := range blocks {
				block.Free()
			}
		}
	}()
	if len(blocks) != keys.Count() {
		return nil, Errorf(InvalidParameterError,
			"expected the same number of blocks as the number of entries in the keys (%d) "+
				"when creating a `TensorMap`, got %d", keys.Count(), len(blocks))
	}
	if err := checkBlocksData(keys, blocks); err != nil {
		return nil, err
	}
	for _, block := range blocks[min(1, len(blocks)):] {
		if err := checkSameDimensions(block, blocks[0]); err != nil {
			return nil, err
		}
	}
	return NewCheckedTensorMap(keys, blocks), nil
}

// NewCheckedTensorMap builds a tensor map whose caller made every check of NewTensorMap
// (bindings that check in another language), taking over the blocks and a new reference to
// keys.
func NewCheckedTensorMap(keys *ArrayLabels, blocks []*Block) *TensorMap {
	return NewCheckedTensorMapIn(new(TensorMap), keys, blocks)
}

// NewCheckedTensorMapIn is NewCheckedTensorMap making the tensor map in memory, a zero
// TensorMap that a binding allocates together with its own state.
func NewCheckedTensorMapIn(memory *TensorMap, keys *ArrayLabels, blocks []*Block) *TensorMap {
	keys.Retain()
	memory.keys, memory.blocks = keys, blocks
	return memory
}

// checkBlocksData requires every block to share block 0's origin, device and dtype, and the
// keys to be on that device.
func checkBlocksData(keys *ArrayLabels, blocks []*Block) error {
	if len(blocks) == 0 {
		return nil
	}
	first, other, _, err := compareArrays(len(blocks), func(i int) Array { return blocks[i].values })
	if err != nil {
		return err
	}
	var keysDevice Device
	var keysErr error
	if other == first {
		keysDevice, keysErr = keys.Device()
	}
	return BlocksDataError(first, other, keysDevice, keysErr)
}

// BlocksDataError is the error of checkBlocksData given what it asked: the description of the
// blocks' first array and of the first one differing from it (or first again), then, when
// they agree, the keys' device or the error asking it gave.
func BlocksDataError(first, other ArrayDescription, keysDevice Device, keysErr error) error {
	err := descriptionMismatch{
		origin: "invalid tensor map: got blocks with different origins, at least ('%s') and ('%s') were detected",
		device: "invalid tensor map: got blocks on different devices, at least '%s' and '%s' were detected",
		dtype:  "invalid tensor map: got blocks with different dtypes, at least '%s' and '%s' were detected",
	}.check(first, other)
	if err != nil {
		return err
	}
	if keysErr != nil {
		return keysErr
	}
	if keysDevice != first.Device {
		return Errorf(InvalidParameterError,
			"tried to build a TensorMap from keys and blocks on different devices: "+
				"the keys are on '%s' while the blocks are on '%s'", keysDevice, first.Device)
	}
	return nil
}

// checkSameDimensions compares the dimension names of block with those of first, gradients
// included.
func checkSameDimensions(block, first *Block) error {
	if !slices.Equal(block.samples.Names(), first.samples.Names()) {
		return Errorf(InvalidParameterError, "all blocks must have the same sample dimensions, got %s and %s",
			joinNames(block.samples.Names()), joinNames(first.samples.Names()))
	}
	if len(block.components) != len(first.components) {
		return Errorf(InvalidParameterError,
			"all blocks must contains the same set of components, the current block has %d components "+
				"while the first block has %d", len(block.components), len(first.components))
	}
	for i, component := range block.components {
		if !slices.Equal(component.Names(), first.components[i].Names()) {
			return Errorf(InvalidParameterError, "all blocks must have the same component dimensions, got %s and %s",
				joinNames(component.Names()), joinNames(first.components[i].Names()))
		}
	}
	if !slices.Equal(block.properties.Names(), first.properties.Names()) {
		return Errorf(InvalidParameterError, "all blocks must have the same property dimensions, got %s and %s",
			joinNames(block.properties.Names()), joinNames(first.properties.Names()))
	}
	if !sameGradientStructure(block, first) {
		return Errorf(InvalidParameterError,
			"all blocks must have the same set of gradients, with the same sample, property and component "+
				"dimensions, and the same must be true for gradients of gradients")
	}
	return nil
}

// sameGradientStructure tells whether two blocks have gradients with the same parameters,
// sample names and component names, recursively, in any order. Property names are not
// compared, as in the reference.
func sameGradientStructure(a, b *Block) bool {
	if len(a.gradients) != len(b.gradients) {
		return false
	}
	for _, g := range a.gradients {
		other := b.gradient(g.Parameter)
		if other == nil || !slices.Equal(g.Block.samples.Names(), other.samples.Names()) ||
			len(g.Block.components) != len(other.components) {
			return false
		}
		for i, component := range g.Block.components {
			if !slices.Equal(component.Names(), other.components[i].Names()) {
				return false
			}
		}
		if !sameGradientStructure(g.Block, other) {
			return false
		}
	}
	return true
}

// Keys gives the keys, which still belong to the tensor map.
func (t *TensorMap) Keys() *ArrayLabels { return t.keys }

// Blocks gives the blocks in key order; do not modify the slice.
func (t *TensorMap) Blocks() []*Block { return t.blocks }

// Info gives the metadata of the tensor map.
func (t *TensorMap) Info() *Info { return &t.info }

// View gives the slot of the binding's record for this tensor map.
func (t *TensorMap) View() *View { return &t.view }

// Block gives the block at a position, which stays owned by the tensor map.
func (t *TensorMap) Block(index uint64) (*Block, error) {
	if index >= uint64(len(t.blocks)) {
		return nil, Errorf(InvalidParameterError,
			"block index out of bounds: we have %d blocks but the index is %d", len(t.blocks), index)
	}
	return t.blocks[index], nil
}

// Device gives the device of block 0, or the CPU without blocks.
func (t *TensorMap) Device() (Device, error) {
	if len(t.blocks) == 0 {
		return CPU, nil
	}
	return t.blocks[0].Device()
}

// DType gives the element type of block 0, or f64 without blocks.
func (t *TensorMap) DType() (DType, error) {
	if len(t.blocks) == 0 {
		return Float64, nil
	}
	return t.blocks[0].DType()
}

// Copy makes an independent tensor map: blocks copied as by Block.Copy, keys shared, info
// copied in the same order.
func (t *TensorMap) Copy() (*TensorMap, error) {
	blocks, err := copyBlocks(t.blocks)
	if err != nil {
		return nil, err
	}
	t.keys.Retain()
	return &TensorMap{keys: t.keys, blocks: blocks, info: t.info.Clone()}, nil
}

// mapBlocks gives the result of f for every block, in order; on error, the blocks made so far
// are freed.
func (t *TensorMap) mapBlocks(f func(*Block) (*Block, error)) ([]*Block, error) {
	return makeBlocks(len(t.blocks), func(i int) (*Block, error) { return f(t.blocks[i]) })
}

// makeBlocks gives build(i) for i from 0 to count-1, in order; on error, the blocks made so
// far are freed.
func makeBlocks(count int, build func(i int) (*Block, error)) ([]*Block, error) {
	blocks := make([]*Block, 0, count)
	for i := range count {
		made, err := build(i)
		if err != nil {
			for _, b := range blocks {
				b.Free()
			}
			return nil, err
		}
		blocks = append(blocks, made)
	}
	return blocks, nil
}

// Free releases the blocks, the reference to the keys, then the binding's record. A nil
// tensor map is ignored.
func (t *TensorMap) Free() { t.FreeWith(DirectRelease{}) }

// FreeWith is Free, letting r release the arrays and records.
func (t *TensorMap) FreeWith(r Releaser) {
	if t == nil {
		return
	}
	var runs labelsRuns
	labels := forLabels(r)
	for start := 0; start < len(t.blocks); start += warmAhead {
		chunk := t.blocks[start:min(start+warmAhead, len(t.blocks))]
		warmBlocks(chunk)
		for _, block := range chunk {
			block.freeWith(r, labels, &runs)
		}
	}
	runs.flush(labels)
	t.freeAllButBlocks(r, labels)
}

// FreeLeavingBlocks is FreeWith for a tensor map whose blocks all have lent labels and values
// (Asked.Lent) and whose binding releases the blocks' records itself: the blocks are let go
// of without a look at any of them (thousands, each a cache miss), and the keys and the
// tensor map's record are released as FreeWith does.
func (t *TensorMap) FreeLeavingBlocks(r Releaser) {
	if t == nil {
		return
	}
	t.freeAllButBlocks(r, forLabels(r))
}

// freeAllButBlocks ends FreeWith: the record, then the reference to the keys.
func (t *TensorMap) freeAllButBlocks(r, labels Releaser) {
	t.blocks = nil
	t.view.releaseWith(r)
	if t.keys != nil {
		t.keys.ReleaseNWith(1, labels)
		t.keys = nil
	}
}

// newTensorMapFrom builds the result of an operation: NewTensorMap (whose checks the result
// goes through, as in the reference), then the info. It takes over the operation's own
// reference to keys and its blocks.
func newTensorMapFrom(keys *ArrayLabels, blocks []*Block, info Info) (*TensorMap, error) {
	defer keys.Release()
	tensor, err := NewTensorMap(keys, blocks)
	if err != nil {
		return nil, err
	}
	tensor.info = info
	return tensor, nil
}
