package main

// #include "mtsgo.h"
import "C"

import (
	"unicode/utf8"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// stringTable copies Go strings into one C allocation (see mtsgo_string_table); nil for no
// strings. Release it with C.free.
func stringTable(strings []string) **C.char {
	if len(strings) == 0 {
		return nil
	}
	text, lengths := packStrings(strings)
	table := C.mtsgo_string_table_packed(text, lengths, C.uintptr_t(len(strings)))
	if table == nil {
		panic(core.Errorf(core.InternalError, "out of memory copying %d strings", len(strings)))
	}
	return (**C.char)(unsafe.Pointer(table))
}

// packStrings gives strings as mtsgo_string_table_packed takes them: their bytes one after
// the other, and each one's length; nil pointers for no strings.
func packStrings(strings []string) (text *C.char, lengths *C.size_t) {
	if len(strings) == 0 {
		return nil, nil
	}
	total := 0
	for _, s := range strings {
		total += len(s)
	}
	packed := make([]byte, 0, total+1)
	sizes := make([]C.size_t, len(strings))
	for i, s := range strings {
		packed = append(packed, s...)
		sizes[i] = C.size_t(len(s))
	}
	packed = append(packed, 0) // never empty, so &packed[0] exists
	return (*C.char)(unsafe.Pointer(&packed[0])), &sizes[0]
}

// stringsFromC reads an array of C strings (what names an entry in errors), rejecting NULL
// entries and invalid UTF-8.
func stringsFromC(strings **C.char, count C.uintptr_t, what string) ([]string, error) {
	if count == 0 {
		return nil, nil
	}
	result := make([]string, count)
	for i, s := range unsafe.Slice(strings, count) {
		if s == nil {
			return nil, core.Errorf(core.InvalidParameterError, "got invalid NULL pointer for %s", what)
		}
		result[i] = C.GoString(s)
		if !utf8.ValidString(result[i]) {
			// A panic in the reference, hence the status.
			return nil, core.Errorf(core.InternalError, "%s[%d] is not valid UTF-8", what, i)
		}
	}
	return result, nil
}

// freeStringTable frees a table stringTable made.
func freeStringTable(table **C.char) {
	C.free(unsafe.Pointer(table))
}

// cStringLength is strlen without a call into C, for the short strings of names and keys.
func cStringLength(s *C.char) int {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(s), n)) != 0 {
		n++
	}
	return n
}
