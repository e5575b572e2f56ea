// Command c builds libmetatensor.so (go build -buildmode=c-shared): the metatensor C ABI over
// internal/core. The exported functions are generated from spec/api.yaml (exports_gen.go,
// wrappers_gen.c); this package adds what the generator calls: the impl* functions, error
// conversion, object records and the thread-local last error (last_error.c).
package main

// #cgo CFLAGS: -I${SRCDIR}/include -std=gnu11 -Wall -Wextra -Wno-unused-parameter
// #cgo LDFLAGS: -pthread
import "C"

func main() {}
