package core

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Bombs: small archives declaring far more than they hold, built here (never committed).
// Each must fail, or load, in well under a second, allocating at most 64 MiB more than the
// budget lets its entries declare.

// bombEntry is an entry of a hand-written archive: data as stored, with the sizes and CRC it
// declares; sharedWith, when not -1, points the entry at the data of an earlier entry.
type bombEntry struct {
	name       string
	method     uint16
	data       []byte
	size       uint64
	crc        uint32
	sharedWith int
}

func storedEntry(name string, data []byte) bombEntry {
	return bombEntry{name: name, data: data, size: uint64(len(data)), crc: crc32.ChecksumIEEE(data), sharedWith: -1}
}

// deflatedEntry compresses data, then appends zeros copies of a DEFLATE block of one MiB of
// `filler` bytes: a stream that decompresses to gigabytes is built in milliseconds. The CRC
// is only right when mebibytes is 0.
func deflatedEntry(t testing.TB, name string, data []byte, filler byte, mebibytes int) bombEntry {
	var out bytes.Buffer
	writer, err := flate.NewWriter(&out, flate.BestCompression)
	require.NoError(t, err)
	_, err = writer.Write(data)
	require.NoError(t, err)
	require.NoError(t, writer.Flush())
	if mebibytes > 0 {
		var block bytes.Buffer
		blockWriter, err := flate.NewWriter(&block, flate.BestCompression)
		require.NoError(t, err)
		_, err = blockWriter.Write(bytes.Repeat([]byte{filler}, 1<<20))
		require.NoError(t, err)
		require.NoError(t, blockWriter.Flush())
		// Each copy starts with a literal, then repeats the byte before it: valid anywhere.
		out.Write(bytes.Repeat(block.Bytes(), mebibytes))
	}
	out.Write([]byte{0x03, 0x00}) // an empty final block
	return bombEntry{
		name: name, method: zipMethodDeflate, data: out.Bytes(),
		size: uint64(len(data)) + uint64(mebibytes)<<20, crc: crc32.ChecksumIEEE(data), sharedWith: -1,
	}
}

// appendFields appends what local and central headers share, from the flags to the length
// of the name.
func (e bombEntry) appendFields(out []byte, name string) []byte {
	le := binary.LittleEndian
	out = le.AppendUint16(le.AppendUint16(out, 0), e.method)
	out = le.AppendUint32(le.AppendUint32(out, 0x28210000), e.crc)
	out = le.AppendUint32(le.AppendUint32(out, uint32(len(e.data))), uint32(e.size))
	return le.AppendUint16(out, uint16(len(name)))
}

// bombArchive writes the entries, without zip64 records (sizes stay below 4 GiB).
func bombArchive(entries []bombEntry) []byte {
	var out []byte
	le := binary.LittleEndian
	offsets := make([]uint32, len(entries))
	for i, entry := range entries {
		if entry.sharedWith >= 0 {
			offsets[i] = offsets[entry.sharedWith]
			continue
		}
		offsets[i] = uint32(len(out))
		out = le.AppendUint16(le.AppendUint32(out, zipLocalSignature), 20)
		out = le.AppendUint16(entry.appendFields(out, entry.name), 0) // no extra field
		out = append(append(out, entry.name...), entry.data...)
	}
	directory := len(out)
	for i, entry := range entries {
		data := entry
		if entry.sharedWith >= 0 {
			data = entries[entry.sharedWith]
		}
		out = le.AppendUint32(le.AppendUint32(out, zipCentralSignature), 20<<16|20)
		out = data.appendFields(out, entry.name)
		out = append(out, make([]byte, 12)...) // extra, comment, disk, attributes
		out = le.AppendUint32(out, offsets[i])
		out = append(out, entry.name...)
	}
	out = le.AppendUint32(out, zipEndSignature)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint16(out, uint16(len(entries)))
	out = le.AppendUint16(out, uint16(len(entries)))
	out = le.AppendUint32(out, uint32(len(out)-directory-12))
	out = le.AppendUint32(out, uint32(directory))
	return le.AppendUint16(out, 0)
}

// labelsNpy is the labels file of one dimension with the entries 0..count-1.
func labelsNpy(t testing.TB, name string, count int) []byte {
	labels := rangeLabels(t, name, count)
	defer labels.Release()
	sink := &memorySink{}
	require.NoError(t, SaveLabels(sink, labels))
	return sink.data
}

// valuesNpyHeader is the header of a float64 values entry of that shape.
func valuesNpyHeader(t testing.TB, shape ...uintptr) []byte {
	var header bytes.Buffer
	require.NoError(t, writeNpyHeader(&header, &npyHeader{descr: "<f8", shape: shape}))
	return header.Bytes()
}

