package core

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var zipFixtures = []string{"tensor.mts", "block.mts", "deflate.mts", "savez.npz", "savez_compressed.npz"}

// readWithArchiveZip reads every entry with Go's archive/zip, in directory order.
func readWithArchiveZip(t testing.TB, archive []byte) []zipTestEntry {
	t.Helper()
	reader, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	require.NoError(t, err)
	var entries []zipTestEntry
	for _, file := range reader.File {
		content, err := file.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(content)
		require.NoError(t, err)
		entries = append(entries, zipTestEntry{file.Name, data})
	}
	return entries
}

// Every fixture reads as archive/zip reads it; the DEFLATE copy of tensor.mts has its
// entries; numpy's two writers store the same arrays.
func TestZipReaderFixtures(t *testing.T) {
	read := map[string][]zipTestEntry{}
	for _, fixture := range zipFixtures {
		archive := readZipFixture(t, fixture)
		read[fixture] = readZipEntries(t, archive)
		require.Equal(t, readWithArchiveZip(t, archive), read[fixture], fixture)
	}
	var names []string
	for _, entry := range read["tensor.mts"] {
		names = append(names, entry.name)
	}
	require.Equal(t, []string{
		"keys.npy",
		"blocks/0/values.npy", "blocks/0/samples.npy", "blocks/0/components/0.npy", "blocks/0/properties.npy",
		"blocks/0/gradients/positions/values.npy", "blocks/0/gradients/positions/samples.npy",
		"blocks/0/gradients/positions/components/0.npy", "blocks/0/gradients/positions/components/1.npy",
		"blocks/1/values.npy", "blocks/1/samples.npy", "blocks/1/components/0.npy", "blocks/1/properties.npy",
		"blocks/1/gradients/positions/values.npy", "blocks/1/gradients/positions/samples.npy",
		"blocks/1/gradients/positions/components/0.npy", "blocks/1/gradients/positions/components/1.npy",
		"info.json",
	}, names)
	require.Equal(t, "{\n  \"test\": \"value\"\n}", string(read["tensor.mts"][len(names)-1].data))
	require.Equal(t, read["tensor.mts"], read["deflate.mts"])
	require.Equal(t, read["savez.npz"], read["savez_compressed.npz"])
	require.Equal(t, "gradients/é/values.npy", read["block.mts"][4].name)

	block := readZipFixture(t, "block.mts")
	archive, err := openZip(bytes.NewReader(block), int64(len(block)))
	require.NoError(t, err)
	require.True(t, archive.Has("values.npy"))
	require.False(t, archive.Has("keys.npy"))
}

// What archive/zip writes: stored and DEFLATE entries, with data descriptors, empty ones, and
// with bytes before the archive.
func TestZipReaderReadsArchiveZip(t *testing.T) {
	entries := []zipTestEntry{
		{"stored", zipTestPattern(1000)},
		{"deflated", zipTestPattern(3 << 20)},
		{"empty stored", nil},
		{"empty deflated", nil},
		{"dir/é", []byte("utf-8 name")},
	}
	var buffer bytes.Buffer
	writer := zip.NewWriter(&buffer)
	for _, entry := range entries {
		method := zip.Deflate
		if bytes.HasPrefix([]byte(entry.name), []byte("stored")) || entry.name == "empty stored" {
			method = zip.Store
		}
		w, err := writer.CreateHeader(&zip.FileHeader{Name: entry.name, Method: method})
		require.NoError(t, err)
		_, err = w.Write(entry.data)
		require.NoError(t, err)
	}
	require.NoError(t, writer.Close())
	for i := range entries {
		if entries[i].data == nil {
			entries[i].data = []byte{}
		}
	}

	require.Equal(t, entries, readZipEntries(t, buffer.Bytes()))
	prefixed := append([]byte("#!/bin/sh\nexit 0\n"), buffer.Bytes()...)
	require.Equal(t, entries, readZipEntries(t, prefixed))
}

