package main

// #include "mtsgo.h"
import "C"

import (
	"unsafe"

	"github.com/metatensor-go/metatensor/internal/core"
)

// reallocSink is a core.SaveSink writing into a caller's buffer that grows through the
// caller's realloc callback: when a write does not fit, the allocation (1024 bytes if there
// is none) doubles until it does, in one call, and the new pointer is stored at once, so the
// caller can free it even if the save fails later. It never shrinks, and never calls realloc
// when the data fits.
type reallocSink struct {
	buffer    **C.uint8_t
	allocated uint64
	written   uint64
	userData  unsafe.Pointer
	realloc   C.mts_realloc_buffer_t
}

func (s *reallocSink) Write(p []byte) (int, error) {
	end := s.written + uint64(len(p))
	if end < s.written {
		return 0, core.Errorf(core.IOError, "requested allocation size overflow")
	}
	if end > s.allocated {
		if err := s.grow(end); err != nil {
			return 0, err
		}
	}
	copy(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(*s.buffer), s.written)), len(p)), p)
	s.written = end
	return len(p), nil
}

func (s *reallocSink) grow(required uint64) error {
	size := s.allocated
	if size == 0 {
		size = 1024
	}
	for size < required {
		if size > ^uint64(0)/2 {
			return core.Errorf(core.IOError, "requested allocation size overflow")
		}
		size *= 2
	}
	grown := C.mtsgo_call_realloc_buffer(s.realloc, s.userData, *s.buffer, C.uintptr_t(size))
	if grown == nil {
		return core.Errorf(core.IOError, "failed to allocate memory with the realloc callback")
	}
	*s.buffer = grown
	s.allocated = size
	return nil
}

// WriteAt patches bytes already written (the zip writer completing a header).
func (s *reallocSink) WriteAt(p []byte, offset int64) (int, error) {
	if offset < 0 || uint64(offset)+uint64(len(p)) > s.written {
		return 0, core.Errorf(core.IOError, "tried to seek past the end of the buffer")
	}
	copy(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(*s.buffer), offset)), len(p)), p)
	return len(p), nil
}

// saveToBuffer runs a save into the caller's buffer for function; on success *count is the
// number of bytes written. A NULL *buffer must come with a zero *count.
func saveToBuffer(function string, buffer **C.uint8_t, count *C.uintptr_t, userData unsafe.Pointer,
	realloc C.mts_realloc_buffer_t, save func(core.SaveSink) error) error {
	if *buffer == nil && *count != 0 {
		return core.Errorf(core.InvalidParameterError, "`buffer` is NULL but `buffer_count` is not 0 in %s", function)
	}
	sink := &reallocSink{buffer: buffer, allocated: uint64(*count), userData: userData, realloc: realloc}
	if err := save(sink); err != nil {
		return err
	}
	*count = C.uintptr_t(sink.written)
	return nil
}
