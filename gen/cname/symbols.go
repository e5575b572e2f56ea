package cname

import "strings"

// The C symbols of the export layer (bindings/c). Every one starts with mtsgo_, so that it
// never clashes with a symbol of the ABI.

// Short drops the library prefix: mts_labels_union gives labels_union, and the extension
// mtsx_block_reduce_over_samples gives x_block_reduce_over_samples.
func Short(function string) string {
	if rest, ok := strings.CutPrefix(function, "mtsx_"); ok {
		return "x_" + rest
	}
	return strings.TrimPrefix(function, "mts_")
}

// Export names the Go function that cgo exports for a C function: mtsgo_labels_union. The C
// function itself is a C wrapper with the exact const-qualified prototype.
func Export(function string) string {
	return "mtsgo_" + Short(function)
}

// CBody is the hand-written C function behind a C-implemented function: the generated
// wrapper checks the arguments, then calls it with the same prototype.
func CBody(function string) string {
	return "mtsgo_c_" + Short(function)
}

// Trampoline names the C helper through which Go calls a vtable member or a callback.
func Trampoline(owner, member string) string {
	owner = strings.TrimSuffix(Short(owner), "_t")
	if member == "" {
		return "mtsgo_call_" + owner
	}
	return "mtsgo_" + owner + "_" + member
}

// StructNew and StructFree name the binding's allocator of the structs of a vtable that the
// library makes (the arrays a member creates): StructNew gives a zeroed struct or NULL when
// memory ran out, StructFree takes back one whose array was destroyed or never made.
func StructNew(vtable string) string { return Trampoline(vtable, "struct_new") }

// StructFree: see StructNew.
func StructFree(vtable string) string { return Trampoline(vtable, "struct_free") }

// RecordKind names the magic number of an object's records (mtsgo.h), which is also its kind
// in the table of caller handles: tensormap gives MTSGO_TENSORMAP_MAGIC.
func RecordKind(object string) string {
	return "MTSGO_" + strings.ToUpper(object) + "_MAGIC"
}

// Record names the local variable of a wrapper holding the record behind the caller's handle
// in parameter param.
func Record(param string) string {
	return param + "_record"
}
