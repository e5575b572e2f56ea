// Command c builds libmetatensor.so (go build -buildmode=c-shared): the metatensor C ABI over
// internal/core. The exported functions are generated from spec/api.yaml (exports_gen.go,
// wrappers_gen.c); this package adds what the generator calls: the impl* functions, error
// conversion, object records and the thread-local last error (last_error.c).
package main

// The C files' thread-locals (the last error, the caches of handles and block records) use the
// initial-exec model: each access is then one load from the thread pointer instead of a call
// to __tls_get_addr, which took 6 to 11 % of freeing a map of 1 to 10 blocks (map_free_N).
// The Go runtime's own thread-local already makes the library's whole TLS block static
// (DF_STATIC_TLS), so this takes no static TLS space that the library did not take before.

// #cgo CFLAGS: -I${SRCDIR}/include -std=gnu11 -Wall -Wextra -Wno-unused-parameter -ftls-model=initial-exec
// #cgo LDFLAGS: -pthread
import "C"

func main() {}
