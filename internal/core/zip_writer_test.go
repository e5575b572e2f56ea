package core

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The fixtures of testdata/mts, written by make_fixtures.py with the reference.
func readZipFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "mts", name))
	require.NoError(t, err)
	return data
}

// zipTestEntry is an entry's name and uncompressed bytes.
type zipTestEntry struct {
	name string
	data []byte
}

// readZipEntries reads every entry of an archive with our reader, in central-directory order.
func readZipEntries(t testing.TB, archive []byte) []zipTestEntry {
	t.Helper()
	reader, err := openZip(bytes.NewReader(archive), int64(len(archive)))
	require.NoError(t, err)
	var entries []zipTestEntry
	for _, name := range reader.Names() {
		entry, size, err := reader.Open(name)
		require.NoError(t, err, name)
		data := make([]byte, size)
		_, err = io.ReadFull(entry, data)
		require.NoError(t, err, name)
		n, err := entry.Read(make([]byte, 1))
		require.Equal(t, 0, n)
		require.Equal(t, io.EOF, err)
		entries = append(entries, zipTestEntry{name, data})
	}
	return entries
}

// writeZipEntries writes entries with our writer, each in pieces of at most piece bytes (all
// at once when piece is 0), into sink.
func writeZipEntries(t testing.TB, sink SaveSink, entries []zipTestEntry, piece int) {
	t.Helper()
	archive := newZipWriter(sink)
	for _, entry := range entries {
		w, err := archive.Create(entry.name)
		require.NoError(t, err)
		step := piece
		if step == 0 {
			step = max(len(entry.data), 1)
		}
		for data := entry.data; len(data) > 0; data = data[min(len(data), step):] {
			written, err := w.Write(data[:min(len(data), step)])
			require.NoError(t, err)
			require.Equal(t, min(len(data), step), written)
		}
	}
	require.NoError(t, archive.Close())
}

func zipBytes(t testing.TB, entries []zipTestEntry) []byte {
	t.Helper()
	sink := &memorySink{}
	writeZipEntries(t, sink, entries, 0)
	return sink.data
}

// Re-writing the entries of files saved by the reference gives the same bytes, however the
// data is split into writes.
func TestZipWriterIsByteIdenticalToTheReference(t *testing.T) {
	for _, fixture := range []string{"tensor.mts", "block.mts"} {
		t.Run(fixture, func(t *testing.T) {
			reference := readZipFixture(t, fixture)
			entries := readZipEntries(t, reference)
			for _, piece := range []int{0, 1, 7, 100} {
				sink := &memorySink{}
				writeZipEntries(t, sink, entries, piece)
				require.Equal(t, reference, sink.data, "written in pieces of %d bytes", piece)
			}
		})
	}
}

func TestZipWriterEmptyArchive(t *testing.T) {
	require.Equal(t, append([]byte("PK\x05\x06"), make([]byte, 18)...), zipBytes(t, nil))
}

func zipTestPattern(size int) []byte {
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i*7 + i>>11)
	}
	return data
}

// Go's archive/zip reads what we write, checking every CRC.
func TestZipWriterReadableByArchiveZip(t *testing.T) {
	entries := []zipTestEntry{
		{"keys.npy", []byte("some bytes")},
		{"empty", []byte{}},
		{"blocks/0/gradients/é/values.npy", zipTestPattern(3*zipChunk + 5)},
	}
	written := zipBytes(t, entries)
	require.Equal(t, entries, readWithArchiveZip(t, written))
	reader, err := zip.NewReader(bytes.NewReader(written), int64(len(written)))
	require.NoError(t, err)
	for _, file := range reader.File {
		require.Equal(t, zip.Store, file.Method)
		require.Equal(t, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), file.Modified)
		require.Equal(t, os.FileMode(0o644), file.Mode())
	}
}

