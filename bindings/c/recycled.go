package main

import (
	"os"
	"reflect"
	"sync"
	"unsafe"
)

// The Go memory of labels and tensor maps made in C (madeInC, madeTensorMap) is recycled by the
// free of a tensor map that let them go: the next ones Go makes take it while it is still in the
// cache, where a new allocation is memory last touched a collection ago (allocating it and the
// first stores into it were two fifths of making small labels in Go). What lives in that memory must be what the
// labels or map alone use: other labels keep names that may be theirs, so the names of labels
// made in C are allocated apart (core.Asked.NamesKept).
//
// MTSGO_RECYCLED=poison fills recycled memory with values no live object has and never reuses
// it, so that the C tests find any read of it after its labels or map went (tests.mk).

var (
	spareMadeInC        = sync.Pool{New: func() any { return new(madeInC) }}
	spareMadeTensorMaps = sync.Pool{New: func() any { return new(madeTensorMap) }}
	poisonRecycled      = os.Getenv("MTSGO_RECYCLED") == "poison"
)

func newMadeInC() *madeInC { return spareMadeInC.Get().(*madeInC) }

func newMadeTensorMap() *madeTensorMap { return spareMadeTensorMaps.Get().(*madeTensorMap) }

// recycleMadeInC clears the memory of labels that are gone for the next labels made in C.
func recycleMadeInC(made *madeInC) {
	if poisonRecycled {
		poison(reflect.ValueOf(made).Elem())
		return
	}
	*made = madeInC{}
	spareMadeInC.Put(made)
}

// recycleMadeTensorMap is recycleMadeInC for a tensor map.
func recycleMadeTensorMap(made *madeTensorMap) {
	if poisonRecycled {
		poison(reflect.ValueOf(made).Elem())
		return
	}
	*made = madeTensorMap{}
	spareMadeTensorMaps.Put(made)
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
