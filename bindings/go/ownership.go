package metatensor

import (
	"slices"

	"github.com/metatensor-go/metatensor/internal/core"
)

// What the generated counterparts (api_gen.go) need to hand the core what it takes: arrays
// they consume, labels lists, and blocks that move into a new owner.

// consume destroys the arrays a function was given when it fails before the core has them,
// as the core would, and gives err back.
func consume(err error, arrays ...Array) error {
	for _, array := range arrays {
		if array != nil {
			array.Destroy()
		}
	}
	return err
}

// coreLabels gives the core labels of each of labels.
func coreLabels(labels []*Labels) ([]*core.ArrayLabels, error) {
	result := make([]*core.ArrayLabels, len(labels))
	for i, l := range labels {
		var err error
		if result[i], err = l.get(); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// moveBlock is moveBlocks for one block.
func moveBlock(into *owner, block *TensorBlock) (*core.Block, error) {
	taken, err := moveBlocks(into, []*TensorBlock{block})
	if err != nil {
		return nil, err
	}
	return taken[0], nil
}

// moveBlocks takes the core blocks out of owned, live blocks, each given once and none from
// the tree into (nil for a new owner), which they move into: their Go values can no longer
// be used. Nothing moves when one of them can not.
func moveBlocks(into *owner, blocks []*TensorBlock) ([]*core.Block, error) {
	for i, block := range blocks {
		if _, err := block.get(); err != nil {
			return nil, err
		}
		switch {
		case block.IsView():
			return nil, invalidf("a view into a TensorMap or TensorBlock can not be moved into another owner: Copy it first")
		case into != nil && block.owner == into:
			return nil, invalidf("a block can not be moved into its own tree (as its own gradient)")
		case slices.Contains(blocks[:i], block):
			return nil, invalidf("block %d is given more than once", i)
		}
	}
	taken := make([]*core.Block, len(blocks))
	for i, block := range blocks {
		block.owner.release(moved)
		taken[i] = block.block
	}
	return taken, nil
}