// archive/zip writes the zip64 end record and locator beyond 65535 entries.
func TestZipReaderReadsArchiveZipZip64(t *testing.T) {
	var buffer bytes.Buffer
	writer := zip.NewWriter(&buffer)
	const count = zip64EntriesMarker + 2
	for i := range count {
		w, err := writer.CreateHeader(&zip.FileHeader{Name: fmt.Sprint(i), Method: zip.Store})
		require.NoError(t, err)
		_, err = fmt.Fprint(w, "entry ", i)
		require.NoError(t, err)
	}
	require.NoError(t, writer.Close())
	written := buffer.Bytes()
	require.Equal(t, uint32(zipEnd64LocatorSignature),
		binary.LittleEndian.Uint32(written[len(written)-zipEndSize-zipEnd64LocatorSize:]))

	for _, prefix := range []string{"", "bytes before the archive"} {
		archive := append([]byte(prefix), written...)
		reader, err := openZip(bytes.NewReader(archive), int64(len(archive)))
		require.NoError(t, err)
		require.Len(t, reader.Names(), count)
		entry, size, err := reader.Open(fmt.Sprint(count - 1))
		require.NoError(t, err)
		data, err := io.ReadAll(entry)
		require.NoError(t, err)
		require.Equal(t, fmt.Sprint("entry ", count-1), string(data))
		require.Equal(t, int64(len(data)), size)
	}
}

// zip64Archive is one entry whose central record keeps its sizes and offset in a zip64 extra
// field (after another extra field), with a zip64 end record; all the sizes are given.
func zip64Archive(method uint16, data []byte, crc uint32, compressed, uncompressed, entries uint64) []byte {
	le := binary.LittleEndian
	var out []byte
	out = le.AppendUint32(out, zipLocalSignature)
	out = append(out, make([]byte, 22)...)
	out = le.AppendUint16(out, 1) // name length
	out = le.AppendUint16(out, 0)
	out = append(out, 'x')
	out = append(out, data...)

	directoryStart := uint64(len(out))
	out = le.AppendUint32(out, zipCentralSignature)
	out = le.AppendUint16(out, zipVersionMadeBy)
	out = le.AppendUint16(out, zipVersionNeeded64)
	out = le.AppendUint16(out, 0)
	out = le.AppendUint16(out, method)
	out = le.AppendUint32(out, 0) // time and date
	out = le.AppendUint32(out, crc)
	out = le.AppendUint32(out, zip64Marker)
	out = le.AppendUint32(out, zip64Marker)
	out = le.AppendUint16(out, 1)           // name
	out = le.AppendUint16(out, 8+28)        // extra
	out = append(out, make([]byte, 10)...)  // comment length, disk, attributes
	out = le.AppendUint32(out, zip64Marker) // header offset
	out = append(out, 'x')
	out = le.AppendUint16(out, 0x5455) // a timestamp field, skipped
	out = le.AppendUint16(out, 4)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint16(out, zip64ExtraID)
	out = le.AppendUint16(out, 24)
	out = le.AppendUint64(out, uncompressed)
	out = le.AppendUint64(out, compressed)
	out = le.AppendUint64(out, 0)
	directorySize := uint64(len(out)) - directoryStart

	end64Start := uint64(len(out))
	out = le.AppendUint32(out, zipEnd64Signature)
	out = le.AppendUint64(out, 44)
	out = le.AppendUint32(out, 45<<16|45)
	out = le.AppendUint64(out, 0) // disks
	out = le.AppendUint64(out, entries)
	out = le.AppendUint64(out, entries)
	out = le.AppendUint64(out, directorySize)
	out = le.AppendUint64(out, directoryStart)
	out = le.AppendUint32(out, zipEnd64LocatorSignature)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint64(out, end64Start)
	out = le.AppendUint32(out, 1)
	out = le.AppendUint32(out, zipEndSignature)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint32(out, math.MaxUint32) // entries
	out = le.AppendUint64(out, math.MaxUint64) // directory size and start
	out = le.AppendUint16(out, 0)
	return out
}

