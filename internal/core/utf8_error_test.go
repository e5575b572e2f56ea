package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestUTF8Problem(t *testing.T) {
	cases := map[string]string{
		"":                 "",
		"héllo ✓ 😀":        "",
		"\xff":             "invalid utf-8 sequence of 1 bytes from index 0",
		"ab\xc3":           "incomplete utf-8 byte sequence from index 2",
		"\xc0\x80":         "invalid utf-8 sequence of 1 bytes from index 0", // overlong lead byte
		"a\xe0\x80\x80":    "invalid utf-8 sequence of 1 bytes from index 1", // overlong 3-byte form
		"\xed\xa0\x80":     "invalid utf-8 sequence of 1 bytes from index 0", // surrogate
		"\xe2\x82":         "incomplete utf-8 byte sequence from index 0",
		"\xe2\x82x":        "invalid utf-8 sequence of 2 bytes from index 0",
		"ok\xf0\x9f\x98":   "incomplete utf-8 byte sequence from index 2",
		"\xf0\x9f\x98x":    "invalid utf-8 sequence of 3 bytes from index 0",
		"\xf4\x90\x80\x80": "invalid utf-8 sequence of 1 bytes from index 0", // above U+10FFFF
		"\xc3\xa9\xff":     "invalid utf-8 sequence of 1 bytes from index 2",
	}
	for input, want := range cases {
		assert.Equal(t, want, utf8Problem(input), "%q", input)
	}
}