// A file sink gives the bytes of a memory sink, also when it starts after other bytes of the
// file, when writes are larger than its buffer, and when patches fall in the file, in the
// buffer, or across both.
func TestFileSinkMatchesMemorySink(t *testing.T) {
	entries := []zipTestEntry{{"large", zipTestPattern(fileSinkBuffer + 3)}}
	for i := range 300 {
		entries = append(entries, zipTestEntry{fmt.Sprintf("small/%d", i), zipTestPattern(i * 50)})
	}
	entries = append(entries, zipTestEntry{"medium", zipTestPattern(fileSinkBuffer / 4)})
	expected := zipBytes(t, entries)

	for _, prefix := range []string{"", "a prefix written before the sink"} {
		path := filepath.Join(t.TempDir(), "archive.zip")
		file, err := os.Create(path)
		require.NoError(t, err)
		_, err = file.WriteString(prefix)
		require.NoError(t, err)
		sink := newFileSink(file)
		writeZipEntries(t, sink, entries, 0)
		require.NoError(t, sink.Flush())
		require.NoError(t, file.Close())

		written, err := os.ReadFile(path)
		require.NoError(t, err)
		require.True(t, bytes.Equal(append([]byte(prefix), expected...), written))
		// Prepended bytes shift every offset; the reader finds them.
		require.Equal(t, entries[len(entries)-1], readZipEntries(t, written)[len(entries)-1])
	}
}

func TestFileSinkPatches(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "patched"))
	require.NoError(t, err)
	defer file.Close()
	sink := newFileSink(file)
	_, err = sink.Write(bytes.Repeat([]byte{'a'}, fileSinkBuffer)) // straight to the file
	require.NoError(t, err)
	_, err = sink.Write([]byte("bbbb")) // buffered
	require.NoError(t, err)
	n, err := sink.WriteAt([]byte("XYZ"), fileSinkBuffer-1) // across both
	require.NoError(t, err)
	require.Equal(t, 3, n)
	_, err = sink.WriteAt([]byte("Q"), 0)
	require.NoError(t, err)
	_, err = sink.WriteAt([]byte("too far"), fileSinkBuffer)
	require.ErrorIs(t, err, &Error{Status: IOError})
	require.NoError(t, sink.Flush())
	written, err := os.ReadFile(file.Name())
	require.NoError(t, err)
	require.Equal(t, "Q", string(written[:1]))
	require.Equal(t, "aXYZbb", string(written[fileSinkBuffer-2:fileSinkBuffer+4]))
	require.Len(t, written, fileSinkBuffer+4)
}

func TestMemorySinkPatches(t *testing.T) {
	sink := &memorySink{}
	_, err := sink.Write([]byte("abcdef"))
	require.NoError(t, err)
	_, err = sink.WriteAt([]byte("XY"), 4)
	require.NoError(t, err)
	require.Equal(t, "abcdXY", string(sink.data))
	for _, offset := range []int64{-1, 5, 7, 1 << 62} {
		_, err = sink.WriteAt([]byte("XY"), offset)
		require.ErrorIs(t, err, &Error{Status: IOError}, offset)
	}
	_, err = sink.WriteAt(nil, 6)
	require.NoError(t, err)
}

// failingSink accepts limit bytes, then fails.
type failingSink struct {
	memorySink
	limit int
}

func (s *failingSink) Write(p []byte) (int, error) {
	if len(s.data)+len(p) > s.limit {
		return 0, io.ErrShortWrite
	}
	return s.memorySink.Write(p)
}

func TestZipWriterErrors(t *testing.T) {
	archive := newZipWriter(&memorySink{})
	first, err := archive.Create("first")
	require.NoError(t, err)
	_, err = archive.Create("second")
	require.NoError(t, err)
	_, err = first.Write([]byte("late"))
	require.EqualError(t, err, "io error: can not write to a zip entry that is already finished")
	_, err = archive.Create(strings.Repeat("n", 1<<16))
	require.EqualError(t, err, "io error: zip entry names are limited to 65535 bytes, this one has 65536")
	require.NoError(t, archive.Close())
	require.NoError(t, archive.Close())
	_, err = archive.Create("third")
	require.EqualError(t, err, "io error: can not add 'third' to a zip archive that is already closed")

	// A failure of the sink is returned by every later call.
	archive = newZipWriter(&failingSink{limit: 100})
	entry, err := archive.Create("entry")
	require.NoError(t, err)
	_, err = entry.Write(make([]byte, 100))
	require.EqualError(t, err, "io error: short write")
	_, err = archive.Create("next")
	require.EqualError(t, err, "io error: short write")
	require.EqualError(t, archive.Close(), "io error: short write")
}

// sparseFile is a sink and a reader for archives too large to keep: writes of more than
// 64 KiB are only counted (the tests make them zeros), smaller ones are kept.
type sparseFile struct {
	size   int64
	pieces []sparsePiece
}