func TestZipReaderZip64ExtraFields(t *testing.T) {
	data := []byte("zip64 fields")
	archive := zip64Archive(zipMethodStored, data, crc32.ChecksumIEEE(data), uint64(len(data)), uint64(len(data)), 1)
	require.Equal(t, []zipTestEntry{{"x", data}}, readZipEntries(t, archive))
	require.Equal(t, []zipTestEntry{{"x", data}}, readWithArchiveZip(t, archive))
}

// zipTestArchive has two stored entries, written by our writer, for tests to damage.
func zipTestArchive(t testing.TB) []byte {
	return zipBytes(t, []zipTestEntry{{"a.npy", []byte("hello world")}, {"b.npy", zipTestPattern(100)}})
}

// Offsets in zipTestArchive.
const (
	zipTestDataA     = zipLocalSize + 5 + zipLocalExtraSize
	zipTestCentralA  = 2*(zipLocalSize+5+zipLocalExtraSize) + 11 + 100
	zipTestCentralB  = zipTestCentralA + zipCentralSize + 5
	zipTestEndRecord = zipTestCentralB + zipCentralSize + 5
)

// openAndRead opens an archive and reads one entry of it through io.ReadFull, as loaders do.
func openAndRead(archive []byte, name string) ([]byte, error) {
	reader, err := openZip(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, err
	}
	entry, size, err := reader.Open(name)
	if err != nil {
		return nil, err
	}
	data := make([]byte, size)
	_, err = io.ReadFull(entry, data)
	return data, err
}

