package metatensor_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

// check stops an example at the first error.
func check(err error) {
	if err != nil {
		panic(err)
	}
}

// get stops an example at the first error, and gives the value otherwise.
func get[T any](value T, err error) T {
	check(err)
	return value
}

func ExampleNewLabels() {
	labels, err := metatensor.NewLabels([]string{"system", "atom"}, [][]int32{{0, 1}, {0, 2}, {1, 0}})
	check(err)
	defer labels.Close()

	fmt.Println(labels)
	position, _ := labels.Position([]int32{0, 2})
	fmt.Println("position of [0 2]:", position)
	for i, entry := range labels.Entries() {
		fmt.Println(i, entry)
	}

	other := get(metatensor.NewLabelsFromValues([]string{"system", "atom"}, []int32{1, 0, 2, 0}))
	defer other.Close()
	union, _, mapping, err := labels.UnionWithMappings(other)
	check(err)
	defer union.Close()
	fmt.Println("union:", get(union.Values()), "entries of other in the union:", mapping)

	_, err = metatensor.NewLabels([]string{"atom"}, [][]int32{{3}, {3}})
	fmt.Println(errors.Is(err, metatensor.ErrInvalidParameter), err)
	// Output:
	// Labels(names=[system atom], 3 entries)
	//   [0 1]
	//   [0 2]
	//   [1 0]
	// position of [0 2]: 1
	// 0 [0 1]
	// 1 [0 2]
	// 2 [1 0]
	// union: [0 1 0 2 1 0 2 0] entries of other in the union: [2 3]
	// true invalid parameter: can not have the same label entry multiple times: [3] is already present
}

func ExampleNewBlock() {
	samples := get(metatensor.NewLabels([]string{"system", "atom"}, [][]int32{{0, 0}, {0, 1}}))
	defer samples.Close()
	properties := get(metatensor.NewLabels([]string{"n"}, [][]int32{{0}}))
	defer properties.Close()

	// Two samples, one property; the values move into the block.
	values := get(metatensor.NewArray([]int{2, 1}, []float64{1.5, -0.5}))
	block := get(metatensor.NewBlock(values, samples, nil, properties))
	defer block.Close()

	// The gradient with respect to the positions of the atoms: its samples refer to the
	// block's samples, its extra component is the direction.
	gradientSamples := get(metatensor.NewLabels([]string{"sample", "atom"}, [][]int32{{0, 0}, {1, 0}, {1, 1}}))
	defer gradientSamples.Close()
	xyz := get(metatensor.NewLabelsRange("xyz", 3))
	defer xyz.Close()
	gradientValues := get(metatensor.NewZeros[float64]([]int{3, 3, 1}))
	gradient := get(metatensor.NewBlock(gradientValues, gradientSamples, []*metatensor.Labels{xyz}, properties))
	check(block.AddGradient("positions", gradient)) // the gradient moves into the block

	fmt.Println(block)
	for parameter, gradient := range block.Gradients() {
		fmt.Println(parameter, gradient.Samples().Count(), "samples")
	}
	fmt.Println(get(metatensor.ArrayValues[float64](block.Values())))
	// Output:
	// TensorBlock(f64 [2 1], samples=[system atom], components=[], properties=[n], gradients=[positions])
	// positions 3 samples
	// [1.5 -0.5]
}

// newTensorMap builds the tensor map of the examples: two blocks, for the keys center=1 and
// center=6, with samples [atom] and properties [n].
func newTensorMap() *metatensor.TensorMap {
	properties := get(metatensor.NewLabelsRange("n", 2))
	defer properties.Close()
	block := func(atoms []int32, values []float64) *metatensor.TensorBlock {
		samples := get(metatensor.NewLabelsFromValues([]string{"atom"}, atoms))
		defer samples.Close()
		array := get(metatensor.NewArray([]int{len(atoms), 2}, values))
		return get(metatensor.NewBlock(array, samples, nil, properties))
	}
	keys := get(metatensor.NewLabels([]string{"center"}, [][]int32{{1}, {6}}))
	defer keys.Close()
	blocks := []*metatensor.TensorBlock{
		block([]int32{0, 2}, []float64{1, 2, 3, 4}),
		block([]int32{1}, []float64{5, 6}),
	}
	return get(metatensor.NewTensorMap(keys, blocks)) // the blocks move into the tensor map
}

func ExampleNewTensorMap() {
	tensor := newTensorMap()
	defer tensor.Close()

	fmt.Println(tensor)
	for key, block := range tensor.Items() {
		fmt.Println(key, get(metatensor.ArrayValues[float64](block.Values())))
	}
	// Output:
	// TensorMap(keys=[center], 2 blocks)
	//   [1]: TensorBlock(f64 [2 2], samples=[atom], components=[], properties=[n], gradients=[])
	//   [6]: TensorBlock(f64 [1 2], samples=[atom], components=[], properties=[n], gradients=[])
	// [1] [1 2 3 4]
	// [6] [5 6]
}

