package main

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// namesFromC runs namesOf over a C copy of names, under materializing as it expects.
func namesFromC(names []string) []string {
	table := stringTable(names)
	defer freeStringTable(table)
	materializing.Lock()
	defer materializing.Unlock()
	return namesOf(table, len(names))
}

func TestNamesListsAreSharedByContent(t *testing.T) {
	first := namesFromC([]string{"system", "atom"})
	again := namesFromC([]string{"system", "atom"})
	assert.Equal(t, []string{"system", "atom"}, first)
	assert.Equal(t, unsafe.SliceData(first), unsafe.SliceData(again), "the same names share one list")

	joined := namesFromC([]string{"systematom"})
	split := namesFromC([]string{"sys", "tematom"})
	assert.Equal(t, []string{"systematom"}, joined)
	assert.Equal(t, []string{"sys", "tematom"}, split)
	assert.NotEqual(t, unsafe.SliceData(joined), unsafe.SliceData(split))

	empty := namesFromC([]string{""})
	assert.Equal(t, []string{""}, empty)
}

func TestNamesListsKeptAreBounded(t *testing.T) {
	for i := range maxInternedNames + 10 {
		name := fmt.Sprintf("bounded_%d", i)
		assert.Equal(t, []string{name, "x"}, namesFromC([]string{name, "x"}))
	}
	materializing.Lock()
	kept := len(internedNames)
	materializing.Unlock()
	assert.LessOrEqual(t, kept, maxInternedNames)
	// Past the bound, lists are still right, only no longer shared.
	last := fmt.Sprintf("bounded_%d", maxInternedNames+9)
	assert.Equal(t, []string{last, "x"}, namesFromC([]string{last, "x"}))
}
