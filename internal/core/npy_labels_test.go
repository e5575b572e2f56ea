package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeNpyLabelsBytes(t *testing.T, names []string, values []int32, count int) []byte {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, writeNpyLabels(&out, names, values, count))
	return out.Bytes()
}

func readNpyLabelsBytes(data []byte) ([]string, []int32, int, error) {
	return readNpyLabels(bytes.NewReader(data), int64(len(data)))
}

func TestNpyLabelsMatchReferenceFiles(t *testing.T) {
	if !hostLittleEndian {
		t.Skip("the reference files were written on a little-endian host")
	}
	for _, c := range []struct {
		file   string
		names  []string
		values []int32
		count  int
	}{
		{"labels_ab.npy", []string{"a", "b"}, []int32{1, 2, 3, -4, 5, 6}, 3},
		{"labels_no_entries.npy", []string{"x"}, []int32{}, 0},
		{"labels_no_names.npy", []string{}, []int32{}, 0},
	} {
		expected, err := os.ReadFile("testdata/npy/" + c.file)
		require.NoError(t, err)
		assert.Equal(t, expected, writeNpyLabelsBytes(t, c.names, c.values, c.count), c.file)

		names, values, count, err := readNpyLabelsBytes(expected)
		if len(c.names) == 0 {
			// The reference writes labels without dimensions as "[]", which it can not read.
			requireCoreError(t, err, SerializationError, "invalid header in file: expected '(', got ']'")
			continue
		}
		require.NoError(t, err, c.file)
		assert.Equal(t, c.names, names)
		assert.Equal(t, c.values, values)
		assert.Equal(t, c.count, count)
	}
}

func TestNpyLabelsVersion2WhenLong(t *testing.T) {
	if !hostLittleEndian {
		t.Skip("the reference hash is of a little-endian file")
	}
	// testdata/npy/labels_5000_names.sha256 holds the hash and size of what the reference
	// writes for these labels (too large to keep).
	reference, err := os.ReadFile("testdata/npy/labels_5000_names.sha256")
	require.NoError(t, err)
	names := make([]string, 5000)
	for i := range names {
		names[i] = fmt.Sprintf("dimension_%05d", i)
	}
	values := make([]int32, len(names))
	data := writeNpyLabelsBytes(t, names, values, 1)
	assert.Equal(t, "\x93NUMPY\x02\x00", string(data[:8]))
	assert.Equal(t, strings.TrimSpace(string(reference)), fmt.Sprintf("%x %d", sha256.Sum256(data), len(data)))

	readNames, readValues, count, err := readNpyLabelsBytes(data)
	require.NoError(t, err)
	assert.Equal(t, names, readNames)
	assert.Equal(t, values, readValues)
	assert.Equal(t, 1, count)
}

func TestReadNpyLabelsBigEndian(t *testing.T) {
	data := npyFile(1, "{'descr': [('a', '>i4'), ('b', '>i4')], 'fortran_order': False, 'shape': (2,)}\n", nil)
	for _, v := range []int32{1, -2, 300000, 7} {
		data = binary.BigEndian.AppendUint32(data, uint32(v))
	}
	names, values, count, err := readNpyLabelsBytes(data)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, names)
	assert.Equal(t, []int32{1, -2, 300000, 7}, values)
	assert.Equal(t, 2, count)

	// Little-endian, in any version, with the names as written.
	data = npyFile(3, "{\"descr\": [(\"é\", \"<i4\")], \"fortran_order\": False, \"shape\": (1,)}\n", []byte{5, 0, 0, 0})
	names, values, count, err = readNpyLabelsBytes(data)
	require.NoError(t, err)
	assert.Equal(t, []string{"é"}, names)
	assert.Equal(t, []int32{5}, values)
	assert.Equal(t, 1, count)
}

