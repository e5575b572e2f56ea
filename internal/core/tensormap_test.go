package core

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simpleBlock is a block of 2 samples named sampleName and 3 properties named "p".
func simpleBlock(t *testing.T, sampleName string) *Block {
	return newTestBlock(t, nil, rangeLabels(t, sampleName, 2), nil, rangeLabels(t, "p", 3))
}

func TestNewTensorMapChecks(t *testing.T) {
	keys := rowsLabels(t, []string{"k"}, []int32{0}, []int32{1})
	defer keys.Release()

	_, err := NewTensorMap(keys, []*Block{simpleBlock(t, "s")})
	assert.EqualError(t, err, msgInvalid+"expected the same number of blocks as the number of entries in the keys (2) when creating a `TensorMap`, got 1")

	_, err = NewTensorMap(keys, []*Block{simpleBlock(t, "s"), simpleBlock(t, "t")})
	assert.EqualError(t, err, msgInvalid+"all blocks must have the same sample dimensions, got [t] and [s]")

	withGradient := simpleBlock(t, "s")
	gradient := newTestBlock(t, nil, rowsLabels(t, []string{"sample"}), nil, rangeLabels(t, "p", 3))
	require.NoError(t, withGradient.AddGradient("g", gradient))
	_, err = NewTensorMap(keys, []*Block{simpleBlock(t, "s"), withGradient})
	assert.EqualError(t, err, msgInvalid+"all blocks must have the same set of gradients, with the same sample, property and component dimensions, and the same must be true for gradients of gradients")

	f32 := simpleBlock(t, "s")
	f32.values = &dtypedArray{Array: f32.values, dtype: DType{Code: CodeFloat, Bits: 32, Lanes: 1}}
	counting := counted(f32.values)
	f32.values = counting
	_, err = NewTensorMap(keys, []*Block{simpleBlock(t, "s"), f32})
	assert.EqualError(t, err, msgInvalid+"invalid tensor map: got blocks with different dtypes, at least 'f64' and 'f32' were detected")
	assert.Equal(t, 1, counting.calls["destroy"], "blocks are freed when rejected")

	assert.EqualValues(t, 1, keys.references.Load(), "no reference kept on error")
}

// dtypedArray pretends to hold another element type.
type dtypedArray struct {
	Array
	dtype DType
}

func (d *dtypedArray) DType() (DType, error) { return d.dtype, nil }

func TestEmptyTensorMap(t *testing.T) {
	keys := rowsLabels(t, []string{"anything"})
	tensor, err := NewTensorMap(keys, nil)
	require.NoError(t, err)
	keys.Release()
	expectGot(t, CPU)(tensor.Device())
	expectGot(t, Float64)(tensor.DType())
	_, err = tensor.Block(0)
	assert.EqualError(t, err, msgInvalid+"block index out of bounds: we have 0 blocks but the index is 0")
	tensor.Free()
	assert.EqualValues(t, 0, keys.references.Load())
}

func TestTensorMapInfoAndCopy(t *testing.T) {
	keys := rowsLabels(t, []string{"k"}, []int32{0}, []int32{1})
	tensor, err := NewTensorMap(keys, []*Block{simpleBlock(t, "s"), simpleBlock(t, "s")})
	require.NoError(t, err)
	keys.Release()

	info := tensor.Info()
	require.NoError(t, info.Set("z", "1"))
	require.NoError(t, info.Set("a", "2"))
	require.NoError(t, info.Set("z", "3"))
	assert.Equal(t, []string{"z", "a"}, info.Keys(), "first-insertion order")
	value, ok := info.Get("z")
	assert.True(t, ok)
	assert.Equal(t, "3", value)
	_, ok = info.Get("missing")
	assert.False(t, ok)
	assert.Error(t, info.Set("\xff", "x"))
	sorted := info.Sorted()
	assert.Equal(t, []string{"a", "z"}, sorted.Keys())
	value, _ = sorted.Get("z")
	assert.Equal(t, "3", value, "values follow their keys")

	copied, err := tensor.Copy()
	require.NoError(t, err)
	assert.Same(t, tensor.Keys(), copied.Keys())
	assert.Equal(t, []string{"z", "a"}, copied.Info().Keys())
	require.NoError(t, copied.Info().Set("new", "x"))
	assert.Equal(t, 2, tensor.Info().Len(), "the copy's info is its own")
	block, err := copied.Block(1)
	require.NoError(t, err)
	assert.NotSame(t, tensor.blocks[1], block)

	tensor.Free()
	copied.Free()
	assert.EqualValues(t, 0, keys.references.Load())
}

// Info past the keys it finds by a scan (infoScanned): every key keeps its value and place,
// in clones and sorted copies too.
func TestInfoManyKeys(t *testing.T) {
	var info Info
	const count = 3 * infoScanned
	var want []string
	for i := count - 1; i >= 0; i-- {
		key := fmt.Sprintf("k%02d", i)
		require.NoError(t, info.Set(key, "v"+key))
		want = append(want, key)
	}
	for i := 0; i < count; i += 3 {
		key := fmt.Sprintf("k%02d", i)
		require.NoError(t, info.Set(key, "again"+key))
	}
	expect := func(t *testing.T, info *Info, keys []string) {
		t.Helper()
		assert.Equal(t, keys, info.Keys())
		for i := 0; i < count; i++ {
			key := fmt.Sprintf("k%02d", i)
			value, ok := info.Get(key)
			assert.True(t, ok, key)
			if i%3 == 0 {
				assert.Equal(t, "again"+key, value)
			} else {
				assert.Equal(t, "v"+key, value)
			}
		}
		_, ok := info.Get("k99")
		assert.False(t, ok)
	}
	expect(t, &info, want)

	clone := info.Clone()
	require.NoError(t, clone.Set("k99", "new"))
	require.NoError(t, clone.Set("k01", "changed"))
	expect(t, &info, want)
	value, _ := clone.Get("k99")
	assert.Equal(t, "new", value)

	sorted := info.Sorted()
	ascending := slices.Clone(want)
	slices.Reverse(ascending)
	expect(t, &sorted, ascending)
	expect(t, &info, want)
}
