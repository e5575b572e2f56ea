// Package goname decides every Go name the generators print: in internal/core (statuses,
// DLPack codes), in the export layer (impl* bodies) and in the Go binding (binding.go).
package goname

import (
	"strings"

	"github.com/metatensor-go/metatensor/gen/cname"
	"github.com/metatensor-go/metatensor/gen/text"
)

// initialisms are written in capitals in Go names.
var initialisms = map[string]string{"io": "IO", "id": "ID", "cpu": "CPU", "dlpack": "DLPack", "nan": "NaN"}

// Camel turns snake_case or SCREAMING_CASE into CamelCase.
func Camel(name string) string {
	var b strings.Builder
	for _, word := range text.Words(name) {
		if up, ok := initialisms[word]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}

// LowerCamel is Camel with a lower-case first letter, for Go parameters and variables:
// keys_to_move gives keysToMove.
func LowerCamel(name string) string {
	camel := Camel(name)
	for lower, up := range initialisms {
		if rest, ok := strings.CutPrefix(camel, up); ok {
			return lower + rest
		}
	}
	if camel == "" {
		return ""
	}
	return strings.ToLower(camel[:1]) + camel[1:]
}

// Status names the core constant of an mts_status_t value: MTS_IO_ERROR gives IOError.
func Status(value string) string {
	return Camel(strings.TrimPrefix(value, "MTS_"))
}

// Impl names the hand-written Go function that implements a C function: implLabelsUnion.
func Impl(function string) string {
	return "impl" + Camel(cname.Short(function))
}

// dlpackValuePrefixes gives the Go constants of each DLPack enum a common prefix, so that
// core.DeviceCUDA and core.CodeFloat read as what they are.
var dlpackValuePrefixes = map[string]string{"DLDeviceType": "Device", "DLDataTypeCode": "Code"}

// DLPackEnum names the Go type of a DLPack enum: DLDeviceType gives DeviceType.
func DLPackEnum(enum string) string {
	return strings.TrimPrefix(enum, "DL")
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
