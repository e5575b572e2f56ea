package core

import (
	"io"
	"slices"
	"strconv"
	"strings"
)

// SaveBlock writes a block and its gradients as a block file: a zip of NPY entries.
func SaveBlock(sink SaveSink, block *Block) error {
	return writeZip(sink, func(archive *zipWriter) error {
		return writeBlockEntries(archive, "", true, block)
	})
}

// LoadBlock reads a block file from the size bytes of r, making every array with create.
func LoadBlock(r io.ReaderAt, size int64, create CreateArray) (*Block, error) {
	archive, err := openZip(r, size)
	if err != nil {
		return nil, err
	}
	return readBlockEntries(archive, "", nil, create)
}

// writeBlockEntries writes the entries of a block under prefix: values, samples, components
// and (for the block itself, not its gradients, which share them) properties, then each
// gradient under prefix/gradients/<parameter>/.
func writeBlockEntries(archive *zipWriter, prefix string, withProperties bool, block *Block) error {
	entry, err := archive.Create(prefix + "values.npy")
	if err != nil {
		return err
	}
	if err := writeNpyArray(entry, block.values); err != nil {
		return err
	}
	if err := writeLabelsEntry(archive, prefix+"samples.npy", block.samples); err != nil {
		return err
	}
	for i, component := range block.components {
		if err := writeLabelsEntry(archive, prefix+"components/"+strconv.Itoa(i)+".npy", component); err != nil {
			return err
		}
	}
	if withProperties {
		if err := writeLabelsEntry(archive, prefix+"properties.npy", block.properties); err != nil {
			return err
		}
	}
	// Sorted by parameter, as the reference writes them, so that files do not depend on the
	// order gradients were added in.
	gradients := slices.SortedFunc(slices.Values(block.gradients), func(a, b Gradient) int {
		return strings.Compare(a.Parameter, b.Parameter)
	})
	for _, gradient := range gradients {
		if err := writeBlockEntries(archive, prefix+"gradients/"+gradient.Parameter+"/", false, gradient.Block); err != nil {
			return err
		}
	}
	return nil
}

func writeLabelsEntry(archive *zipWriter, name string, labels *ArrayLabels) error {
	entry, err := archive.Create(name)
	if err != nil {
		return err
	}
	return SaveLabels(entry, labels)
}

// readBlockEntries reads the block stored under prefix. Gradients carry no properties entry:
// they get their parent's (properties is nil for a top-level block).
func readBlockEntries(archive *zipArchive, prefix string, properties *ArrayLabels, create CreateArray) (block *Block, err error) {
	values, shape, err := readArrayEntry(archive, prefix+"values.npy", create)
	if err != nil {
		return nil, err
	}
	// Labels read below are ours until the block takes references of its own.
	var owned []*ArrayLabels
	defer func() {
		for _, labels := range owned {
			labels.Release()
		}
		if err != nil && values != nil {
			values.Destroy()
		}
	}()
	read := func(name string) (*ArrayLabels, error) {
		labels, err := readLabelsEntry(archive, name)
		if err == nil {
			owned = append(owned, labels)
		}
		return labels, err
	}

	samples, err := read(prefix + "samples.npy")
	if err != nil {
		return nil, err
	}
	if len(shape) < 2 {
		return nil, Errorf(SerializationError,
			"'%svalues.npy' must have at least 2 dimensions (samples and properties), got %d", prefix, len(shape))
	}
	components := make([]*ArrayLabels, len(shape)-2)
	for i := range components {
		if components[i], err = read(prefix + "components/" + strconv.Itoa(i) + ".npy"); err != nil {
			return nil, err
		}
	}
	if properties == nil {
		if properties, err = read(prefix + "properties.npy"); err != nil {
			return nil, err
		}
	}

	block, err = NewBlock(values, samples, components, properties)
	values = nil // NewBlock consumed the values, whatever happened
	if err != nil {
		return nil, err
	}
	for _, parameter := range gradientParameters(archive, prefix) {
		gradient, err := readBlockEntries(archive, prefix+"gradients/"+parameter+"/", properties, create)
		if err == nil {
			err = block.AddGradient(parameter, gradient)
		}
		if err != nil {
			block.Free()
			return nil, err
		}
	}
	return block, nil
}

// gradientParameters lists the gradients stored under prefix, in the order their entries
// first appear: every entry prefix/gradients/<parameter>/.../samples.npy names one.
func gradientParameters(archive *zipArchive, prefix string) []string {
	start := prefix + "gradients/"
	var parameters []string
	var seen map[string]bool // made at the first gradient: most blocks have none
	for _, index := range archive.WithPrefix(start) {
		name := archive.entries[index].name
		if !strings.HasSuffix(name, "/samples.npy") {
			continue
		}
		parameter, _, _ := strings.Cut(name[len(start):], "/")
		if seen == nil {
			seen = make(map[string]bool)
		}
		if !seen[parameter] {
			seen[parameter] = true
			parameters = append(parameters, parameter)
		}
	}
	return parameters
}

func readArrayEntry(archive *zipArchive, name string, create CreateArray) (Array, []uintptr, error) {
	entry, size, err := archive.Open(name)
	if err != nil {
		return nil, nil, err
	}
	array, shape, err := readNpyArray(entry, size, create)
	return array, shape, inNpyEntry(name, err)
}

func readLabelsEntry(archive *zipArchive, name string) (*ArrayLabels, error) {
	entry, size, err := archive.Open(name)
	if err != nil {
		return nil, err
	}
	labels, err := LoadLabels(entry, size)
	return labels, inNpyEntry(name, err)
}
