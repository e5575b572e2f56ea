package metatensor

import "github.com/metatensor-go/metatensor/internal/core"

// Error is the failure of a metatensor operation: a [Status] of the C API and a message.
// Error() gives the message with the status prefix, as the C API reports it
// ("invalid parameter: ...").
//
// errors.Is(err, target) holds for a target *Error of the same status whose message is
// empty (the sentinels below) or equal; errors.As(err, &e) with e a *Error gives the status
// and message.
type Error = core.Error

// Status is the outcome of an operation, with the values of the C API's mts_status_t.
type Status = core.Status

// The status constants (StatusInvalidParameter...) and the sentinel errors
// (ErrInvalidParameter...) are generated from the spec, in api_gen.go.

// invalidf builds an ErrInvalidParameter error with a formatted message.
func invalidf(format string, args ...any) error {
	return core.Errorf(StatusInvalidParameter, format, args...)
}