func ExampleTensorMap_KeysToSamples() {
	tensor := newTensorMap()
	defer tensor.Close()
	center := get(metatensor.NewLabels([]string{"center"}, nil))
	defer center.Close()

	merged := get(tensor.KeysToSamples(center, true))
	defer merged.Close()
	block := get(merged.Block(0))
	fmt.Println(merged.Keys())
	fmt.Println(block.Samples())
	fmt.Println(get(metatensor.ArrayValues[float64](block.Values())))
	// Output:
	// Labels(names=[_], 1 entry)
	//   [0]
	// Labels(names=[atom center], 3 entries)
	//   [0 1]
	//   [1 6]
	//   [2 1]
	// [1 2 5 6 3 4]
}

func ExampleTensorMap_KeysToProperties() {
	tensor := newTensorMap()
	defer tensor.Close()
	center := get(metatensor.NewLabels([]string{"center"}, nil))
	defer center.Close()

	merged := get(tensor.KeysToProperties(center, true))
	defer merged.Close()
	block := get(merged.Block(0))
	fmt.Println(block.Properties())
	// atom 1 has no values for center=1: they are filled with zeros
	fmt.Println(get(metatensor.ArrayValues[float64](block.Values())))
	// Output:
	// Labels(names=[center n], 4 entries)
	//   [1 0]
	//   [1 1]
	//   [6 0]
	//   [6 1]
	// [1 2 0 0 0 0 5 6 3 4 0 0]
}

func ExampleTensorMap_Save() {
	tensor := newTensorMap()
	defer tensor.Close()
	check(tensor.SetInfo("source", "example"))

	// To a file, and back.
	dir := get(os.MkdirTemp("", "metatensor-example"))
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "tensor.mts")
	check(tensor.Save(path))
	loaded := get(metatensor.LoadTensorMap(path, nil))
	defer loaded.Close()
	fmt.Println(get(loaded.Keys().Values()), loaded.Len(), "blocks")
	fmt.Println(loaded.Info("source"))

	// To memory (or any io.Writer with WriteTo), and back from an io.Reader.
	data := get(tensor.SaveBuffer())
	again := get(metatensor.ReadTensorMap(bytes.NewReader(data), nil))
	defer again.Close()
	fmt.Println(get(metatensor.ArrayValues[float64](get(again.Block(1)).Values())))

	// Files of the wrong kind are rejected with the loader to use.
	_, err := metatensor.LoadBlockBuffer(data, nil)
	fmt.Println(errors.Is(err, metatensor.ErrSerialization))
	// Output:
	// [1 6] 2 blocks
	// example true
	// [5 6]
	// true
}

// loggedArray is a custom Array: a HostArray of its own origin that says when it is
// destroyed. Arrays of other frameworks implement every method of metatensor.Array.
type loggedArray struct {
	*metatensor.HostArray
	name string
}

func (a loggedArray) Origin() (metatensor.Origin, error) {
	return metatensor.RegisterOrigin("example.loggedArray"), nil
}

func (a loggedArray) Destroy() {
	fmt.Println("destroying", a.name)
	a.HostArray.Destroy()
}

func Example_customArray() {
	samples := get(metatensor.NewLabelsRange("sample", 2))
	defer samples.Close()
	properties := get(metatensor.NewLabelsRange("property", 1))
	defer properties.Close()

	values := loggedArray{get(metatensor.NewArray([]int{2, 1}, []int32{7, 8})), "values"}
	block := get(metatensor.NewBlock(values, samples, nil, properties))
	origin := get(block.Values().Origin())
	fmt.Println(metatensor.OriginName(origin), get(block.DType()))
	// Arrays that are not HostArrays are read through their DLPack export.
	fmt.Println(get(metatensor.CopyArrayValues[int32](block.Values())))

	// Loaders make the arrays of blocks with a CreateArray: here, loggedArrays.
	loaded := get(metatensor.LoadBlockBuffer(get(block.SaveBuffer()),
		func(shape []uintptr, dtype metatensor.DType) (metatensor.Array, error) {
			return loggedArray{get(metatensor.NewZerosOf(dtype, shape)), "loaded values"}, nil
		}))
	fmt.Println(get(metatensor.CopyArrayValues[int32](loaded.Values())))
	loaded.Close()
	block.Close() // the block destroys its values

	// Labels keep their values in any Array of int32, of shape [entries, dimensions].
	keys := get(metatensor.NewLabelsFromArray([]string{"center", "neighbor"},
		loggedArray{get(metatensor.NewArray([]int{2, 2}, []int32{1, 1, 1, 6})), "keys"}))
	fmt.Println(get(keys.Position([]int32{1, 6})))
	keys.Close()
	// Output:
	// example.loggedArray i32
	// [7 8]
	// [7 8]
	// destroying loaded values
	// destroying values
	// 1
	// destroying keys
}
