// Package core is the pure-Go implementation of metatensor: labels, arrays, blocks, tensor
// maps and the .mts format. It knows nothing of C; bindings/c adapts it to the C ABI and
// bindings/go to Go programs.
package core

import "fmt"

// Error is a failure of a core operation: a status of the C ABI plus a message. The message
// does not include the status prefix ("invalid parameter: "...): Error() adds it.
type Error struct {
	Status  Status
	Message string
}

// Error gives the message as the C ABI reports it, prefix included.
func (e *Error) Error() string {
	return e.Status.Prefix() + e.Message
}

// Is makes errors.Is match any *Error of the same status, so callers can test
// errors.Is(err, &core.Error{Status: core.InvalidParameterError}).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status && (t.Message == "" || t.Message == e.Message)
}

// Errorf builds an *Error with a formatted message.
func Errorf(status Status, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// NotImplemented is the error of a C function whose core is not built yet.
func NotImplemented(function string) *Error {
	return Errorf(InternalError, "not implemented yet: %s", function)
}