// The reference's messages (checked against metatensor-core 0.2.6 for every case it has, with
// the same damage), or ours where the zip crate does not check.
func TestZipReaderErrors(t *testing.T) {
	patch := func(at int, value any) []byte {
		archive := zipTestArchive(t)
		var buffer bytes.Buffer
		require.NoError(t, binary.Write(&buffer, binary.LittleEndian, value))
		copy(archive[at:], buffer.Bytes())
		return archive
	}
	deflated := func(change func(header *zip.FileHeader)) []byte {
		var buffer bytes.Buffer
		writer := zip.NewWriter(&buffer)
		header := &zip.FileHeader{Name: "a.npy", Method: zip.Deflate}
		w, err := writer.CreateHeader(header)
		require.NoError(t, err)
		_, err = w.Write(bytes.Repeat([]byte("hello "), 1000))
		require.NoError(t, err)
		require.NoError(t, writer.Close())
		archive := buffer.Bytes()
		if change != nil {
			// The central record is the only one with sizes: the local one has a descriptor.
			central := bytes.LastIndex(archive, []byte("PK\x01\x02"))
			var copied zip.FileHeader
			copied.CompressedSize64 = uint64(binary.LittleEndian.Uint32(archive[central+20:]))
			copied.UncompressedSize64 = uint64(binary.LittleEndian.Uint32(archive[central+24:]))
			copied.CRC32 = binary.LittleEndian.Uint32(archive[central+16:])
			change(&copied)
			binary.LittleEndian.PutUint32(archive[central+16:], copied.CRC32)
			binary.LittleEndian.PutUint32(archive[central+20:], uint32(copied.CompressedSize64))
			binary.LittleEndian.PutUint32(archive[central+24:], uint32(copied.UncompressedSize64))
		}
		return archive
	}

	const root = ": at '<root>'"
	cases := []struct {
		name    string
		archive []byte
		entry   string
		message string
	}{
		{"missing entry", zipTestArchive(t), "c.npy",
			"serialization format error: specified file not found in archive: at 'c.npy'"},
		{"too short", []byte("PK\x05\x06"), "a.npy",
			"serialization format error: invalid Zip archive: Invalid zip header" + root},
		{"no end record", make([]byte, 100), "a.npy",
			"serialization format error: invalid Zip archive: Could not find central directory end" + root},
		{"truncated comment", patch(zipTestEndRecord+20, uint16(1)), "a.npy", "io error: failed to fill whole buffer" + root},
		{"multi-disk", patch(zipTestEndRecord+4, uint16(1)), "a.npy",
			"serialization format error: unsupported Zip archive: Support for multi-disk files is not implemented" + root},
		{"directory size", patch(zipTestEndRecord+12, uint32(100000)), "a.npy",
			"serialization format error: invalid Zip archive: Invalid central directory size or offset" + root},
		{"directory offset", patch(zipTestEndRecord+16, uint32(zipTestCentralA+1)), "a.npy",
			"serialization format error: invalid Zip archive: Invalid central directory size or offset" + root},
		{"more entries than records", patch(zipTestEndRecord+8, uint16(3)), "a.npy",
			"serialization format error: invalid Zip archive: Invalid Central Directory header" + root},
		{"fewer entries than records", patch(zipTestEndRecord+8, uint16(1)), "b.npy",
			"serialization format error: specified file not found in archive: at 'b.npy'"},
		{"central signature", patch(zipTestCentralA, uint32(0)), "a.npy",
			"serialization format error: invalid Zip archive: Invalid Central Directory header" + root},
		{"name past the end", patch(zipTestCentralB+28, uint16(60000)), "a.npy", "io error: failed to fill whole buffer" + root},
		{"compression method", patch(zipTestCentralA+10, uint16(12)), "a.npy",
			"serialization format error: unsupported Zip archive: Compression method not supported: at 'a.npy'"},
		{"encrypted", patch(zipTestCentralA+8, uint16(1)), "a.npy",
			"serialization format error: unsupported Zip archive: Password required to decrypt file: at 'a.npy'"},
		{"local signature", patch(0, uint32(0)), "a.npy",
			"serialization format error: invalid Zip archive: Invalid local file header: at 'a.npy'"},
		{"local header near the end", patch(zipTestCentralA+42, uint32(zipTestCentralA-10)), "a.npy",
			"serialization format error: invalid Zip archive: Invalid local file header: at 'a.npy'"},
		{"local header past the end", patch(zipTestCentralA+42, uint32(zipTestEndRecord+20)), "a.npy",
			"io error: failed to fill whole buffer: at 'a.npy'"},
		{"local name past the end", patch(26, uint16(60000)), "a.npy", "io error: failed to fill whole buffer: at 'a.npy'"},
		{"checksum", patch(zipTestDataA, byte('H')), "a.npy", "io error: Invalid checksum: at 'a.npy'"},
		{"declared checksum", patch(zipTestCentralA+16, uint32(1)), "a.npy", "io error: Invalid checksum: at 'a.npy'"},
		{"data past the end", patch(zipTestCentralA+20, [2]uint32{100000, 100000}), "a.npy",
			"io error: failed to fill whole buffer: at 'a.npy'"},
		{"stored sizes differ", patch(zipTestCentralA+24, uint32(10)), "a.npy",
			"serialization format error: invalid Zip archive: stored entry with different compressed (11 bytes) " +
				"and uncompressed (10 bytes) sizes: at 'a.npy'"},
		{"deflate bound", deflated(func(h *zip.FileHeader) { h.UncompressedSize64 = 1032*h.CompressedSize64 + 1 }), "a.npy",
			"serialization format error: invalid Zip archive: 38 bytes of DEFLATE data can not give the 39217 bytes " +
				"the entry declares: at 'a.npy'"},
		{"deflate longer than declared", deflated(func(h *zip.FileHeader) { h.UncompressedSize64 -= 1 }), "a.npy",
			"serialization format error: invalid Zip archive: the DEFLATE data is longer than the size the entry " +
				"declares: at 'a.npy'"},
		{"deflate shorter than declared", deflated(func(h *zip.FileHeader) { h.UncompressedSize64 += 1 }), "a.npy",
			"io error: failed to fill whole buffer: at 'a.npy'"},
		{"deflate checksum", deflated(func(h *zip.FileHeader) { h.CRC32 ^= 1 }), "a.npy", "io error: Invalid checksum: at 'a.npy'"},
		{"deflate data cut", deflated(func(h *zip.FileHeader) { h.CompressedSize64 -= 5 }), "a.npy",
			"io error: failed to fill whole buffer: at 'a.npy'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := openAndRead(c.archive, c.entry)
			require.EqualError(t, err, c.message)
			var known *Error
			require.True(t, errors.As(err, &known))
		})
	}

	// Broken DEFLATE data.
	archive := deflated(nil)
	central := bytes.LastIndex(archive, []byte("PK\x01\x02"))
	dataStart := int(binary.LittleEndian.Uint32(archive[central+42:])) + zipLocalSize + len("a.npy")
	archive[dataStart] = 0xff // a reserved block type
	_, err := openAndRead(archive, "a.npy")
	require.EqualError(t, err, "io error: corrupt deflate stream: at 'a.npy'")
}

