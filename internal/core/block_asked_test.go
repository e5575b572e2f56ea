package core

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NewBlockAsked goes on from what a binding asked: what was asked is not asked again, the
// rest is, and the checks and their messages are NewBlock's.
func TestNewBlockAskedAsksOnlyWhatIsMissing(t *testing.T) {
	s, c, p := blockLabels(t)
	values := counted(f64Array(t, []uintptr{3, 2, 4}, nil))
	asked := Asked{Shape: []uintptr{3, 2, 4}, HasShape: true, Devices: []Device{CPU, CPU}}
	block, err := NewBlockAsked(values, s, []*ArrayLabels{c}, p, asked)
	require.NoError(t, err)
	assert.Zero(t, values.calls["shape"], "the shape was asked already")
	assert.Zero(t, values.calls["device"], "the values' device was asked already")
	block.Free()
	assert.Equal(t, 1, values.calls["destroy"])

	// Nothing asked: the values are asked their shape and device, once each.
	values = counted(f64Array(t, []uintptr{3, 2, 4}, nil))
	block, err = NewBlockAsked(values, s, []*ArrayLabels{c}, p, Asked{})
	require.NoError(t, err)
	assert.Equal(t, 1, values.calls["shape"])
	assert.Equal(t, 1, values.calls["device"])
	block.Free()
}

func TestNewBlockAskedUsesTheAskedAnswers(t *testing.T) {
	s, c, p := blockLabels(t)
	cuda := Device{Type: DeviceCUDA, ID: 0}

	// An asked shape that does not fit is refused even though the array's own would fit.
	values := counted(f64Array(t, []uintptr{3, 2, 4}, nil))
	_, err := NewBlockAsked(values, s, []*ArrayLabels{c}, p, Asked{Shape: []uintptr{3, 2, 5}, HasShape: true})
	assert.EqualError(t, err, msgInvalid+"invalid block: the values shape along axis 2 is 5 but we have 4 property label entries")
	assert.Zero(t, values.calls["shape"])
	assert.Equal(t, 1, values.calls["destroy"], "the values are destroyed on error")

	// An asked device names the labels it belongs to: here the component's (third asked).
	values = counted(f64Array(t, []uintptr{3, 2, 4}, nil))
	asked := Asked{Shape: []uintptr{3, 2, 4}, HasShape: true, Devices: []Device{CPU, CPU, cuda}}
	_, err = NewBlockAsked(values, s, []*ArrayLabels{c}, p, asked)
	assert.EqualError(t, err, msgInvalid+"invalid block: values and components must be on the same device, got 'CPU:0' and 'CUDA:0'")
	assert.Zero(t, values.calls["device"])
	for _, l := range []*ArrayLabels{s, c, p} {
		assert.EqualValues(t, 1, l.references.Load(), "no reference kept on error")
	}
}

// A block its binding checked (BlockChecked) is made without a question to its values nor a
// check of its own, Shape and Devices unread; the same arguments unchecked are refused.
func TestBlockCheckedIsTakenAsChecked(t *testing.T) {
	s, c, p := blockLabels(t)
	values := counted(f64Array(t, []uintptr{3, 2, 4}, nil))
	var block Block
	err := InitBlockAsked(&block, values, s, []*ArrayLabels{c}, p, &Asked{BlockChecked: true})
	require.NoError(t, err)
	assert.Zero(t, values.calls["shape"])
	assert.Zero(t, values.calls["device"])
	assert.Same(t, s, block.Samples())
	assert.EqualValues(t, 2, s.references.Load(), "the block holds its labels")
	block.Free()
	assert.Equal(t, 1, values.calls["destroy"])
	assert.EqualValues(t, 1, s.references.Load())

	// Unchecked, the shape asked is compared to the labels, and refused.
	values = counted(f64Array(t, []uintptr{3, 2, 4}, nil))
	wrong := Asked{Shape: []uintptr{3, 2, 5}, HasShape: true, Devices: []Device{CPU, CPU, CPU, CPU}}
	err = InitBlockAsked(&Block{}, values, s, []*ArrayLabels{c}, p, &wrong)
	assert.EqualError(t, err, msgInvalid+"invalid block: the values shape along axis 2 is 5 but we have 4 property label entries")
	assert.Equal(t, 1, values.calls["destroy"], "the values are destroyed on error")
	wrong.Lent = true
	values = counted(f64Array(t, []uintptr{3, 2, 4}, nil))
	assert.Error(t, InitBlockAsked(&Block{}, values, s, []*ArrayLabels{c}, p, &wrong))
	assert.Zero(t, values.calls["destroy"], "lent values stay with their record")
}

