package core

// CreateArray makes an array that a loader fills: a CPU array of exactly this shape and
// dtype, whose AsDLPack on the CPU exposes writable memory. The C ABI adapts
// mts_create_array_callback_t to it; Go callers usually pass NewHostArray.
type CreateArray func(shape []uintptr, dtype DType) (Array, error)
