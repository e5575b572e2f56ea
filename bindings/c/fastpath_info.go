package main

// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The Go side of the info fast path (fastpath_info.c): the info set in C on a tensor map made
// in C, taken over when Go makes the map.

// cInfoOf gives the info set in C on a record made in C, in order, and the C strings of its
// values, which get_info may have handed out: they stay valid until their key is set again, so
// the Go tensor map keeps them (tensorMapObject.values) once takeCInfo marked them its own.
func cInfoOf(record *C.struct_mts_tensormap_t) (core.Info, map[string]*C.char, error) {
	var info core.Info
	c := record.c_info
	if c == nil || c.count == 0 {
		return info, nil, nil
	}
	keys := unsafe.Slice(c.keys, c.count)
	values := unsafe.Slice(c.values, c.count)
	strings := make(map[string]*C.char, len(keys))
	for i, key := range keys {
		text := C.GoString(key)
		if err := info.Set(text, C.GoString(values[i])); err != nil {
			return core.Info{}, nil, err // C set plain ASCII keys only: can not happen
		}
		strings[text] = values[i]
	}
	return info, strings, nil
}

// takeCInfo marks the values of the info set in C as the Go tensor map's: the record frees
// only the keys.
func takeCInfo(record *C.struct_mts_tensormap_t) {
	if record.c_info != nil {
		record.c_info.values_taken = 1
	}
}