// InitBlockAsked makes the block in the caller's memory and keeps the components slice.
func TestInitBlockAskedInPlace(t *testing.T) {
	s, c, p := blockLabels(t)
	blocks := make([]Block, 2)
	components := []*ArrayLabels{c, c}
	for i := range blocks {
		err := InitBlockAsked(&blocks[i], f64Array(t, []uintptr{3, 2, 4}, nil), s, components[i:i+1:i+1], p, &Asked{})
		require.NoError(t, err)
		assert.Same(t, &components[i], &blocks[i].Components()[0], "the slice given is the block's")
	}
	assert.EqualValues(t, 3, c.references.Load())
	for i := range blocks {
		blocks[i].Free()
	}
	assert.EqualValues(t, 1, c.references.Load())
}

// recordingReleaser notes what FreeWith hands it, in order.
type recordingReleaser struct {
	events []string
}

func (r *recordingReleaser) DestroyArray(array Array) {
	r.events = append(r.events, "array")
	array.Destroy()
}

func (r *recordingReleaser) ReleaseRecord(record unsafe.Pointer) {
	r.events = append(r.events, "record:"+*(*string)(record))
}

// FreeWith hands every values array and record to the releaser, gradients first, and each
// block's record after its array: a binding may keep the array in the record.
func TestFreeWithReleasesArraysBeforeTheirRecords(t *testing.T) {
	s, c, p := blockLabels(t)
	block, err := NewBlock(f64Array(t, []uintptr{3, 2, 4}, nil), s, []*ArrayLabels{c}, p)
	require.NoError(t, err)
	gradient := gradientOf(t, []string{"sample", "g"}, [][]int32{{0, 1}}, []*ArrayLabels{c}, p)
	require.NoError(t, block.AddGradient("g", gradient))
	keys := rangeLabels(t, "k", 1)
	tensor, err := NewTensorMap(keys, []*Block{block})
	require.NoError(t, err)

	names := []string{"map", "block", "gradient"}
	tensor.View().Attach(unsafe.Pointer(&names[0]))
	block.View().Attach(unsafe.Pointer(&names[1]))
	gradient.View().Attach(unsafe.Pointer(&names[2]))

	var releaser recordingReleaser
	tensor.FreeWith(&releaser)
	assert.Equal(t, []string{"array", "record:gradient", "array", "record:block", "record:map"}, releaser.events)
	assert.Nil(t, block.View().Record())
	for _, l := range []*ArrayLabels{s, c, p, keys} {
		assert.EqualValues(t, 1, l.references.Load())
	}
}

// labelsRecordingReleaser is a recordingReleaser that also takes the labels, noting theirs
// apart.
type labelsRecordingReleaser struct {
	recordingReleaser
	labels labelsRecorder
}

type labelsRecorder struct{ events *[]string }

func (r *labelsRecordingReleaser) LabelsReleaser() Releaser {
	r.labels.events = &r.events
	return &r.labels
}

func (r *labelsRecorder) DestroyArray(array Array) {
	*r.events = append(*r.events, "labels array")
	array.Destroy()
}

func (r *labelsRecorder) ReleaseRecord(record unsafe.Pointer) {
	*r.events = append(*r.events, "labels record:"+*(*string)(record))
}

