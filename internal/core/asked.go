package core

// Asked is what a binding already asked a user's values array (and, for a block, its labels)
// before handing a call over to the core, in the order the core asks them: the core goes on
// from there without asking again, so that no callback runs twice and every error is the one
// the core gives when it asks everything itself. The C library does the common cases of
// mts_labels and mts_block in C and hands the others over with what it asked.
type Asked struct {
	// NamesChecked says that the caller checked the names as the core does (valid, none twice):
	// a binding that made the labels in another language, checking them there.
	NamesChecked bool
	// Shape is the values' shape, when HasShape.
	Shape    []uintptr
	HasShape bool
	// Devices are the devices asked after the shape, in the order they are checked: the
	// values' (labels and blocks), then the samples', the components' and the properties'
	// (blocks).
	Devices []Device
	// Exported says that the CPU export of the labels' values was asked after their device:
	// Tensor is what it gave (the core takes it over), or ExportError why it failed.
	Exported    bool
	Tensor      *Tensor
	ExportError error
	// Distinct says that the caller found no repeated row in the exported values, and Sorted
	// whether their rows increase all along: labels checked for uniqueness take that check
	// instead of doing it again.
	Distinct, Sorted bool
	// BlockChecked says that the caller checked a block as InitBlockAsked does (the values'
	// shape against the labels' counts, the components, the devices), in the same order and
	// as strictly: a binding that made the block in another language, checking it there.
	// Shape and Devices are then not read.
	BlockChecked bool
	// Retained says that the caller counted the block's references to its labels already
	// (ArrayLabels.RetainN, for many blocks at once): InitBlockAsked takes none.
	Retained bool
	// Lent says that the block holds neither references to its labels nor its values array:
	// the binding's record of the block keeps them, and releases them with itself when the
	// block goes (Block.Lent).
	Lent bool
	// NamesKept says that labels may keep the names as given instead of a copy: the caller
	// allocated them for these labels alone, out of a Memory it recycles once the labels are
	// gone (other labels may share the names of these).
	NamesKept bool
	// Memory, when not nil, is where NewArrayLabelsAsked makes the labels and the rows of a
	// Distinct check: a binding allocates it with its own object for the labels.
	Memory *LabelsMemory
}

// LabelsMemory is room for array labels and their checked rows (Asked.Memory), fresh and
// used once: what lives in it must not be copied.
type LabelsMemory struct {
	labels ArrayLabels
	rows   Labels
}

// newLabels gives the room for the labels: m's, or a new allocation when m is nil.
func (m *LabelsMemory) newLabels() *ArrayLabels {
	if m == nil {
		return new(ArrayLabels)
	}
	return &m.labels
}

// newRows is newLabels for the checked rows.
func (m *LabelsMemory) newRows() *Labels {
	if m == nil {
		return new(Labels)
	}
	return &m.rows
}

// pastShape tells whether anything was asked after the shape.
func (a *Asked) pastShape() bool {
	return len(a.Devices) > 0 || a.Exported
}