func createHost(shape []uintptr, dtype DType) (Array, error) {
	array, err := NewHostArray(dtype, shape)
	if err != nil {
		return nil, err
	}
	return array, nil
}

// loadMeasured loads the archive as a tensor map (or a block), giving the error, the bytes
// allocated and the time taken.
func loadMeasured(t *testing.T, archive []byte, block bool) (error, uint64, time.Duration) {
	var err error
	start := time.Now()
	allocated := allocatedBytes(func() {
		if block {
			var loaded *Block
			if loaded, err = LoadBlockBuffer(archive, createHost); err == nil {
				loaded.Free()
			}
			return
		}
		var loaded *TensorMap
		if loaded, err = LoadTensorMapBuffer(archive, createHost); err == nil {
			loaded.Free()
		}
	})
	elapsed := time.Since(start)
	t.Logf("%d-byte archive: %v allocated %d bytes in %v", len(archive), err, allocated, elapsed)
	return err, allocated, elapsed
}

// requireBounded checks the allocation against 64 MiB plus what the budget lets the archive
// declare, and reports the time (asserted loosely: a loaded machine is slow).
func requireBounded(t *testing.T, archive []byte, allocated uint64, elapsed time.Duration) {
	budget, err := newLoadBudget(int64(len(archive)))
	require.NoError(t, err)
	require.Less(t, allocated, 64<<20+budget.allowed)
	require.Less(t, elapsed, 10*time.Second)
}

func TestBombValues(t *testing.T) {
	// 1 GiB of zeros in a 1 MiB block: 8192 samples times 16384 properties.
	values := deflatedEntry(t, "values.npy", valuesNpyHeader(t, 8192, 16384), 0, 1024)
	archive := bombArchive([]bombEntry{
		values,
		storedEntry("samples.npy", labelsNpy(t, "s", 8192)),
		storedEntry("properties.npy", labelsNpy(t, "p", 16384)),
	})
	err, allocated, elapsed := loadMeasured(t, archive, true)
	requireCoreError(t, err, SerializationError, fmt.Sprintf("unable to load a TensorBlock from buffer: "+
		"invalid Zip archive: the entry declares %d bytes (%d bytes compressed), more than this %d-byte "+
		"archive may give: its entries may declare %d bytes in all (16 MiB plus 100 times the size of the "+
		"archive) and %d bytes are left; if the file is trusted, raise the maximum compression ratio with "+
		"the MTS_MAX_COMPRESSION_RATIO environment variable or SetMaxCompressionRatio: at 'values.npy'",
		values.size, len(values.data), len(archive), 16<<20+100*len(archive), 16<<20+100*len(archive)))
	requireBounded(t, archive, allocated, elapsed)
}

func TestBombLabels(t *testing.T) {
	// keys.npy: a labels header declaring 2^28 entries, then 1 GiB of zeros.
	var header bytes.Buffer
	require.NoError(t, writeNpyHeader(&header, &npyHeader{
		structured: true, fields: []npyField{{name: "k", descr: "<i4"}}, shape: []uintptr{1 << 28},
	}))
	archive := bombArchive([]bombEntry{deflatedEntry(t, "keys.npy", header.Bytes(), 0, 1024)})
	err, allocated, elapsed := loadMeasured(t, archive, false)
	require.ErrorContains(t, err, "more than this")
	require.ErrorContains(t, err, ": at 'keys.npy'")
	requireBounded(t, archive, allocated, elapsed)
}

func TestBombInfoJSON(t *testing.T) {
	// The case of the issue: a 2 MiB file whose info.json inflates to 2 GiB.
	info := deflatedEntry(t, infoEntry, []byte(`{"a": "`), ' ', 2048)
	archive := bombArchive([]bombEntry{storedEntry("keys.npy", labelsNpy(t, "k", 0)), info})
	err, allocated, elapsed := loadMeasured(t, archive, false)
	require.ErrorContains(t, err, fmt.Sprintf("the entry declares %d bytes", info.size))
	require.ErrorContains(t, err, ": at 'info.json'")
	requireBounded(t, archive, allocated, elapsed)
}

