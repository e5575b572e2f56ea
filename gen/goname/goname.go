// Package goname decides every Go name the generators derive from C names, so naming lives
// in one place.
package goname

import "strings"

// initialisms are written in capitals in Go names.
var initialisms = map[string]string{"io": "IO", "id": "ID", "cpu": "CPU", "dlpack": "DLPack"}

// Camel turns snake_case or SCREAMING_CASE into CamelCase.
func Camel(name string) string {
	var b strings.Builder
	for _, part := range strings.Split(strings.ToLower(name), "_") {
		if part == "" {
			continue
		}
		if up, ok := initialisms[part]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// LowerCamel is Camel with a lower-case first letter, for Go parameters and variables:
// keys_to_move gives keysToMove.
func LowerCamel(name string) string {
	camel := Camel(name)
	for up, lower := range map[string]string{"IO": "io", "ID": "id", "CPU": "cpu", "DLPack": "dlpack"} {
		if rest, ok := strings.CutPrefix(camel, up); ok {
			return lower + rest
		}
	}
	if camel == "" {
		return ""
	}
	return strings.ToLower(camel[:1]) + camel[1:]
}

// Status names the Go constant of an mts_status_t value: MTS_IO_ERROR gives IOError.
func Status(cname string) string {
	return Camel(strings.TrimPrefix(cname, "MTS_"))
}

// Short drops the library prefix: mts_labels_union gives labels_union.
func Short(cname string) string {
	return strings.TrimPrefix(cname, "mts_")
}

// Export names the Go function that cgo exports for a C function: mtsgo_labels_union. The C
// function itself is a C wrapper with the exact const-qualified prototype.
func Export(cname string) string {
	return "mtsgo_" + Short(cname)
}

// CBody is the hand-written C function behind a C-implemented function: the generated
// wrapper checks the arguments, then calls it with the same prototype.
func CBody(cname string) string {
	return "mtsgo_c_" + Short(cname)
}

// Impl names the hand-written Go function that implements a C function: implLabelsUnion.
func Impl(cname string) string {
	return "impl" + Camel(Short(cname))
}

// Trampoline names the C helper through which Go calls a vtable member or a callback.
func Trampoline(owner, member string) string {
	owner = strings.TrimSuffix(Short(owner), "_t")
	if member == "" {
		return "mtsgo_call_" + owner
	}
	return "mtsgo_" + owner + "_" + member
}

// dlpackValuePrefixes gives the Go constants of each DLPack enum a common prefix, so that
// core.DeviceCUDA and core.CodeFloat read as what they are.
var dlpackValuePrefixes = map[string]string{"DLDeviceType": "Device", "DLDataTypeCode": "Code"}

// DLPackEnum names the Go type of a DLPack enum: DLDeviceType gives DeviceType.
func DLPackEnum(cname string) string {
	return strings.TrimPrefix(cname, "DL")
}

// DLPackValue names the Go constant of a DLPack enumerator: kDLCUDAHost of DLDeviceType gives
// DeviceCUDAHost.
func DLPackValue(enum, value string) string {
	prefix, ok := dlpackValuePrefixes[enum]
	if !ok {
		prefix = DLPackEnum(enum)
	}
	name := strings.TrimPrefix(value, "kDL")
	return prefix + strings.ToUpper(name[:1]) + strings.ReplaceAll(name[1:], "_", "")
}