func TestReadNpyLabelsErrors(t *testing.T) {
	labels := func(descr, shape string, data int) []byte {
		return npyFile(1, fmt.Sprintf("{'descr': %s, 'fortran_order': False, 'shape': %s}\n", descr, shape), make([]byte, data))
	}
	// Each message, with the files that get it.
	for _, c := range []struct {
		data    [][]byte
		status  Status
		message string
	}{
		{[][]byte{npyFile(1, "{'descr': [('a', '<i4')], 'fortran_order': True, 'shape': (1, 2)}\n", make([]byte, 8))},
			SerializationError, "Labels can not be loaded from fortran-order arrays"},
		{[][]byte{labels("[('a', '<i4')]", "(1, 2)", 8), labels("'<i4'", "(2, 2)", 16)},
			SerializationError, "Expected a 1-D array when loading Labels"},
		{[][]byte{
			labels("'<i4'", "(2,)", 8),
			labels("[('a', '<i4'), ('b', '>i4')]", "(1,)", 8),
			labels("[('a', '>i4'), ('b', '<i4')]", "(1,)", 8),
			labels("[('a', '=i4')]", "(1,)", 4),
			labels("[('a', '<i8')]", "(1,)", 8),
			labels("[('a', '<u4')]", "(1,)", 4),
		}, SerializationError, "invalid dtype for labels"},
		{[][]byte{labels("[]", "(0,)", 0)}, SerializationError, "invalid header in file: expected '(', got ']'"},
		{[][]byte{labels("[('a', '<i4')]", "(2,)", 9)}, SerializationError, "found 1 extra bytes after the expected end of data"},
		{[][]byte{
			labels("[('a', '<i4')]", "(2,)", 7),
			labels("[('a', '<i4'), ('b', '<i4')]", "(1000000000000,)", 8),
			labels("[('a', '<i4'), ('b', '<i4')]", "(18446744073709551615,)", 8),
		}, IOError, "failed to fill whole buffer"},
		{[][]byte{[]byte("\x93NUMPY\x09\x00")}, SerializationError, "unknown version number: 9.0"},
	} {
		for _, data := range c.data {
			_, _, _, err := readNpyLabelsBytes(data)
			requireCoreError(t, err, c.status, c.message)
		}
	}

	// Data larger than the declared size of the entry is refused before it is allocated, and
	// an entry shorter than its declared size is truncated.
	data := labels("[('a', '<i4')]", "(2,)", 8)
	_, _, _, err := readNpyLabels(bytes.NewReader(data), int64(len(data)-1))
	requireCoreError(t, err, IOError, "failed to fill whole buffer")
	_, _, _, err = readNpyLabels(bytes.NewReader(data[:len(data)-1]), int64(len(data)))
	requireCoreError(t, err, IOError, "failed to fill whole buffer")
}

func TestWriteNpyLabels(t *testing.T) {
	data := writeNpyLabelsBytes(t, []string{"o3_lambda", "center_type"}, []int32{0, 1, 2, 8}, 2)
	dictionary := "{ 'descr': [('o3_lambda', '" + npyHostOrder() + "i4'), ('center_type', '" + npyHostOrder() +
		"i4'), ], 'fortran_order': False, 'shape': (2, ) }"
	assert.Equal(t, "\x93NUMPY\x01\x00v\x00"+dictionary, string(data[:10+len(dictionary)]))
	assert.Len(t, data, 128+16)

	// Labels without dimensions keep their count.
	data = writeNpyLabelsBytes(t, nil, nil, 3)
	assert.Contains(t, string(data), "{ 'descr': [], 'fortran_order': False, 'shape': (3, ) }")

	err := writeNpyLabels(&bytes.Buffer{}, []string{"a", "b"}, []int32{1, 2, 3}, 2)
	requireCoreError(t, err, InvalidParameterError, "invalid labels to save: 3 values for 2 entries of 2 dimensions")
	err = writeNpyLabels(&failingWriter{limit: 128, err: fmt.Errorf("disk full")}, []string{"a"}, []int32{1}, 1)
	requireCoreError(t, err, IOError, "disk full")
	err = writeNpyLabels(&failingWriter{limit: 0, err: fmt.Errorf("disk full")}, []string{"a"}, []int32{1}, 1)
	requireCoreError(t, err, IOError, "disk full")
}