// An empty entry is checked when opened, since callers may never read it.
func TestZipReaderChecksEmptyEntriesOnOpen(t *testing.T) {
	archive := zipBytes(t, []zipTestEntry{{"empty", nil}})
	binary.LittleEndian.PutUint32(archive[len(archive)-zipEndSize-zipCentralSize-5+16:], 7)
	reader, err := openZip(bytes.NewReader(archive), int64(len(archive)))
	require.NoError(t, err)
	_, _, err = reader.Open("empty")
	require.EqualError(t, err, "io error: Invalid checksum: at 'empty'")
}

// A stored entry is read straight into the caller's buffer, in one ReadAt.
type recordingReaderAt struct {
	data  []byte
	calls [][]byte
}

func (r *recordingReaderAt) ReadAt(p []byte, offset int64) (int, error) {
	r.calls = append(r.calls, p)
	return bytes.NewReader(r.data).ReadAt(p, offset)
}

func TestZipReaderReadsStoredDataInPlace(t *testing.T) {
	data := zipTestPattern(1 << 20)
	archive := &recordingReaderAt{data: zipBytes(t, []zipTestEntry{{"values.npy", data}})}
	reader, err := openZip(archive, int64(len(archive.data)))
	require.NoError(t, err)
	entry, size, err := reader.Open("values.npy")
	require.NoError(t, err)
	destination := make([]byte, size)
	archive.calls = nil
	_, err = io.ReadFull(entry, destination)
	require.NoError(t, err)
	require.Len(t, archive.calls, 1)
	require.Same(t, &destination[0], &archive.calls[0][0])
	require.True(t, bytes.Equal(data, destination))
}

// allocatedBytes is how many bytes run allocates.
func allocatedBytes(run func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Counts and sizes far beyond what the archive holds fail at once, without allocating for them.
func TestZipReaderHostileSizesFailFast(t *testing.T) {
	data := []byte("tiny")
	cases := []struct {
		name    string
		archive []byte
		message string
	}{
		{"2^32 entries", zip64Archive(zipMethodStored, data, crc32.ChecksumIEEE(data), 4, 4, 1<<32),
			"serialization format error: invalid Zip archive: Invalid Central Directory header: at '<root>'"},
		{"2^64-1 entries", zip64Archive(zipMethodStored, data, crc32.ChecksumIEEE(data), 4, 4, math.MaxUint64),
			"serialization format error: invalid Zip archive: Invalid Central Directory header: at '<root>'"},
		{"1e12 stored bytes", zip64Archive(zipMethodStored, data, 0, 1e12, 1e12, 1),
			"io error: failed to fill whole buffer: at 'x'"},
		{"1e12 deflated bytes", zip64Archive(zipMethodDeflate, data, 0, 4, 1e12, 1),
			"serialization format error: invalid Zip archive: 4 bytes of DEFLATE data can not give the " +
				"1000000000000 bytes the entry declares: at 'x'"},
		{"1e12 bytes from 1e9", zip64Archive(zipMethodDeflate, data, 0, 1e9, 1e12, 1),
			"io error: failed to fill whole buffer: at 'x'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			start := time.Now()
			allocated := allocatedBytes(func() { _, err = openAndRead(c.archive, "x") })
			require.EqualError(t, err, c.message)
			require.Less(t, allocated, uint64(256<<10))
			require.Less(t, time.Since(start), time.Second)
		})
	}

	// A zip64 locator pointing at the start of a large archive: the search for the zip64 end
	// record reads in blocks.
	archive := zip64Archive(zipMethodStored, make([]byte, 8<<20), 0, 8<<20, 8<<20, 1)
	end64 := bytes.LastIndex(archive, []byte("PK\x06\x06"))
	binary.LittleEndian.PutUint32(archive[end64:], 0)
	binary.LittleEndian.PutUint64(archive[len(archive)-zipEndSize-12:], 0)
	start := time.Now()
	_, err := openZip(bytes.NewReader(archive), int64(len(archive)))
	require.EqualError(t, err,
		"serialization format error: invalid Zip archive: Could not find ZIP64 central directory end: at '<root>'")
	require.Less(t, time.Since(start), time.Second)
}

