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
	total := 0
	for _, s := range strings {
		total += len(s)
	}
	text := make([]byte, 0, total+1)
	lengths := make([]C.size_t, len(strings))
	for i, s := range strings {
		text = append(text, s...)
		lengths[i] = C.size_t(len(s))
	}
	text = append(text, 0) // never empty, so &text[0] exists
	table := C.mtsgo_string_table_packed((*C.char)(unsafe.Pointer(&text[0])), &lengths[0], C.uintptr_t(len(strings)))
	if table == nil {
		panic(core.Errorf(core.InternalError, "out of memory copying %d strings", len(strings)))
	}
	return (**C.char)(unsafe.Pointer(table))
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
