package main

// #include "mtsgo.h"
import "C"

import (
	"unicode/utf8"

	"github.com/metatensor-go/metatensor/internal/core"
)

func implRegisterDataOrigin(name *C.char, origin *C.mts_data_origin_t) error {
	text := C.GoString(name)
	if !utf8.ValidString(text) {
		// The reference fails the same way (status 255) on a name that is not UTF-8.
		return core.Errorf(core.InternalError, "data origin name is not valid UTF-8")
	}
	*origin = C.mts_data_origin_t(core.RegisterOrigin(text))
	return nil
}