// readWholeArchive opens an archive and reads all its entries, giving the first error.
func readWholeArchive(archive []byte) (map[string][]byte, error) {
	reader, err := openZip(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, err
	}
	contents := map[string][]byte{}
	for _, name := range reader.Names() {
		entry, size, err := reader.Open(name)
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(entry)
		if err != nil {
			return nil, err
		}
		if int64(len(data)) != size {
			return nil, fmt.Errorf("read %d bytes of %s, not %d", len(data), name, size)
		}
		contents[name] = data
	}
	return contents, nil
}

func TestZipReaderTruncations(t *testing.T) {
	for _, fixture := range []string{"block.mts", "savez_compressed.npz"} {
		archive := readZipFixture(t, fixture)
		for size := range len(archive) {
			_, err := readWholeArchive(archive[:size])
			require.Error(t, err, "%s cut at %d bytes", fixture, size)
			var known *Error
			require.True(t, errors.As(err, &known), "%s cut at %d bytes: %v", fixture, size, err)
		}
	}
}

// A flipped bit never makes the reader panic, and never gives other bytes: either reading
// fails or the data is the original.
func TestZipReaderBitFlips(t *testing.T) {
	random := rand.New(rand.NewPCG(1, 2))
	for _, fixture := range []string{"tensor.mts", "deflate.mts", "savez.npz"} {
		original := readZipFixture(t, fixture)
		expected, err := readWholeArchive(original)
		require.NoError(t, err)
		failures := 0
		for range 1000 {
			archive := bytes.Clone(original)
			archive[random.IntN(len(archive))] ^= 1 << random.IntN(8)
			reader, err := openZip(bytes.NewReader(archive), int64(len(archive)))
			if err != nil {
				failures++
				continue
			}
			for name, data := range expected {
				entry, size, err := reader.Open(name)
				if err != nil {
					failures++
					continue
				}
				read, err := io.ReadAll(entry)
				if err != nil {
					failures++
					continue
				}
				require.Equal(t, int64(len(data)), size)
				require.True(t, bytes.Equal(data, read), "%s: %s changed", fixture, name)
			}
		}
		require.Positive(t, failures)
	}
}

func FuzzZipReader(f *testing.F) {
	for _, fixture := range zipFixtures {
		f.Add(readZipFixture(f, fixture))
	}
	f.Add(zipTestArchive(f))
	data := []byte("zip64")
	f.Add(zip64Archive(zipMethodStored, data, crc32.ChecksumIEEE(data), 5, 5, 1))
	f.Fuzz(func(t *testing.T, archive []byte) {
		contents, err := readWholeArchive(archive)
		if err != nil {
			var known *Error
			require.True(t, errors.As(err, &known), "%v", err)
			return
		}
		// Where archive/zip (stricter in places) reads an entry too, it reads the same bytes.
		theirs, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
		if err != nil || len(theirs.File) != len(contents) {
			return // it failed, or names repeat
		}
		for _, file := range theirs.File {
			content, err := file.Open()
			if err != nil {
				continue
			}
			data, err := io.ReadAll(content)
			if ours, found := contents[file.Name]; err == nil && found {
				require.True(t, bytes.Equal(ours, data), file.Name)
			}
		}
	})
}
