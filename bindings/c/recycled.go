package main

// #include "fastpath.h"
import "C"

import (
	"os"
	"reflect"
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// The Go memory of labels and tensor maps made in C (madeInC, madeTensorMap) is recycled by the
// free of a tensor map that let them go: the next ones Go makes take it while it is still in the
// cache, where a new allocation is memory last touched a collection ago (allocating it and the
// first stores into it were two fifths of making small labels in Go). What lives in that memory
// must be what the labels or map alone use: other labels keep names that may be theirs, so the
// names of labels made in C are allocated apart (core.Asked.NamesKept).
//
// The recycle fast path (MTSGO_FASTPATHS=-recycle switches it off) leaves that memory to the
// collector instead.
//
// MTSGO_RECYCLED=poison fills recycled memory with values no live object has and never reuses
// it, so that the C tests find any read of it after its labels or map went (tests.mk).

var poisonRecycled = os.Getenv("MTSGO_RECYCLED") == "poison"

// spares is recycled memory, at most spareCapacity pieces of each kind, the last in first out.
// Each stack is under the lock its makers hold already (materializing, materializingTensorMaps),
// so that taking a piece costs nothing more, and a free gives all its pieces under one lock.
type spares[T any] struct{ items []*T }

const spareCapacity = 64

var (
	spareMadeInC        spares[madeInC]       // under materializing
	spareMadeTensorMaps spares[madeTensorMap] // under materializingTensorMaps
)

// take gives a piece of cleared memory, recycled or new.
func (s *spares[T]) take() *T {
	n := len(s.items)
	if n == 0 {
		return new(T)
	}
	item := s.items[n-1]
	s.items[n-1] = nil
	s.items = s.items[:n-1]
	return item
}

// give keeps a piece of cleared memory, when there is room.
func (s *spares[T]) give(item *T) {
	if len(s.items) < spareCapacity {
		s.items = append(s.items, item)
	}
}

// recycling tells whether recycled memory is reused: the recycle fast path is on, and the
// memory is not poisoned.
func recycling() bool {
	return !poisonRecycled && C.mtsgo_fastpaths&C.MTSGO_FASTPATH_RECYCLE != 0
}

// newMadeInC gives the memory of new labels made in C; the caller holds materializing.
func newMadeInC() *madeInC { return spareMadeInC.take() }

// newMadeTensorMap gives the memory of a new tensor map made in C; the caller holds
// materializingTensorMaps.
func newMadeTensorMap() *madeTensorMap { return spareMadeTensorMaps.take() }

// recycleMadeInC clears the memory of labels that are gone, nothing referring to it any more,
// for the next labels made in C.
func recycleMadeInC(made []*madeInC) {
	if poisonRecycled {
		for _, m := range made {
			poison(reflect.ValueOf(m).Elem())
		}
		return
	}
	if !recycling() {
		return
	}
	for _, m := range made {
		*m = madeInC{}
	}
	materializing.Lock()
	defer materializing.Unlock()
	for _, m := range made {
		spareMadeInC.give(m)
	}
}

// spareBlocksCapacity is the most blocks whose memory a recycled tensor map keeps (32 KiB
// with their list), which bounds what the kept maps hold on to.
const spareBlocksCapacity = 256

// largeSpare is the memory of one larger recycled map, of more blocks than a map keeps
// (spareBlocksCapacity) and at most spareLargeBlocksCapacity, for the next map of as many
// blocks or fewer: a new allocation of that size is memory the process has not touched yet (a
// page fault every 4 KiB of it). Under materializingTensorMaps.
type largeSpare[T any] struct{ items []T }

// take gives the spare for n items, when n is more than a map keeps and the spare has room.
func (s *largeSpare[T]) take(n int) ([]T, bool) {
	if n <= spareBlocksCapacity || n > cap(s.items) {
		return nil, false
	}
	items := s.items[:n]
	s.items = nil
	return items, true
}

// keep makes cleared memory the spare, when it is larger than the spare and in range.
func (s *largeSpare[T]) keep(items []T) {
	if capacity := cap(items); capacity > spareBlocksCapacity && capacity <= spareLargeBlocksCapacity &&
		capacity > cap(s.items) {
		s.items = items[:0]
	}
}

// spareLargeBlocks is the memory of the blocks of such a map (2 MiB at most), spareLargeList
// the list of its blocks (128 KiB at most).
var (
	spareLargeBlocks largeSpare[blockAndValues]
	spareLargeList   largeSpare[*core.Block]
)

const spareLargeBlocksCapacity = 16384

// recycleMadeTensorMap is recycleMadeInC for a tensor map, which keeps the memory of its lent
// blocks (lendRoom.spare) and the list of its blocks (spareBlocks), or leaves each as the
// larger spare when it is for more blocks than a map keeps. Spare memory is clear all along:
// only the blocks a map used are cleared.
func recycleMadeTensorMap(made *madeTensorMap) {
	used, keep := made.lent.batch.made, made.lent.spare[:0]
	if cap(used) > len(made.lent.few) {
		keep = used[:0] // its own memory, or the spare it took
	} else {
		used = nil // the room's own, cleared with the map
	}
	list, keepList := made.blocks, made.spareBlocks // one of them at most is not nil
	if list != nil {
		keepList = list[:0]
	}
	if poisonRecycled {
		for i := range used {
			poison(reflect.ValueOf(&used[i]).Elem())
		}
		clear(list) // poisoned as pointers are: nil
		poison(reflect.ValueOf(made).Elem())
		return
	}
	if !recycling() {
		return
	}
	clear(used)
	clear(list)
	*made = madeTensorMap{}
	if cap(keep) <= spareBlocksCapacity {
		made.lent.spare = keep
	}
	if cap(keepList) <= spareBlocksCapacity {
		made.spareBlocks = keepList
	}
	materializingTensorMaps.Lock()
	defer materializingTensorMaps.Unlock()
	spareLargeBlocks.keep(keep)
	spareLargeList.keep(keepList)
	spareMadeTensorMaps.give(made)
}

// poisonText is the value of every recycled string: no labels name a dimension so.
const poisonText = "\x00recycled"

// poison sets every number and string in v to a value no live object holds, and every
// reference to nil (a pointer the collector can not follow would crash it); locks are left as
// they are, so that a late use fails on what it reads rather than hangs.
func poison(v reflect.Value) {
	if !v.CanSet() {
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		if v.Type().PkgPath() == "sync" {
			return
		}
		for i := range v.NumField() {
			poison(v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			poison(v.Index(i))
		}
	case reflect.String:
		v.SetString(poisonText)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-0x5a5a5a5a)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(0x5a5a5a5a)
	case reflect.Bool:
		v.SetBool(!v.Bool())
	default: // pointers, slices, maps, interfaces, functions, channels
		v.SetZero()
	}
}
