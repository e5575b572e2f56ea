package main

// #include "fastpath.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The Go side of the info fast path (fastpath_info.c): the info set in C on a tensor map made
// in C, copied when Go makes the map. The record keeps the C entries until it is freed, so
// that the values get_info handed out stay valid, and are handed out again while their key
// keeps that value (cInfoValue).

// cInfoOf gives the info set in C on a record made in C, in order.
func cInfoOf(record *C.struct_mts_tensormap_t) (core.Info, error) {
	var info core.Info
	c := record.c_info
	if c == nil {
		return info, nil
	}
	values := unsafe.Slice(c.values, c.count)
	for i, key := range unsafe.Slice(c.keys, c.count) {
		if err := info.Set(C.GoString(key), C.GoString(values[i])); err != nil {
			return core.Info{}, err // C set plain ASCII keys only: can not happen
		}
	}
	return info, nil
}

// cInfoValue gives the C string of the value set in C for key when it is still value, else
// nil.
func cInfoValue(record *C.struct_mts_tensormap_t, key, value string) *C.char {
	c := record.c_info
	if c == nil {
		return nil
	}
	values := unsafe.Slice(c.values, c.count)
	for i, k := range unsafe.Slice(c.keys, c.count) {
		if cStringIs(k, key) {
			if cStringIs(values[i], value) {
				return values[i]
			}
			return nil
		}
	}
	return nil
}

// cStringIs tells whether the NUL-terminated C string s holds exactly text (which has no NUL),
// reading no byte past the first that differs.
func cStringIs(s *C.char, text string) bool {
	p := unsafe.Pointer(s)
	for i := 0; i < len(text); i++ {
		if *(*byte)(unsafe.Add(p, i)) != text[i] {
			return false
		}
	}
	return *(*byte)(unsafe.Add(p, len(text))) == 0
}
