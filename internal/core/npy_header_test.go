package core

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// npyFile builds the bytes of an NPY file by hand: magic, version major.0, the length of
// dictionary (2 bytes for version 1, 4 otherwise), dictionary as given, then data.
func npyFile(major byte, dictionary string, data []byte) []byte {
	out := append([]byte(npyMagic), major, 0)
	if major == 1 {
		out = binary.LittleEndian.AppendUint16(out, uint16(len(dictionary)))
	} else {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(dictionary)))
	}
	return append(append(out, dictionary...), data...)
}

// expectGot gives a check of a getter's results: want, and no error.
func expectGot[T any](t testing.TB, want T) func(got T, err error) {
	return func(got T, err error) {
		t.Helper()
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
}

// requireCoreError checks the status and message (without the status prefix) of an error.
func requireCoreError(t *testing.T, err error, status Status, message string) {
	t.Helper()
	var coreErr *Error
	require.True(t, errors.As(err, &coreErr), "not a core error: %v", err)
	assert.Equal(t, status, coreErr.Status, coreErr.Message)
	assert.Equal(t, message, coreErr.Message)
}

func readHeaderBytes(data []byte) (npyHeader, int64, error) {
	return readNpyHeader(bytes.NewReader(data))
}

func TestNpyHeaderDictionaryIsTheReferences(t *testing.T) {
	scalar := npyHeader{descr: "<f8", shape: []uintptr{2, 3}}
	assert.Equal(t, "{ 'descr': '<f8', 'fortran_order': False, 'shape': (2, 3, ) }", scalar.dictionary())

	labels := npyHeader{structured: true, fields: []npyField{{"a", "<i4"}, {"b", "<i4"}}, shape: []uintptr{27}}
	assert.Equal(t, "{ 'descr': [('a', '<i4'), ('b', '<i4'), ], 'fortran_order': False, 'shape': (27, ) }",
		labels.dictionary())

	empty := npyHeader{structured: true, shape: []uintptr{0}}
	assert.Equal(t, "{ 'descr': [], 'fortran_order': False, 'shape': (0, ) }", empty.dictionary())

	fortran := npyHeader{descr: "<f8", fortranOrder: true}
	assert.Equal(t, "{ 'descr': '<f8', 'fortran_order': True, 'shape': () }", fortran.dictionary())
}

func TestNpyHeaderEncodePadsToSixtyFour(t *testing.T) {
	header := npyHeader{descr: "<f8", shape: []uintptr{2, 3}}
	encoded, err := header.encode()
	require.NoError(t, err)
	dictionary := "{ 'descr': '<f8', 'fortran_order': False, 'shape': (2, 3, ) }"
	expected := "\x93NUMPY\x01\x00v\x00" + dictionary + strings.Repeat(" ", 128-10-len(dictionary)-1) + "\n"
	assert.Equal(t, expected, string(encoded))

	// Every dictionary length gives a multiple of 64 with at least one byte of padding: when
	// the unpadded header is already a multiple of 64, a whole line of padding is added.
	for name := range 130 {
		header := npyHeader{structured: true, fields: []npyField{{strings.Repeat("x", name), "<i4"}}, shape: []uintptr{1}}
		encoded, err := header.encode()
		require.NoError(t, err)
		unpadded := 10 + len(header.dictionary()) + 1
		assert.Zero(t, len(encoded)%64)
		assert.Equal(t, unpadded+64-unpadded%64, len(encoded))
		assert.Equal(t, byte('\n'), encoded[len(encoded)-1])

		parsed, size, err := readHeaderBytes(encoded)
		require.NoError(t, err)
		assert.Equal(t, int64(len(encoded)), size)
		assert.Equal(t, header, parsed)
	}
}

func TestNpyHeaderVersion2WhenLong(t *testing.T) {
	fields := make([]npyField, 5000)
	for i := range fields {
		fields[i] = npyField{name: strings.Repeat("n", 10) + string(rune('a'+i%26)), descr: "<i4"}
	}
	header := npyHeader{structured: true, fields: fields, shape: []uintptr{1}}
	encoded, err := header.encode()
	require.NoError(t, err)
	assert.Greater(t, len(encoded), 65535)
	assert.Equal(t, "\x93NUMPY\x02\x00", string(encoded[:8]))
	assert.Equal(t, uint32(len(encoded)-12), binary.LittleEndian.Uint32(encoded[8:12]))
	assert.Zero(t, len(encoded)%64)

	parsed, size, err := readHeaderBytes(encoded)
	require.NoError(t, err)
	assert.Equal(t, int64(len(encoded)), size)
	assert.Equal(t, header, parsed)

	// Version 1.0 as long as the length after the 10-byte prefix fits in 16 bits.
	versions := map[byte]int{}
	for n := 65535 - 140; n < 65535; n++ {
		header := npyHeader{descr: strings.Repeat("x", n), shape: []uintptr{1}}
		encoded, err := header.encode()
		require.NoError(t, err)
		unpadded := 10 + len(header.dictionary()) + 1
		fitsVersion1 := unpadded+64-unpadded%64-10 <= 65535
		assert.Equal(t, fitsVersion1, encoded[6] == 1, "descr of %d bytes", n)
		versions[encoded[6]]++
	}
	assert.Len(t, versions, 2, "both versions are reached")
}

func TestReadNpyHeaderVersions(t *testing.T) {
	dictionary := "{'descr': '<f8', 'fortran_order': False, 'shape': (3,)}\n"
	expected := npyHeader{descr: "<f8", shape: []uintptr{3}}
	for _, major := range []byte{1, 2, 3} {
		data := npyFile(major, dictionary, []byte("rest"))
		header, size, err := readHeaderBytes(data)
		require.NoError(t, err, "version %d", major)
		assert.Equal(t, expected, header)
		assert.Equal(t, int64(len(data)-4), size)
	}

	// Version 3.0 allows UTF-8 in the dictionary; 1.0 and 2.0 do not.
	utf8 := "{'descr': [('é', '<i4')], 'fortran_order': False, 'shape': (1,)}\n"
	header, _, err := readHeaderBytes(npyFile(3, utf8, nil))
	require.NoError(t, err)
	assert.Equal(t, []npyField{{"é", "<i4"}}, header.fields)
	for _, major := range []byte{1, 2} {
		_, _, err := readHeaderBytes(npyFile(major, utf8, nil))
		requireCoreError(t, err, SerializationError,
			"non-ascii in array format string; this is not supported in .npy format versions 1.0 and 2.0")
	}
	_, _, err = readHeaderBytes(npyFile(3, "{'descr': [('\xff', '<i4')], 'fortran_order': False, 'shape': (1,)}\n", nil))
	requireCoreError(t, err, SerializationError,
		"error parsing array format string as UTF-8: invalid utf-8 sequence of 1 bytes from index 13")
}

func TestParseNpyDictionaryIsLenient(t *testing.T) {
	labels := npyHeader{structured: true, fields: []npyField{{"a", "<i4"}, {"b", "<i4"}}, shape: []uintptr{27, 3}}
	for _, text := range []string{
		"  \t{'descr': [('a', '<i4'),('b', '<i4'),], 'shape': (27, 3), 'fortran_order':False, }",
		"{\"descr\":[(\"a\",\"<i4\"),(\"b\",\"<i4\")],\"fortran_order\":False,\"shape\":(27,3)}",
		"{ 'descr': [('a', '<i4'), ('b', '<i4'), ], 'fortran_order': False, 'shape': (27, 3, ) }",
		"\f{\f'shape'\f:\f(\f27\f,\f3\f)\f,\f'descr'\f:\f[\f(\f'a'\f,\f'<i4'\f)\f,\f(\f'b'\f,\f'<i4'\f)\f]\f,'fortran_order':False}",
		"{'descr': [('a', '<i4'), ('b', '<i4')], 'fortran_order': False, 'shape': (27, 3)} anything here",
		"{'descr': '<f8', 'fortran_order': True, 'shape': (1,), 'descr': [('a', '<i4'), ('b', '<i4')], 'fortran_order': False, 'shape': (27, 3)}",
	} {
		header, err := parseNpyDictionary(text)
		require.NoError(t, err, text)
		assert.Equal(t, labels, header, text)
	}

	header, err := parseNpyDictionary("{'descr': '>c16', 'fortran_order': True, 'shape': (00, 18446744073709551615)}")
	require.NoError(t, err)
	assert.Equal(t, npyHeader{descr: ">c16", fortranOrder: true, shape: []uintptr{0, 18446744073709551615}}, header)
}

func TestReadNpyHeaderErrors(t *testing.T) {
	valid := "{'descr': '<f8', 'fortran_order': False, 'shape': (3,)}\n"
	for _, c := range []struct {
		data    []byte
		status  Status
		message string
	}{
		{[]byte("\x93NUMPZ\x01\x00"), SerializationError, "start does not match magic string"},
		{[]byte("PK\x03\x04"), IOError, "failed to fill whole buffer"},
		{[]byte("\x93NUMPY\x01"), IOError, "failed to fill whole buffer"},
		{[]byte("\x93NUMPY\x04\x01"), SerializationError, "unknown version number: 4.1"},
		{[]byte("\x93NUMPY\x01\x01\x00\x00"), SerializationError, "unknown version number: 1.1"},
		{[]byte("\x93NUMPY\x01\x00\x10"), IOError, "failed to fill whole buffer"},
		{[]byte("\x93NUMPY\x02\x00\x10\x00\x00"), IOError, "failed to fill whole buffer"},
		{[]byte("\x93NUMPY\x03\x00\xff\xff\xff\xff{}\n"), IOError, "failed to fill whole buffer"},
		{npyFile(1, valid, nil)[:20], IOError, "failed to fill whole buffer"},
		{npyFile(1, "", nil), SerializationError, "invalid header in file: missing new line"},
		{npyFile(1, strings.TrimSuffix(valid, "\n"), nil), SerializationError, "invalid header in file: missing new line"},
	} {
		_, _, err := readHeaderBytes(c.data)
		requireCoreError(t, err, c.status, c.message)
	}
}

func TestParseNpyDictionaryErrors(t *testing.T) {
	for _, c := range []struct{ text, message string }{
		{"{'descr': [], 'fortran_order': False, 'shape': (0, ) }", "expected '(', got ']'"},
		{"{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': ()}", "expected an integer, got ')'"},
		{"{'fortran_order': False, 'shape': (1,)}", "missing 'descr' key"},
		{"{'descr': '<f8', 'shape': (1,)}", "missing 'fortran_order' key"},
		{"{'descr': '<f8', 'fortran_order': False}", "missing 'shape' key"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
			"failed to parse an integer: number too large to fit in target type"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}", "unknown key: 'x'"},
		{"{}", "expected a string, got '}'"},
		{"{'descr': '<f8', 'fortran_order': Fals, 'shape': (1,)}", "expected 'e', got ','"},
		{"{'descr': '<f8', 'fortran_order': maybe, 'shape': (1,)}", "expected a bool, got 'm'"},
		{"{'descr': 5, 'fortran_order': False, 'shape': (1,)}", "expected a string or a list, got '5'"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (a,)}", "expected an integer, got 'a'"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (1 2)}", "expected ')', got '2'"},
		{"{'descr': '<f8' 'fortran_order': False, 'shape': (1,)}", "expected '}', got '''"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': [1]}", "expected '(', got '['"},
		{"{'descr': [('a' '<i4')], 'fortran_order': False, 'shape': (1,)}", "expected ',', got '''"},
		{"{'descr': [('a', '<i4'] 'fortran_order': False, 'shape': (1,)}", "expected ')', got ']'"},
		{"{'descr': [('a', '<i4') ('b', '<i4')], 'fortran_order': False, 'shape': (1,)}", "expected ']', got '('"},
		{"{'descr': [(a, '<i4')], 'fortran_order': False, 'shape': (1,)}", "expected a string, got 'a'"},
		{"{'descr' = '<f8'}", "expected ':', got '='"},
		{"['descr']", "expected '{', got '['"},
		{"{'descr': '<f8'", "expected '}', got the end of the header"},
		// Where the reference indexes past the end of the text (a panic, status 255), the
		// header is reported as invalid.
		{"", "expected '{', got the end of the header"},
		{"{'descr", "expected ''', got the end of the header"},
		{"{'descr': [('a', '<i4'),", "expected '(', got the end of the header"},
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (1,", "expected an integer, got the end of the header"},
		{"{'descr': '<f8', 'fortran_order': Tr", "expected 'u', got the end of the header"},
		{"{'descr': '<f8',", "expected a string, got the end of the header"},
	} {
		_, err := parseNpyDictionary(c.text)
		requireCoreError(t, err, SerializationError, "invalid header in file: "+c.message)
	}
}

func TestStartsWithNpyHeader(t *testing.T) {
	assert.True(t, startsWithNpyHeader(bytes.NewReader(npyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,)}\n", nil))))
	assert.False(t, startsWithNpyHeader(bytes.NewReader([]byte("PK\x03\x04 not an npy file"))))
	assert.False(t, startsWithNpyHeader(bytes.NewReader(nil)))
}

// FuzzNpyHeader reads arbitrary bytes as an NPY header, a data array and labels: nothing may
// panic, a declared size larger than the input may not reach create, and every header that
// parses is written back to bytes that parse to the same header.
func FuzzNpyHeader(f *testing.F) {
	f.Add(npyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 1)}\n", make([]byte, 16)))
	f.Add(npyFile(3, "{'descr': [('a', '>i4'), ('é', '>i4')], 'fortran_order': False, 'shape': (1,)}\n", make([]byte, 8)))
	f.Add(npyFile(2, "{\"shape\":(0,),\"descr\":\"<b1\",\"fortran_order\":False,}xyz\n", nil))
	f.Add(npyFile(1, "{'descr': '>c8', 'fortran_order': False, 'shape': (1000000000000,)}\n", make([]byte, 8)))
	f.Add(npyFile(1, "{'descr': [], 'fortran_order': True, 'shape': ()}\n", nil))
	f.Add([]byte("\x93NUMPY\x03\x00\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		header, size, err := readHeaderBytes(data)
		if err == nil {
			require.LessOrEqual(t, size, int64(len(data)))
			if npyRoundTrips(&header) {
				encoded, err := header.encode()
				require.NoError(t, err)
				again, _, err := readHeaderBytes(encoded)
				require.NoError(t, err)
				require.Equal(t, header, again)
			}
		}

		created := 0
		array, _, err := readNpyArray(bytes.NewReader(data), int64(len(data)), func(shape []uintptr, dtype DType) (Array, error) {
			created++
			n, ok := shapeElements(shape, dtype.ElementSize())
			require.True(t, ok && n*dtype.ElementSize() <= len(data), "create called for %v of %s", shape, dtype)
			return NewHostArray(dtype, shape)
		})
		if err == nil {
			array.Destroy()
		}
		require.LessOrEqual(t, created, 1)

		_, values, count, err := readNpyLabels(bytes.NewReader(data), int64(len(data)))
		if err == nil {
			require.LessOrEqual(t, 4*len(values), len(data))
			require.LessOrEqual(t, count, len(data))
		}
	})
}

// npyRoundTrips tells whether a header can be written and read back unchanged: it has at
// least one dimension and one field, and its strings hold no quote and only ASCII (written in
// a version 1.0 header, as the reference does; label names are ASCII anyway).
func npyRoundTrips(h *npyHeader) bool {
	if len(h.shape) == 0 || (h.structured && len(h.fields) == 0) || !npyPlainString(h.descr) {
		return false
	}
	for _, field := range h.fields {
		if !npyPlainString(field.name) || !npyPlainString(field.descr) {
			return false
		}
	}
	return true
}

func npyPlainString(s string) bool {
	for i := range len(s) {
		if s[i] == '\'' || s[i] >= 0x80 {
			return false
		}
	}
	return true
}