// A LabelsReleasing releaser also takes the arrays and records of the labels that go with the
// tensor map (those it held last), each array before its record; shared labels stay.
func TestFreeWithReleasesLabelsThatGo(t *testing.T) {
	s, c, p := blockLabels(t)
	shared := rangeLabels(t, "p", 4)
	block, err := NewBlock(f64Array(t, []uintptr{3, 2, 4}, nil), s, []*ArrayLabels{c}, p)
	require.NoError(t, err)
	other, err := NewBlock(f64Array(t, []uintptr{3, 2, 4}, nil), s, []*ArrayLabels{c}, shared)
	require.NoError(t, err)
	keys := rangeLabels(t, "k", 2)
	tensor, err := NewTensorMap(keys, []*Block{block, other})
	require.NoError(t, err)
	for _, l := range []*ArrayLabels{s, c, p, keys} {
		l.Release() // the tensor map holds them last
	}

	names := []string{"map", "block", "other", "s", "c", "k", "shared"}
	tensor.View().Attach(unsafe.Pointer(&names[0]))
	block.View().Attach(unsafe.Pointer(&names[1]))
	other.View().Attach(unsafe.Pointer(&names[2]))
	s.View().Attach(unsafe.Pointer(&names[3]))
	c.View().Attach(unsafe.Pointer(&names[4]))
	keys.View().Attach(unsafe.Pointer(&names[5]))
	shared.View().Attach(unsafe.Pointer(&names[6]))

	var releaser labelsRecordingReleaser
	tensor.FreeWith(&releaser)
	assert.Equal(t, []string{
		"array", "record:block",
		"array", "labels array", "labels record:c", // the last block held c last
		"labels array", // p's run ends at the second block
		"record:other",
		"labels array", "labels record:s", // the end of the samples' run
		"record:map",
		"labels array", "labels record:k",
	}, releaser.events)
	assert.EqualValues(t, 1, shared.references.Load(), "labels held elsewhere stay")
	assert.Equal(t, unsafe.Pointer(&names[6]), shared.View().Record())
}

// A block made with lent labels and values takes no reference and, freed, hands only its
// record to the releaser: the record releases what it lent. FreeLeavingBlocks reads no block.
// OwnLent makes the block an ordinary one.
func TestLentBlocksReleaseOnlyTheirRecord(t *testing.T) {
	s, c, p := blockLabels(t)
	values := counted(f64Array(t, []uintptr{3, 2, 4}, nil))
	lent := Asked{Shape: []uintptr{3, 2, 4}, HasShape: true, Devices: []Device{CPU, CPU, CPU, CPU}, Lent: true}
	block, err := NewBlockAsked(values, s, []*ArrayLabels{c}, p, lent)
	require.NoError(t, err)
	assert.True(t, block.Lent())
	for _, l := range []*ArrayLabels{s, c, p} {
		assert.EqualValues(t, 1, l.references.Load(), "lent: no reference taken")
	}
	names := []string{"block", "map", "owned"}
	block.View().Attach(unsafe.Pointer(&names[0]))
	var releaser recordingReleaser
	block.FreeWith(&releaser)
	assert.Equal(t, []string{"record:block"}, releaser.events)
	assert.Zero(t, values.calls["destroy"], "the record destroys the values")
	for _, l := range []*ArrayLabels{s, c, p} {
		assert.EqualValues(t, 1, l.references.Load(), "lent: no reference released")
	}

	// A map of lent blocks let go of without a look at them: its record and keys go.
	block, err = NewBlockAsked(values, s, []*ArrayLabels{c}, p, lent)
	require.NoError(t, err)
	keys := rangeLabels(t, "k", 1)
	tensor, err := NewTensorMap(keys, []*Block{block})
	require.NoError(t, err)
	tensor.View().Attach(unsafe.Pointer(&names[1]))
	block.View().Attach(unsafe.Pointer(&names[0]))
	releaser = recordingReleaser{}
	tensor.FreeLeavingBlocks(&releaser)
	assert.Equal(t, []string{"record:map"}, releaser.events)
	assert.EqualValues(t, 1, keys.references.Load())
	assert.NotNil(t, block.View().Record(), "the block was not read")

	// Owned since: references taken, and released with the values when freed.
	block, err = NewBlockAsked(values, s, []*ArrayLabels{c}, p, lent)
	require.NoError(t, err)
	block.OwnLent()
	assert.False(t, block.Lent())
	for _, l := range []*ArrayLabels{s, c, p} {
		assert.EqualValues(t, 2, l.references.Load())
	}
	block.View().Attach(unsafe.Pointer(&names[2]))
	releaser = recordingReleaser{}
	block.FreeWith(&releaser)
	assert.Equal(t, []string{"array", "record:owned"}, releaser.events)
	assert.Equal(t, 1, values.calls["destroy"])
	for _, l := range []*ArrayLabels{s, c, p} {
		assert.EqualValues(t, 1, l.references.Load())
	}
}
