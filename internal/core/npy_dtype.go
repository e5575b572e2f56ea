package core

import (
	"strconv"
	"strings"
	"unsafe"
)

// npyTypes maps the kind and size of a numpy type descriptor ("f8" in "<f8") to its dtype;
// these are the only element types the .mts format stores.
var npyTypes = map[string]DType{
	"f2": {CodeFloat, 16, 1}, "f4": {CodeFloat, 32, 1}, "f8": {CodeFloat, 64, 1},
	"i1": {CodeInt, 8, 1}, "i2": {CodeInt, 16, 1}, "i4": {CodeInt, 32, 1}, "i8": {CodeInt, 64, 1},
	"u1": {CodeUInt, 8, 1}, "u2": {CodeUInt, 16, 1}, "u4": {CodeUInt, 32, 1}, "u8": {CodeUInt, 64, 1},
	"b1": {CodeBool, 8, 1}, "c8": {CodeComplex, 64, 1}, "c16": {CodeComplex, 128, 1},
}

// npyKinds is the inverse of npyTypes, for writing.
var npyKinds = func() map[DType]string {
	kinds := make(map[DType]string, len(npyTypes))
	for kind, dtype := range npyTypes {
		kinds[dtype] = kind
	}
	return kinds
}()

// hostLittleEndian tells the byte order arrays have in memory, which is the one files are
// written in.
var hostLittleEndian = func() bool {
	one := uint16(1)
	return *(*byte)(unsafe.Pointer(&one)) == 1
}()

// npyHostOrder is the byte-order prefix of descriptors written on this host.
func npyHostOrder() string {
	if hostLittleEndian {
		return "<"
	}
	return ">"
}

// parseNpyDescr reads a scalar type descriptor such as "<f8" or ">i4". swap tells whether
// the file's byte order is not the host's. '|' (numpy's "not applicable", which it writes for
// one-byte types) is rejected, as the reference does.
func parseNpyDescr(descr string) (dtype DType, swap bool, err error) {
	if len(descr) < 3 {
		return DType{}, false, Errorf(SerializationError, "invalid type descriptor: %s", descr)
	}
	switch descr[0] {
	case '<':
		swap = !hostLittleEndian
	case '>':
		swap = hostLittleEndian
	case '=':
	case '|':
		return DType{}, false, Errorf(SerializationError,
			"endianness '|' (not applicable) is not supported in type descriptor: %s", descr)
	default:
		return DType{}, false, Errorf(SerializationError, "unknown endianness in type descriptor: %s", descr)
	}
	// The size is read as a Rust u8 would be: leading zeros and one '+' are fine.
	size, parseErr := strconv.ParseUint(strings.TrimPrefix(descr[2:], "+"), 10, 8)
	if parseErr != nil {
		return DType{}, false, Errorf(SerializationError, "invalid size in type descriptor: %s", descr)
	}
	dtype, ok := npyTypes[descr[1:2]+strconv.FormatUint(size, 10)]
	if !ok {
		return DType{}, false, Errorf(SerializationError, "unsupported type descriptor: %s", descr)
	}
	return dtype, swap, nil
}

// npyDescr gives the descriptor arrays of dtype are written with, in host byte order.
func npyDescr(dtype DType) (string, error) {
	if dtype.Lanes != 1 {
		return "", Errorf(SerializationError, "unsupported DLPack dtype: lanes != 1 (%d)", dtype.Lanes)
	}
	kind, ok := npyKinds[dtype]
	if !ok {
		return "", Errorf(SerializationError, "unsupported DLPack dtype: code %s, bits %d", dtype.Code, dtype.Bits)
	}
	return npyHostOrder() + kind, nil
}
