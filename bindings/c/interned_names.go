package main

// #include "mtsgo.h"
import "C"

import "unsafe"

// Labels made in C share their list of names with the labels made before them that had the
// same names: a program makes labels over a few lists of names again and again, and copying
// each list into Go (a slice and a string per name) was a tenth of the first use in Go of a
// small map over new labels. Names lists are never written once made, so sharing is safe.

// maxInternedNames bounds the lists kept: past it, new lists are copied as before, so a
// program making labels over ever new names keeps no more than this many.
const maxInternedNames = 1024

// internedNames maps the names of a list, each followed by a NUL byte, to the list; under
// materializing, like namesKey.
var (
	internedNames = make(map[string][]string)
	namesKey      []byte
)

// namesOf gives the names of `count` C strings as a Go list shared with earlier labels of
// the same names; the caller holds materializing.
func namesOf(names **C.char, count int) []string {
	cNames := unsafe.Slice(names, count)
	namesKey = namesKey[:0]
	for _, name := range cNames {
		namesKey = append(namesKey, unsafe.Slice((*byte)(unsafe.Pointer(name)), cStringLength(name)+1)...)
	}
	if list, ok := internedNames[string(namesKey)]; ok {
		return list
	}
	list := make([]string, count)
	for i, name := range cNames {
		list[i] = C.GoString(name)
	}
	if len(internedNames) < maxInternedNames {
		internedNames[string(namesKey)] = list
	}
	return list
}
