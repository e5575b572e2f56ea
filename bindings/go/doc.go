// Package metatensor is the Go API of metatensor: labelled, block-sparse tensors for atomistic
// machine learning. It calls the pure-Go core of this module directly, without cgo, and reads
// and writes the .mts files of metatensor-core 0.2.
//
// The three objects are [Labels] (named, unique rows of int32 values), [TensorBlock] (an
// [Array] of values whose axes are described by labels, plus gradients) and [TensorMap] (one
// block per entry of its keys).
//
// Every function of the C API of metatensor-core has its counterpart here, generated from
// the same description of the API (spec/api.yaml): NewLabelsFromArray for mts_labels,
// Labels.UnionWithMappings for mts_labels_union, LoadTensorMap for mts_tensormap_load...
// Constructors from Go slices (NewLabels), iterators and the shorter forms of operations
// (Labels.Union, TensorMap.KeysToSamples) are built on them.
//
// # Arrays
//
// Values live in an [Array]: a [HostArray] made by [NewArray], [NewZeros] or [NewZerosOf], or
// any type implementing the interface (another framework's tensor on another device).
// Labels can keep their values in one as well ([NewLabelsFromArray]), and loaders make the
// arrays of the blocks they load with a [CreateArray] (nil makes HostArrays).
//
// # Ownership
//
// Every object holds native resources that Close releases; forgetting to call Close is not a
// leak (a cleanup releases what the garbage collector finds unreachable), but calling it
// gives the memory back sooner. Close may be called more than once.
//
//   - Labels are immutable and reference counted: every *Labels value (made by a
//     constructor, or given by an accessor such as TensorBlock.Samples) holds its own
//     reference, and is closed independently of the others.
//
//   - A TensorBlock made by NewBlock, Copy or a loader owns its values and gradients. When it
//     is passed to NewTensorMap or to AddGradient, it moves into its new owner: the value
//     passed can no longer be used, whether the call succeeds or not.
//
//   - Blocks given by TensorMap.Block, TensorBlock.Gradient and the iterators are views into
//     their owner: Close does nothing on them, and they can not be used once their owner is
//     closed. A view keeps its owner from being collected.
//
//   - What an object gives out of itself (the Array of TensorBlock.Values, the slices of
//     Labels.Values and Labels.Row, the ArrayValues of a block's values) belongs to it: keep
//     the object (or a view into it) reachable, and open, while using them.
//
// Using an object after Close (or after it moved) is a programming error: methods that
// return an error report it with ErrInvalidParameter, the others panic.
//
// Objects are safe to read from several goroutines at once. Close, AddGradient and SetInfo
// must not run concurrently with other methods of the same object.
//
// # Errors
//
// Failures are *[Error] values carrying the status of the C API and a message; errors.Is
// matches them against the sentinels [ErrInvalidParameter], [ErrIO], [ErrSerialization],
// [ErrBufferSize], [ErrCallback] and [ErrInternal].
package metatensor
