// Package refbench compares the Go API of metatensor with the reference library
// (metatensor-core, through its C API) on labels: creation of 1e6 entries of 3 dimensions,
// with and without the uniqueness check, and position lookups.
//
// Its code needs cgo and the build tag refbench, so that ordinary builds (and
// CGO_ENABLED=0 builds) never see it. The reference library is loaded at run time with
// dlopen, from build/reference/lib/libmetatensor.so (`make reference`) or from the path in
// MTS_REFERENCE_LIBRARY; the benchmarks skip themselves without it.
//
//	go test -tags refbench -bench . -run Ratios -v ./bindings/go/internal/refbench
//
// runs the benchmarks, then TestRatios prints the time of the reference divided by that of
// the Go API for each case (above 1: the Go API is faster).
package refbench
