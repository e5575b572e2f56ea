package core

import (
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

// npyChunkSize bounds the buffer that byte-swapped or strided data goes through.
const npyChunkSize = 1 << 20

// readNpyArray reads one data entry of `size` bytes from r: parses the header, calls create
// once with the shape and dtype, fills the array and checks that no byte is left. It returns
// the array (owned by the caller) and its shape. When it fails after create, it destroys the array.
func readNpyArray(r io.Reader, size int64, create CreateArray) (Array, []uintptr, error) {
	header, headerSize, err := readNpyHeader(r)
	if err != nil {
		return nil, nil, err
	}
	if header.fortranOrder {
		return nil, nil, Errorf(SerializationError, "data can not be loaded from fortran-order arrays")
	}
	if header.structured {
		return nil, nil, Errorf(SerializationError, "structured arrays are not supported")
	}
	dtype, swap, err := parseNpyDescr(header.descr)
	if err != nil {
		return nil, nil, err
	}
	dataSize, err := npyDataSize(header.shape, dtype.ElementSize(), size-headerSize)
	if err != nil {
		return nil, nil, err
	}

	// create gets its own copy of the shape, which it may keep.
	array, err := create(slices.Clone(header.shape), dtype)
	if err != nil {
		return nil, nil, err
	}
	if array == nil {
		return nil, nil, Errorf(InvalidParameterError, "create_array gave no array")
	}
	if dataSize > 0 {
		err = fillNpyArray(r, array, header.shape, dtype, swap, dataSize)
	}
	if err == nil {
		err = checkNpyEnd(r)
	}
	if err != nil {
		array.Destroy()
		return nil, nil, err
	}
	return array, header.shape, nil
}

// npyDataSize gives the number of data bytes a shape of elements of elementSize takes, and
// checks, before anything is allocated, that the entry has that many bytes left (available).
// A declared shape larger than the entry is truncated data: an I/O error, as when the
// reference actually runs out of bytes.
func npyDataSize(shape []uintptr, elementSize int, available int64) (int64, error) {
	total := uint64(elementSize)
	for _, d := range shape {
		hi, lo := bits.Mul64(total, uint64(d))
		if hi != 0 {
			total = math.MaxUint64
			break
		}
		total = lo
	}
	// Any zero axis makes an empty array, however large the others.
	for _, d := range shape {
		if d == 0 {
			total = 0
		}
	}
	if available < 0 || total > uint64(available) {
		return 0, newNpyOversizeError(shape, elementSize, total, available)
	}
	return int64(total), nil
}

// fillNpyArray reads the dataSize bytes of elements into a created array, through its
// writable CPU export. Row-major data is read straight into the array's memory; only strided
// arrays go through a buffer.
func fillNpyArray(r io.Reader, array Array, shape []uintptr, dtype DType, swap bool, dataSize int64) error {
	tensor, err := exportOnCPU(array, "invalid array from create_array")
	if err != nil {
		return err
	}
	defer tensor.Release()
	if err := checkNpyDestination(tensor, shape, dtype); err != nil {
		return err
	}

	base := unsafe.Add(tensor.Data, tensor.ByteOffset)
	if tensor.IsRowMajor() {
		memory := unsafe.Slice((*byte)(base), dataSize)
		if _, err := io.ReadFull(r, memory); err != nil {
			return readError(err)
		}
		fixNpyElements(memory, dtype, swap)
		return nil
	}

	size := dtype.ElementSize()
	chunk := make([]byte, min(int64(npyChunkSize/size*size), dataSize))
	elements := newStridedWalk(tensor, base)
	for remaining := dataSize; remaining > 0; {
		part := chunk[:min(int64(len(chunk)), remaining)]
		if _, err := io.ReadFull(r, part); err != nil {
			return readError(err)
		}
		fixNpyElements(part, dtype, swap)
		elements.transfer(part, false)
		remaining -= int64(len(part))
	}
	return nil
}

// exportOnCPU exports an array with AsDLPack on the CPU and checks that the tensor is there;
// the caller releases it. context starts the messages.
func exportOnCPU(array Array, context string) (*Tensor, error) {
	tensor, err := array.AsDLPack(CPU, nil, CurrentDLPack)
	if err != nil {
		return nil, err
	}
	if tensor == nil {
		return nil, Errorf(InvalidParameterError, "%s: AsDLPack gave no tensor", context)
	}
	if tensor.Device.Type != DeviceCPU {
		tensor.Release()
		return nil, Errorf(InvalidParameterError, "%s: its DLPack export is on %s, expected CPU", context, tensor.Device)
	}
	return tensor, nil
}

// checkNpyDestination checks that the CPU export of a created array is memory the loader may
// write: writable, of exactly the dtype and shape asked for.
func checkNpyDestination(tensor *Tensor, shape []uintptr, dtype DType) error {
	const context = "invalid array from create_array"
	if tensor.Flags&FlagReadOnly != 0 {
		return Errorf(InvalidParameterError, "%s: its DLPack export is read-only", context)
	}
	if tensor.DType != dtype {
		return Errorf(InvalidParameterError,
			"%s: its DLPack export has dtype %s, expected %s", context, tensor.DType, dtype)
	}
	exported, _, err := readableTensor(tensor, context)
	if err != nil {
		return err
	}
	if !slices.Equal(exported, shape) {
		return Errorf(InvalidParameterError, "%s: its DLPack export has shape %s, expected %s",
			context, formatShape(exported), formatShape(shape))
	}
	return nil
}

// fixNpyElements turns elements read from a file into their in-memory form: byte order
// swapped if needed, and booleans made 0 or 1 (any non-zero byte is true).
func fixNpyElements(data []byte, dtype DType, swap bool) {
	if dtype.Code == CodeBool {
		for i, b := range data {
			if b > 1 {
				data[i] = 1
			}
		}
		return
	}
	if swap {
		swapNpyBytes(data, dtype)
	}
}

// swapNpyBytes reverses the bytes of every number in data; a complex number is two floats,
// each swapped on its own.
func swapNpyBytes(data []byte, dtype DType) {
	width := dtype.ElementSize()
	if dtype.Code == CodeComplex {
		width /= 2
	}
	switch width {
	case 2:
		for i := 0; i+1 < len(data); i += 2 {
			data[i], data[i+1] = data[i+1], data[i]
		}
	case 4:
		for i := 0; i+3 < len(data); i += 4 {
			binary.BigEndian.PutUint32(data[i:], binary.LittleEndian.Uint32(data[i:]))
		}
	case 8:
		for i := 0; i+7 < len(data); i += 8 {
			binary.BigEndian.PutUint64(data[i:], binary.LittleEndian.Uint64(data[i:]))
		}
	}
}

// checkNpyEnd reads what is left of the entry, which must be nothing.
func checkNpyEnd(r io.Reader) error {
	extra, err := io.Copy(io.Discard, r)
	if err != nil {
		return readError(err)
	}
	if extra != 0 {
		return Errorf(SerializationError, "found %d extra bytes after the expected end of data", extra)
	}
	return nil
}

// writeNpyArray writes array as a data entry: exported with AsDLPack on the CPU, header, then
// the elements in row-major (C) order whatever the tensor's strides/byte_offset.
func writeNpyArray(w io.Writer, array Array) error {
	tensor, err := exportOnCPU(array, "invalid array to save")
	if err != nil {
		return err
	}
	defer tensor.Release()
	descr, err := npyDescr(tensor.DType)
	if err != nil {
		return err
	}
	shape, n, err := readableTensor(tensor, "invalid DLPack export of an array")
	if err != nil {
		return err
	}
	header := npyHeader{descr: descr, shape: shape}
	if err := writeNpyHeader(w, &header); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}

	size := tensor.DType.ElementSize()
	base := unsafe.Add(tensor.Data, tensor.ByteOffset)
	if tensor.IsRowMajor() && tensor.DType.Code != CodeBool {
		if _, err := w.Write(unsafe.Slice((*byte)(base), n*size)); err != nil {
			return sinkError(err)
		}
		return nil
	}

	// Strided data, and booleans (written as 0 or 1 whatever byte holds them), go through a
	// buffer.
	chunk := make([]byte, min(npyChunkSize/size, n)*size)
	elements := newStridedWalk(tensor, base)
	for remaining := n * size; remaining > 0; {
		part := chunk[:min(len(chunk), remaining)]
		elements.transfer(part, true)
		fixNpyElements(part, tensor.DType, false)
		if _, err := w.Write(part); err != nil {
			return sinkError(err)
		}
		remaining -= len(part)
	}
	return nil
}

