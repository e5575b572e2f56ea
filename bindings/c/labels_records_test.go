package main

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/metatensor-go/metatensor/internal/core"
)

// testLabels makes labels of one dimension named name, with count entries 0..count-1.
func testLabels(t *testing.T, name string, count int) *core.ArrayLabels {
	values := make([]int32, count)
	for i := range values {
		values[i] = int32(i)
	}
	labels, err := core.NewArrayLabels([]string{name}, core.NewReadOnlyLabelsValues(values, count, 1), true)
	require.NoError(t, err)
	return labels
}

// recordNames reads the names a labels record gives C.
func recordNames(record *_Ctype_struct_mts_labels_t) []string {
	names := []string{}
	for _, name := range unsafe.Slice((**byte)(unsafe.Pointer(record.names)), record.size) {
		length := 0
		for *(*byte)(unsafe.Add(unsafe.Pointer(name), length)) != 0 {
			length++
		}
		names = append(names, unsafe.String(name, length))
	}
	return names
}

// recordReferences is how many references a labels record counts (MTSGO_REFERENCES).
func recordReferences(record *_Ctype_struct_mts_labels_t) uint64 {
	return uint64(record.references) & 0xffffffff
}

// Labels listed more than once get one record, counting one reference per listing; labels that
// had a record keep it; batches larger than one call of referNewLabels agree with each other.
func TestReferLabelsAllMakesOneRecordPerLabels(t *testing.T) {
	for _, listings := range []int{5, 3 * maxReferredLabels} {
		t.Run(fmt.Sprint(listings), func(t *testing.T) {
			distinct := []*core.ArrayLabels{testLabels(t, "a", 2), testLabels(t, "b", 3), testLabels(t, "c", 4)}
			before := holdLabels(distinct[0]) // a record made one at a time
			all := make([]*core.ArrayLabels, listings)
			for i := range all {
				all[i] = distinct[(i+i/3)%len(distinct)] // each listed, not in turn
			}
			records := make([]*_Ctype_struct_mts_labels_t, listings)
			referLabelsAll(all, 1, records)

			counted := map[*_Ctype_struct_mts_labels_t]uint64{before: 1}
			for i, labels := range all {
				record := records[i]
				require.NotNil(t, record, "listing %d", i)
				assert.Equal(t, unsafe.Pointer(record), labels.View().Record(), "listing %d", i)
				assert.Equal(t, labels.Names(), recordNames(record))
				assert.Equal(t, uintptr(labels.Count()), uintptr(record.count))
				object, err := labelsOf(record)
				require.NoError(t, err)
				assert.Same(t, labels, object.labels)
				counted[record]++
			}
			assert.Len(t, counted, len(distinct), "one record per labels")
			for record, references := range counted {
				assert.Equal(t, references, recordReferences(record))
			}
			for record, references := range counted {
				object, err := labelsOf(record)
				require.NoError(t, err)
				dropCReferences(record, object, references-1)
				assert.Equal(t, uint64(1), recordReferences(record), "the record counts every listing")
				dropCReferences(record, object, 1)
			}
			for _, labels := range distinct {
				labels.Release() // NewArrayLabels's reference: the last one, which takes the record
			}
		})
	}
}
