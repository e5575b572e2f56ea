package core

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

func TestUTF8ReaderAcceptsUTF8WhateverTheReads(t *testing.T) {
	text := []byte("a é ü € 𝄞 \uFFFD z")
	for _, wrap := range []func(io.Reader) io.Reader{
		func(r io.Reader) io.Reader { return r },
		iotest.OneByteReader,
		iotest.HalfReader,
		iotest.DataErrReader,
	} {
		got, err := io.ReadAll(newUTF8Reader(wrap(bytes.NewReader(text)), "x"))
		require.NoError(t, err)
		require.Equal(t, text, got)
	}
}

func TestUTF8ReaderFindsTheFirstInvalidSequence(t *testing.T) {
	for _, c := range []struct {
		text    string
		message string
	}{
		{"ab\xffcd", "'x' is not valid UTF-8: invalid sequence at byte 2"},
		{"é\xc3(", "'x' is not valid UTF-8: invalid sequence at byte 2"},
		{"ab\xed\xa0\x80", "'x' is not valid UTF-8: invalid sequence at byte 2"}, // a surrogate
		{"\xc0\xafab", "'x' is not valid UTF-8: invalid sequence at byte 0"},     // overlong
		{"abc€\x80", "'x' is not valid UTF-8: invalid sequence at byte 6"},
		{"abc\xe2\x82", "'x' is not valid UTF-8: it ends inside a sequence at byte 3"},
	} {
		for _, oneByte := range []bool{false, true} {
			var source io.Reader = bytes.NewReader([]byte(c.text))
			if oneByte {
				source = iotest.OneByteReader(source)
			}
			_, err := io.ReadAll(newUTF8Reader(source, "x"))
			requireCoreError(t, err, SerializationError, c.message)
		}
	}
}

// The reference rejects an info.json that is not UTF-8; the JSON decoder alone would replace
// the bytes with U+FFFD and load it.
func TestInfoJSONMustBeUTF8(t *testing.T) {
	var info Info
	err := decodeInfoJSON([]byte("{\"a\": \"b\xff\"}"), &info)
	requireCoreError(t, err, SerializationError, "'info.json' is not valid UTF-8: invalid sequence at byte 8")
	require.Zero(t, info.Len())
}