// stridedWalk moves bytes between a buffer and the elements of a tensor in row-major order,
// following the tensor's strides. Trailing axes laid out contiguously are merged into runs,
// each moved with one copy.
type stridedWalk struct {
	base    unsafe.Pointer
	shape   []int64 // the axes outside the runs
	strides []int64 // in bytes
	index   []int64
	offset  int64 // of the current run, in bytes from base
	run     int   // bytes of a run
	done    int   // bytes of the current run already moved
}

// newStridedWalk prepares a walk over a tensor with at least one element, whose data starts
// at base.
func newStridedWalk(t *Tensor, base unsafe.Pointer) *stridedWalk {
	size := int64(t.DType.ElementSize())
	strides := make([]int64, len(t.Shape))
	rowMajor := size
	for axis := len(t.Shape) - 1; axis >= 0; axis-- {
		if t.Strides == nil {
			strides[axis] = rowMajor
		} else {
			strides[axis] = t.Strides[axis] * size
		}
		rowMajor *= t.Shape[axis]
	}
	shape := t.Shape
	run := size
	for len(shape) > 0 {
		last := len(shape) - 1
		if shape[last] != 1 && strides[last] != run {
			break
		}
		run *= shape[last]
		shape, strides = shape[:last], strides[:last]
	}
	return &stridedWalk{base: base, shape: shape, strides: strides, index: make([]int64, len(shape)), run: int(run)}
}

// transfer moves len(buffer) bytes, from the tensor into buffer when gather is true and the
// other way otherwise, continuing where the previous call stopped.
func (s *stridedWalk) transfer(buffer []byte, gather bool) {
	for len(buffer) > 0 {
		memory := unsafe.Slice((*byte)(unsafe.Add(s.base, s.offset+int64(s.done))), s.run-s.done)
		var n int
		if gather {
			n = copy(buffer, memory)
		} else {
			n = copy(memory, buffer)
		}
		buffer = buffer[n:]
		s.done += n
		if s.done == s.run {
			s.done = 0
			s.nextRun()
		}
	}
}

// nextRun moves to the following run, in row-major order of the outer axes.
func (s *stridedWalk) nextRun() {
	for axis := len(s.shape) - 1; axis >= 0; axis-- {
		s.index[axis]++
		s.offset += s.strides[axis]
		if s.index[axis] < s.shape[axis] {
			return
		}
		s.offset -= s.index[axis] * s.strides[axis]
		s.index[axis] = 0
	}
}