// nestedGradients is a block whose gradient has a gradient, and so on, depth times; every
// values entry is samples x properties float64 zeros, deflated (or, with shared, the same
// stored data for all).
func nestedGradients(t *testing.T, depth, samples, properties int, shared bool) []byte {
	header := valuesNpyHeader(t, uintptr(samples), uintptr(properties))
	zeros := make([]byte, samples*properties*8)
	values := func(name string) bombEntry {
		if shared {
			return storedEntry(name, append(bytes.Clone(header), zeros...))
		}
		return deflatedEntry(t, name, append(bytes.Clone(header), zeros...), 0, 0)
	}
	entries := []bombEntry{
		values("values.npy"),
		storedEntry("samples.npy", labelsNpy(t, "sample", samples)),
		storedEntry("properties.npy", labelsNpy(t, "p", properties)),
	}
	gradientSamples := labelsNpy(t, "sample", samples)
	prefix := ""
	for range depth {
		prefix += "gradients/g/"
		entry := bombEntry{name: prefix + "values.npy", sharedWith: 0}
		if !shared {
			entry = values(entry.name)
		}
		entries = append(entries, entry, storedEntry(prefix+"samples.npy", gradientSamples))
	}
	return bombArchive(entries)
}

func TestBombNestedGradients(t *testing.T) {
	// 8 MiB of values at each of 64 levels, from about 8 KiB each.
	archive := nestedGradients(t, 64, 1024, 1024, false)
	err, allocated, elapsed := loadMeasured(t, archive, true)
	require.ErrorContains(t, err, "more than this")
	require.ErrorContains(t, err, "gradients/g/values.npy'")
	requireBounded(t, archive, allocated, elapsed)

	// Every level's values pointing at the same stored data.
	archive = nestedGradients(t, 64, 256, 256, true)
	err, allocated, elapsed = loadMeasured(t, archive, true)
	require.ErrorContains(t, err, "invalid Zip archive: the entry's 524416 bytes of data overlap those of "+
		"the entries read before it: only ")
	require.ErrorContains(t, err, ": at 'gradients/g/values.npy'")
	requireBounded(t, archive, allocated, elapsed)

	// Within the budget, the same shape loads.
	archive = nestedGradients(t, 4, 64, 64, false)
	err, allocated, elapsed = loadMeasured(t, archive, true)
	require.NoError(t, err)
	requireBounded(t, archive, allocated, elapsed)
}

// Thousands of blocks among tens of thousands of other entries: finding each block's
// gradients must not scan the whole directory each time.
func TestBombManyTinyEntries(t *testing.T) {
	const blocks, others = 3000, 30000
	header := valuesNpyHeader(t, 1, 1)
	value := append(header, make([]byte, 8)...)
	samples, properties := labelsNpy(t, "s", 1), labelsNpy(t, "p", 1)
	entries := []bombEntry{storedEntry("keys.npy", labelsNpy(t, "k", blocks))}
	for i := range blocks {
		prefix := fmt.Sprintf("blocks/%d/", i)
		entries = append(entries, storedEntry(prefix+"values.npy", value),
			storedEntry(prefix+"samples.npy", samples), storedEntry(prefix+"properties.npy", properties))
	}
	for i := range others {
		entries = append(entries, storedEntry(fmt.Sprintf("blocks/%d/gradients/x/%d", i%blocks, i), nil))
	}
	archive := bombArchive(entries)
	err, allocated, elapsed := loadMeasured(t, archive, false)
	require.NoError(t, err)
	requireBounded(t, archive, allocated, elapsed)
}

// Highly compressible data loads once the ratio allows it: by SetMaxCompressionRatio or, read
// once, by the environment variable.
func TestCompressionRatioIsConfigurable(t *testing.T) {
	t.Cleanup(func() { require.NoError(t, SetMaxCompressionRatio(DefaultMaxCompressionRatio)) })
	// 32 MiB of zeros, in about 32 KiB.
	values := deflatedEntry(t, "values.npy", append(valuesNpyHeader(t, 2048, 2048),
		make([]byte, 2048*2048*8)...), 0, 0)
	archive := bombArchive([]bombEntry{
		values,
		storedEntry("samples.npy", labelsNpy(t, "s", 2048)),
		storedEntry("properties.npy", labelsNpy(t, "p", 2048)),
	})
	err, _, _ := loadMeasured(t, archive, true)
	require.ErrorContains(t, err, "raise the maximum compression ratio")

	require.NoError(t, SetMaxCompressionRatio(2000))
	err, _, _ = loadMeasured(t, archive, true)
	require.NoError(t, err)

	requireCoreError(t, SetMaxCompressionRatio(0), InvalidParameterError,
		"the maximum compression ratio must be at least 1, got 0")

	for _, c := range []struct {
		value string
		ok    bool
	}{{"2000", true}, {"0", false}, {"ten", false}} {
		t.Setenv(MaxCompressionRatioVariable, c.value)
		compressionRatio.once = sync.Once{}
		err, _, _ = loadMeasured(t, archive, true)
		if c.ok {
			require.NoError(t, err)
			continue
		}
		requireCoreError(t, err, InvalidParameterError,
			"MTS_MAX_COMPRESSION_RATIO must be a whole number of at least 1, got '"+c.value+"'")
	}
}
