package metatensor

import "iter"

// Entries iterates over the entries of the labels: their index and their values, shared
// with the labels (do not modify them).
func (l *Labels) Entries() iter.Seq2[int, []int32] {
	cpu := l.cpu()
	return func(yield func(int, []int32) bool) {
		for i := range cpu.Count() {
			if !yield(i, cpu.Row(i)) {
				return
			}
		}
	}
}

// Blocks iterates over views of the blocks, in the order of the keys.
func (t *TensorMap) Blocks() iter.Seq[*TensorBlock] {
	return func(yield func(*TensorBlock) bool) {
		for _, block := range t.Items() {
			if !yield(block) {
				return
			}
		}
	}
}

// Items iterates over the entries of the keys (shared with the keys: do not modify them)
// and views of their blocks.
func (t *TensorMap) Items() iter.Seq2[[]int32, *TensorBlock] {
	tensor := must(t.get())
	keys := must(tensor.Keys().CPU())
	blocks := tensor.Blocks()
	return func(yield func([]int32, *TensorBlock) bool) {
		for i, block := range blocks {
			if !yield(keys.Row(i), viewBlock(block, t.owner, t)) {
				return
			}
		}
	}
}

// Gradients iterates over the parameters of the gradients, in the order they were added,
// and views of the gradients.
func (b *TensorBlock) Gradients() iter.Seq2[string, *TensorBlock] {
	gradients := must(b.get()).Gradients()
	return func(yield func(string, *TensorBlock) bool) {
		for _, g := range gradients {
			if !yield(g.Parameter, viewBlock(g.Block, b.owner, b.rootValue())) {
				return
			}
		}
	}
}