type sparsePiece struct {
	offset int64
	data   []byte
}

func (f *sparseFile) Write(p []byte) (int, error) {
	if len(p) <= 64<<10 {
		f.pieces = append(f.pieces, sparsePiece{f.size, bytes.Clone(p)})
	}
	f.size += int64(len(p))
	return len(p), nil
}

func (f *sparseFile) WriteAt(p []byte, offset int64) (int, error) {
	for _, piece := range f.pieces {
		if offset >= piece.offset && offset+int64(len(p)) <= piece.offset+int64(len(piece.data)) {
			return copy(piece.data[offset-piece.offset:], p), nil
		}
	}
	return 0, fmt.Errorf("patch of %d bytes at %d outside the kept pieces", len(p), offset)
}

func (f *sparseFile) ReadAt(p []byte, offset int64) (int, error) {
	clear(p)
	for _, piece := range f.pieces {
		start := max(offset, piece.offset)
		end := min(offset+int64(len(p)), piece.offset+int64(len(piece.data)))
		if start < end {
			copy(p[start-offset:end-offset], piece.data[start-piece.offset:])
		}
	}
	if offset+int64(len(p)) > f.size {
		return int(max(0, f.size-offset)), io.EOF
	}
	return len(p), nil
}

// Beyond 4 GiB, sizes and offsets move to zip64 extra fields and the archive gets a zip64
// end record, as the zip crate writes them; Go's archive/zip and our reader read it.
func TestZipWriterZip64(t *testing.T) {
	if testing.Short() {
		t.Skip("hashes 4 GiB")
	}
	const hugeSize = 1<<32 + 10
	file := &sparseFile{}
	archive := newZipWriter(file)
	w, err := archive.Create("small")
	require.NoError(t, err)
	_, err = w.Write([]byte("small"))
	require.NoError(t, err)
	w, err = archive.Create("huge")
	require.NoError(t, err)
	zeros := make([]byte, 1<<20)
	for written := 0; written < hugeSize; written += len(zeros) {
		_, err = w.Write(zeros[:min(len(zeros), hugeSize-written)])
		require.NoError(t, err)
	}
	w, err = archive.Create("after")
	require.NoError(t, err)
	_, err = w.Write([]byte("after the huge one"))
	require.NoError(t, err)
	require.NoError(t, archive.Close())

	read := func(offset int64, size int) []byte {
		p := make([]byte, size)
		_, err := file.ReadAt(p, offset)
		require.NoError(t, err)
		return p
	}
	u16 := func(p []byte, at int) uint16 { return binary.LittleEndian.Uint16(p[at:]) }
	u32 := func(p []byte, at int) uint32 { return binary.LittleEndian.Uint32(p[at:]) }
	u64 := func(p []byte, at int) uint64 { return binary.LittleEndian.Uint64(p[at:]) }

	afterStart := int64(2*zipLocalSize + 2*zipLocalExtraSize + len("small") + len("huge") + 5 + hugeSize)
	local := read(afterStart, zipLocalSize)
	require.Equal(t, uint32(zipLocalSignature), u32(local, 0))
	require.Equal(t, uint16(45), u16(local, 4), "the offset of this header needs zip64")

	directoryStart := afterStart + zipLocalSize + zipLocalExtraSize + int64(len("after")) + 18
	end := read(file.size-zipEndSize, zipEndSize)
	require.Equal(t, uint32(zipEndSignature), u32(end, 0))
	require.Equal(t, uint16(3), u16(end, 10))
	require.Equal(t, uint32(zip64Marker), u32(end, 16))
	locator := read(file.size-zipEndSize-zipEnd64LocatorSize, zipEnd64LocatorSize)
	require.Equal(t, uint32(zipEnd64LocatorSignature), u32(locator, 0))
	end64 := read(int64(u64(locator, 8)), zipEnd64Size)
	require.Equal(t, uint32(zipEnd64Signature), u32(end64, 0))
	require.Equal(t, uint64(44), u64(end64, 4))
	require.Equal(t, uint64(3), u64(end64, 32))
	require.Equal(t, uint64(directoryStart), u64(end64, 48))

	directory := read(directoryStart, int(u64(end64, 40)))
	small := directory[:zipCentralSize+len("small")]
	require.Equal(t, uint16(20), u16(small, 6))
	require.Equal(t, uint16(0), u16(small, 30), "no extra field below 4 GiB")
	huge := directory[len(small):]
	require.Equal(t, uint16(45), u16(huge, 6))
	require.Equal(t, uint32(zip64Marker), u32(huge, 20))
	require.Equal(t, uint32(zip64Marker), u32(huge, 24))
	require.Equal(t, uint16(20), u16(huge, 30))
	extra := huge[zipCentralSize+len("huge"):]
	require.Equal(t, []uint64{hugeSize, hugeSize}, []uint64{u64(extra, 4), u64(extra, 12)})
	after := extra[20:]
	require.Equal(t, uint16(45), u16(after, 6))
	require.Equal(t, uint32(18), u32(after, 20))
	require.Equal(t, uint32(zip64Marker), u32(after, 42))
	require.Equal(t, uint16(12), u16(after, 30))
	require.Equal(t, uint64(afterStart), u64(after, zipCentralSize+len("after")+4))

	ours, err := openZip(file, file.size)
	require.NoError(t, err)
	require.Equal(t, []string{"small", "huge", "after"}, ours.Names())
	_, size, err := ours.Open("huge")
	require.NoError(t, err)
	require.Equal(t, int64(hugeSize), size)
	entry, _, err := ours.Open("after")
	require.NoError(t, err)
	data, err := io.ReadAll(entry)
	require.NoError(t, err)
	require.Equal(t, "after the huge one", string(data))

	theirs, err := zip.NewReader(file, file.size)
	require.NoError(t, err)
	require.Len(t, theirs.File, 3)
	require.Equal(t, uint64(hugeSize), theirs.File[1].UncompressedSize64)
	content, err := theirs.File[2].Open()
	require.NoError(t, err)
	data, err = io.ReadAll(content)
	require.NoError(t, err)
	require.Equal(t, "after the huge one", string(data))
}

