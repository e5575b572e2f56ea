package core

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// byteReader hands out fuzzer bytes, then zeros once they run out.
type byteReader struct{ data []byte }

func (r *byteReader) byte() byte {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

// value gives a label value: usually one of a few small ones, so that rows collide often,
// sometimes any int32 (the extremes included).
func (r *byteReader) value(wide bool) int32 {
	if !wide {
		return int32(int8(r.byte())) >> 5 // -4..3
	}
	var buf [4]byte
	for k := range buf {
		buf[k] = r.byte()
	}
	return int32(binary.LittleEndian.Uint32(buf[:]))
}

// Name characters: valid ones, a leading digit, and invalid ASCII and non-ASCII bytes.
var fuzzNameAlphabet = []string{"a", "b", "_", "Z", "0", "7", "-", " ", "é", "\xff"}

func (r *byteReader) name() string {
	name := ""
	for range int(r.byte() % 4) {
		name += fuzzNameAlphabet[int(r.byte())%len(fuzzNameAlphabet)]
	}
	return name
}

// FuzzNewLabels builds labels from arbitrary names and values: construction must never
// panic, must fail exactly when and how the model says, and must give labels whose every
// entry is found at its own position.
func FuzzNewLabels(f *testing.F) {
	f.Add([]byte{0x02, 1, 0, 1, 1, 0, 32, 64, 96, 128})
	f.Add([]byte{0x03, 1, 0, 1, 1, 1, 2, 0, 0, 0, 32, 0, 0, 0, 32, 0, 0})
	f.Add([]byte{0x41, 1, 2, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0x7f})
	f.Add([]byte{0x80 | 0x02, 1, 0, 1, 1, 32, 32, 32, 32})
	f.Add([]byte{0x20 | 0x01, 1, 3, 1, 2, 3})
	f.Add([]byte{0x00, 5})
	f.Add([]byte{0x02, 2, 4, 0, 1, 4, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &byteReader{data: data}
		flags := r.byte()
		checked := flags&0x80 == 0
		wide := flags&0x40 != 0
		names := make([]string, int(flags%8))
		for i := range names {
			names[i] = r.name()
		}

		var values []int32
		count := 0
		if len(names) == 0 {
			// Without dimensions: a count, and values only when the fuzzer asks for the error.
			count = int(r.byte() % 4)
			if flags&0x20 != 0 {
				values = []int32{r.value(wide)}
			}
		} else {
			for len(r.data) > 0 && len(values) < 1024 {
				values = append(values, r.value(wide))
			}
			count = len(values) / len(names)
			if flags&0x20 != 0 {
				count++ // a shape that does not match the values
			} else {
				values = values[:count*len(names)]
			}
		}

		build := NewLabelsAssumeUnique
		if checked {
			build = NewLabels
		}
		l, err := build(names, values, count)
		if want := modelNewLabelsError(names, values, count, checked); want != "" {
			require.Error(t, err)
			require.Equal(t, want, err.Error())
			require.Nil(t, l)
			return
		}
		require.NoError(t, err)

		if len(names) == 0 {
			require.Equal(t, 0, l.Count())
			_, err := l.Position(nil)
			require.Error(t, err)
			return
		}
		rows := modelRows(values, len(names), count)
		require.Equal(t, names, l.Names())
		require.Equal(t, count, l.Count())
		require.Equal(t, modelIsSorted(rows), l.IsSorted())
		// The first position of every distinct row (a map: the fuzzer likes long inputs).
		firsts := map[string]int{}
		for i, row := range rows {
			if _, ok := firsts[rowKey(row)]; !ok {
				firsts[rowKey(row)] = i
			}
		}
		for i, row := range rows {
			if !slices.Equal(row, l.Row(i)) {
				t.Fatalf("row %d is %v, expected %v", i, l.Row(i), row)
			}
			p, err := l.Position(row)
			require.NoError(t, err)
			// With assume-unique, duplicates are the caller's fault: the first one is found.
			if want := firsts[rowKey(row)]; p != want || (checked && p != i) {
				t.Fatalf("position of row %d (%v) is %d, expected %d", i, row, p, want)
			}
		}
		_, err = l.Position(make([]int32, len(names)+1))
		require.Error(t, err)
	})
}

// rowKey makes a row usable as a map key.
func rowKey(row []int32) string {
	key := make([]byte, 0, 4*len(row))
	for _, v := range row {
		key = binary.LittleEndian.AppendUint32(key, uint32(v))
	}
	return string(key)
}

// fuzzRows reads up to n distinct rows of the given width.
func fuzzRows(r *byteReader, size, n int, wide bool) [][]int32 {
	rows := [][]int32{}
	for range n {
		row := make([]int32, size)
		for k := range row {
			row[k] = r.value(wide)
		}
		if modelPosition(rows, row) < 0 {
			rows = append(rows, row)
		}
	}
	return rows
}

// FuzzSetOperations builds two labels (and a selection) from arbitrary bytes and checks
// union, intersection, difference and select against the model.
func FuzzSetOperations(f *testing.F) {
	f.Add([]byte{0x02, 3, 4, 0, 32, 64, 96, 0, 32, 160, 192, 0xff, 0x01, 2, 32, 64})
	f.Add([]byte{0x13, 8, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte{0x44, 1, 1, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0x80, 1, 1, 1, 1})
	f.Add([]byte{0x80 | 0x01, 2, 2, 0, 32})
	f.Add([]byte{0x00, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &byteReader{data: data}
		flags := r.byte()
		size := int(flags % 6)
		wide := flags&0x40 != 0
		names := []string{"a", "b", "c", "d", "e", "f"}[:size]
		n1, n2 := int(r.byte()%64), int(r.byte()%64)
		a := fuzzRows(r, size, n1, wide)
		b := fuzzRows(r, size, n2, wide)
		if size == 0 {
			a, b = nil, nil
		}
		first := mustLabels(t, names, a, flags&0x08 == 0)
		second := mustLabels(t, names, b, flags&0x10 == 0)
		if flags&0x20 != 0 && len(b) > 0 {
			_, _ = second.Position(b[0]) // an index built before the operation
		}

		if flags&0x80 != 0 {
			// Other dimensions: every operation refuses.
			other := mustLabels(t, append(slices.Clone(names), "z"), nil, true)
			_, _, _, err := Union(first, other)
			require.Error(t, err)
			_, _, _, err = Intersection(other, first)
			require.Error(t, err)
			_, _, err = Difference(first, other)
			require.Error(t, err)
		}

		requireSetOpsAsModel(t, names, a, b, first, second)

		// Select: the selection's names are picked by the bits of one byte, in an order given
		// by another; "z" is not a dimension of the labels.
		pick, order := r.byte(), r.byte()
		selNames := []string{}
		for k, name := range append(slices.Clone(names), "z") {
			if pick&(1<<k) != 0 {
				selNames = append(selNames, name)
			}
		}
		if order&1 != 0 {
			slices.Reverse(selNames)
		}
		if order&2 != 0 {
			selNames = names
		}
		selRows := fuzzRows(r, len(selNames), int(r.byte()%8), wide)
		if len(selNames) == 0 {
			selRows = nil
		}
		selection := mustLabels(t, selNames, selRows, true)
		for _, labels := range []struct {
			rows   [][]int32
			labels *Labels
		}{{a, first}, {b, second}} {
			want, wantErr := modelSelect(names, labels.rows, selNames, selRows)
			requireSelectAsModel(t, labels.labels, selection, want, wantErr)
		}
	})
}
