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
	return packStringLists(1, func(int) []string { return strings })
}

// packStringLists is packStrings for count lists of strings (list(i)), one list after the
// other; both pointers are never nil.
func packStringLists(count int, list func(i int) []string) (text *C.char, lengths *C.size_t) {
	bytes, strings := 0, 0
	for i := range count {
		each := list(i)
		for _, s := range each {
			bytes += len(s)
		}
		strings += len(each)
	}
	packed := make([]byte, 0, bytes+1)      // never empty, so &packed[0] exists
	sizes := make([]C.size_t, 0, strings+1) // the same
	for i := range count {
		for _, s := range list(i) {
			packed = append(packed, s...)
			sizes = append(sizes, C.size_t(len(s)))
		}
	}
	packed, sizes = append(packed, 0), append(sizes, 0)
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