// More than 65535 entries need the zip64 end record; 65535 do not.
func TestZipWriterManyEntries(t *testing.T) {
	for _, count := range []int{zip64EntriesMarker, zip64EntriesMarker + 1} {
		entries := make([]zipTestEntry, count)
		for i := range entries {
			entries[i] = zipTestEntry{fmt.Sprint(i), []byte{byte(i)}}
		}
		written := zipBytes(t, entries)
		end := written[len(written)-zipEndSize:]
		locator := written[len(written)-zipEndSize-zipEnd64LocatorSize:]
		hasZip64 := binary.LittleEndian.Uint32(locator) == zipEnd64LocatorSignature
		require.Equal(t, count > zip64EntriesMarker, hasZip64, count)
		require.Equal(t, uint16(min(count, zip64EntriesMarker)), binary.LittleEndian.Uint16(end[10:]))

		theirs, err := zip.NewReader(bytes.NewReader(written), int64(len(written)))
		require.NoError(t, err)
		require.Len(t, theirs.File, count)
		ours, err := openZip(bytes.NewReader(written), int64(len(written)))
		require.NoError(t, err)
		require.Len(t, ours.Names(), count)
		last := fmt.Sprint(count - 1)
		entry, _, err := ours.Open(last)
		require.NoError(t, err)
		data, err := io.ReadAll(entry)
		require.NoError(t, err)
		require.Equal(t, []byte{byte(count - 1)}, data)
	}
}

// zipBenchSize is the size of the entry of the write benchmarks.
const zipBenchSize = 256 << 20

// Writing a 256 MB entry (hashing included) into memory, against copying it.
func BenchmarkZipWriterLargeEntry(b *testing.B) {
	data := zipTestPattern(zipBenchSize)
	sink := &memorySink{data: make([]byte, 0, zipBenchSize+1024)}
	b.SetBytes(zipBenchSize)
	for b.Loop() {
		sink.data = sink.data[:0]
		archive := newZipWriter(sink)
		w, err := archive.Create("values.npy")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			b.Fatal(err)
		}
		if err := archive.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCopyLargeEntry(b *testing.B) {
	data := zipTestPattern(zipBenchSize)
	destination := make([]byte, zipBenchSize)
	b.SetBytes(zipBenchSize)
	for b.Loop() {
		copy(destination, data)
	}
}
