package metatensor

import (
	"fmt"
	"runtime"
	"strings"
)

// How many entries String shows before eliding the rest.
const shownEntries = 5

// String describes the labels: their names, their number of entries, then the first
// entries, one per line.
//
//	Labels(names=[system atom], 3 entries)
//	  [0 1]
//	  [0 2]
//	  [1 0]
func (l *Labels) String() string {
	defer runtime.KeepAlive(l)
	labels, err := l.get()
	if err != nil {
		return "Labels(closed)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Labels(names=%v, %s)", labels.Names(), plural(labels.Count(), "entry", "entries"))
	cpu, err := labels.CPU()
	if err != nil {
		return b.String()
	}
	for i := range min(cpu.Count(), shownEntries) {
		fmt.Fprintf(&b, "\n  %v", cpu.Row(i))
	}
	if cpu.Count() > shownEntries {
		fmt.Fprintf(&b, "\n  ... %d more", cpu.Count()-shownEntries)
	}
	return b.String()
}

// String describes the block on one line: the shape and dtype of its values, the names of
// the dimensions of each axis, and its gradients.
//
//	TensorBlock(f64 [2 3 1], samples=[system atom], components=[[xyz]], properties=[n], gradients=[positions])
func (b *TensorBlock) String() string {
	defer runtime.KeepAlive(b)
	block, err := b.get()
	if err != nil {
		return "TensorBlock(closed)"
	}
	values := "?"
	if dtype, err := block.DType(); err == nil {
		values = dtype.String()
	}
	if shape, err := block.Values().Shape(); err == nil {
		values += fmt.Sprintf(" %v", shape)
	}
	components := make([][]string, len(block.Components()))
	for i, component := range block.Components() {
		components[i] = component.Names()
	}
	return fmt.Sprintf("TensorBlock(%s, samples=%v, components=%v, properties=%v, gradients=%v)",
		values, block.Samples().Names(), components, block.Properties().Names(), b.GradientParameters())
}

// String describes the tensor map: the names of its keys and its number of blocks, then
// the first blocks with their key, one per line.
//
//	TensorMap(keys=[center], 2 blocks)
//	  [1]: TensorBlock(f64 [3 1], samples=[atom], components=[], properties=[n], gradients=[])
//	  [6]: TensorBlock(f64 [2 1], samples=[atom], components=[], properties=[n], gradients=[])
func (t *TensorMap) String() string {
	defer runtime.KeepAlive(t)
	tensor, err := t.get()
	if err != nil {
		return "TensorMap(closed)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "TensorMap(keys=%v, %s)", tensor.Keys().Names(), plural(len(tensor.Blocks()), "block", "blocks"))
	shown := 0
	for key, block := range t.Items() {
		if shown == shownEntries {
			fmt.Fprintf(&b, "\n  ... %d more", len(tensor.Blocks())-shownEntries)
			break
		}
		fmt.Fprintf(&b, "\n  %v: %v", key, block)
		shown++
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
