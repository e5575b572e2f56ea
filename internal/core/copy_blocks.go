package core

// ArraysCopier is an Array whose binding copies many arrays at once, for (*TensorMap).Copy:
// a binding whose every call into an array crosses into another language pays that crossing
// twice per block (Device, then Copy), more than the copy of a small array costs.
type ArraysCopier interface {
	// CopyOnOwnDevices copies the arrays from the first one on, each to the device it says
	// it is on, asking them in the order Device then Copy would, one array after the other;
	// each copy replaces its array in arrays. It gives how many it copied: it may stop before
	// an array it can not copy this way, which the caller then copies on its own, and stops
	// at the first failure, whose error it gives.
	CopyOnOwnDevices(arrays []Array) (int, error)
}

// copyOnOwnDevice copies an array to the device it is on.
func copyOnOwnDevice(array Array) (Array, error) {
	device, err := array.Device()
	if err != nil {
		return nil, err
	}
	return array.Copy(device)
}

// copyOnOwnDevices replaces every array by its copy on its own device, in order, through
// ArraysCopier where the arrays are one: arrays[:n] are copies, n the count given with the
// first failure.
func copyOnOwnDevices(arrays []Array) (int, error) {
	done := 0
	for done < len(arrays) {
		if copier, ok := arrays[done].(ArraysCopier); ok {
			n, err := copier.CopyOnOwnDevices(arrays[done:])
			done += n
			if err != nil {
				return done, err
			}
			if n > 0 {
				continue
			}
		}
		copied, err := copyOnOwnDevice(arrays[done])
		if err != nil {
			return done, err
		}
		arrays[done] = copied
		done++
	}
	return done, nil
}

// copyBlocks is Block.Copy for many blocks: the same calls into the values arrays in the same
// order (each block's values, then its gradients', depth first), all asked first, then the
// blocks made in one allocation. On failure the copies made so far are destroyed.
func copyBlocks(blocks []*Block) ([]*Block, error) {
	values := make([]Array, 0, len(blocks))
	var counts treeCounts
	for _, block := range blocks {
		values = block.appendTreeValues(values, &counts)
	}
	made, err := copyOnOwnDevices(values)
	if err != nil {
		for _, copied := range values[:made] {
			copied.Destroy()
		}
		return nil, err
	}
	copies := blockCopies{
		values:     values,
		blocks:     make([]Block, len(values)),
		components: make([]*ArrayLabels, counts.components),
		gradients:  make([]Gradient, counts.gradients),
	}
	result := make([]*Block, len(blocks))
	for i, block := range blocks {
		result[i] = copies.next(block)
	}
	copies.runs.retained()
	return result, nil
}

// treeCounts counts the component labels and gradients of blocks and their gradients.
type treeCounts struct{ components, gradients int }

// appendTreeValues appends the values of the block and of its gradients, depth first, and
// counts their components and gradients.
func (b *Block) appendTreeValues(values []Array, counts *treeCounts) []Array {
	values = append(values, b.values)
	counts.components += len(b.components)
	counts.gradients += len(b.gradients)
	for _, g := range b.gradients {
		values = g.Block.appendTreeValues(values, counts)
	}
	return values
}

// blockCopies hands out the copied values and the memory of the copied blocks and of their
// components and gradients lists, in the order copyBlocks asked the values; runs counts the
// references the copies take to their labels.
type blockCopies struct {
	values     []Array
	blocks     []Block
	components []*ArrayLabels
	gradients  []Gradient
	runs       labelsRuns
}

// next makes the copy of source, with its gradients, from the next values.
func (c *blockCopies) next(source *Block) *Block {
	block := &c.blocks[0]
	c.blocks = c.blocks[1:]
	block.values = c.values[0]
	c.values = c.values[1:]
	block.samples = source.samples
	count := len(source.components)
	block.components = c.components[:count:count]
	copy(block.components, source.components)
	c.components = c.components[count:]
	block.properties = source.properties
	c.runs.retain(0, block.samples)
	for _, component := range block.components {
		c.runs.retain(2, component)
	}
	c.runs.retain(1, block.properties)
	count = len(source.gradients)
	block.gradients = c.gradients[:0:count]
	c.gradients = c.gradients[count:]
	for _, g := range source.gradients {
		block.gradients = append(block.gradients, Gradient{Parameter: g.Parameter, Block: c.next(g.Block)})
	}
	return block
}
