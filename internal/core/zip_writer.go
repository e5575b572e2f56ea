package core

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"math"
)

// The zip records, as APPNOTE.TXT names them: their signatures and fixed sizes.
const (
	zipLocalSignature        = 0x04034b50
	zipCentralSignature      = 0x02014b50
	zipEndSignature          = 0x06054b50
	zipEnd64Signature        = 0x06064b50
	zipEnd64LocatorSignature = 0x07064b50

	zipLocalSize        = 30
	zipCentralSize      = 46
	zipEndSize          = 22
	zipEnd64Size        = 56
	zipEnd64LocatorSize = 20

	// zip64ExtraID tags the extra field holding 64-bit sizes and offsets.
	zip64ExtraID = 0x0001
	// zip64Marker stands in a 32-bit field whose value is in the zip64 extra field; a 16-bit
	// entry count uses zip64EntriesMarker.
	zip64Marker        = math.MaxUint32
	zip64EntriesMarker = math.MaxUint16

	// zipUTF8Flag marks a name in UTF-8 (otherwise it is in code page 437).
	zipUTF8Flag = 1 << 11
	// zipEncryptedFlag marks an encrypted entry.
	zipEncryptedFlag = 1

	zipMethodStored  = 0
	zipMethodDeflate = 8
)

// What the reference's writer (the zip crate 0.6, STORED entries, large-file mode) puts in
// every entry: see docs/reference-behaviour.md#zip-writing.
const (
	zipVersionMadeBy = 3<<8 | 46 // Unix, zip 4.6
	zipVersionNeeded = 20
	// zipVersionNeeded64 is the version needed of an entry with a size or an offset beyond 4 GiB.
	zipVersionNeeded64 = 45
	// zipVersionEnd64 is both versions of the zip64 end record (made by, with no system byte,
	// and needed).
	zipVersionEnd64  = 46
	zipModTime       = 0x0000
	zipModDate       = 0x2821                   // 2000-01-01
	zipExternalAttrs = (0o100000 | 0o644) << 16 // a regular file, rw-r--r--
	// zipLocalExtraSize is the size of the zip64 extra field of every local header: both sizes.
	zipLocalExtraSize = 4 + 16
)

// zipChunk is how many bytes of an entry are hashed and then written at once: the chunk is
// still in cache when it is copied, and from 1 MiB on Go's memmove copies with non-temporal
// stores: a 256 MB entry goes into a memory sink at 7 GB/s, against 5 with 256 KiB chunks
// (a bare copy runs at 16 on the same machine).
const zipChunk = 1 << 20

// zipWriter writes a zip archive the way the reference does, byte for byte: every entry is
// STORED, its local header has a zip64 extra field with both sizes and is completed in place
// once the data is written (no data descriptor), and the end record has a zip64 version only
// when the archive needs one (more than 65535 entries, or a directory beyond 4 GiB).
type zipWriter struct {
	sink    SaveSink
	offset  uint64 // bytes written so far
	entries []zipWrittenEntry
	current *zipEntryWriter // the entry being written, if any
	err     error           // the first failure, returned by every later call
	closed  bool
}

// zipWrittenEntry is what the central directory needs to know of an entry.
type zipWrittenEntry struct {
	name        string
	headerStart uint64
	crc         uint32
	size        uint64 // compressed and uncompressed: entries are stored
}

func newZipWriter(sink SaveSink) *zipWriter {
	return &zipWriter{sink: sink}
}

// writeZip writes an archive to sink: the entries write adds, then the central directory.
func writeZip(sink SaveSink, write func(*zipWriter) error) error {
	archive := newZipWriter(sink)
	if err := write(archive); err != nil {
		return err
	}
	return archive.Close()
}

// Create starts a new STORED entry (finishing the previous one) and returns where its bytes go.
// The writer stays valid until the next Create or Close.
func (z *zipWriter) Create(name string) (io.Writer, error) {
	if err := z.finishEntry(); err != nil {
		return nil, err
	}
	if z.closed {
		return nil, Errorf(IOError, "can not add '%s' to a zip archive that is already closed", name)
	}
	if len(name) > math.MaxUint16 {
		return nil, Errorf(IOError, "zip entry names are limited to 65535 bytes, this one has %d", len(name))
	}

	headerStart := z.offset
	header := make([]byte, 0, zipLocalSize+len(name)+zipLocalExtraSize)
	header = binary.LittleEndian.AppendUint32(header, zipLocalSignature)
	header = binary.LittleEndian.AppendUint16(header, zipVersionNeededFor(0, headerStart))
	header = binary.LittleEndian.AppendUint16(header, zipNameFlags(name))
	header = binary.LittleEndian.AppendUint16(header, zipMethodStored)
	header = binary.LittleEndian.AppendUint16(header, zipModTime)
	header = binary.LittleEndian.AppendUint16(header, zipModDate)
	header = binary.LittleEndian.AppendUint32(header, 0) // CRC, patched when the entry ends
	header = binary.LittleEndian.AppendUint32(header, zip64Marker)
	header = binary.LittleEndian.AppendUint32(header, zip64Marker)
	header = binary.LittleEndian.AppendUint16(header, uint16(len(name)))
	header = binary.LittleEndian.AppendUint16(header, zipLocalExtraSize)
	header = append(header, name...)
	header = binary.LittleEndian.AppendUint16(header, zip64ExtraID)
	header = binary.LittleEndian.AppendUint16(header, zipLocalExtraSize-4)
	header = binary.LittleEndian.AppendUint64(header, 0) // sizes, patched when the entry ends
	header = binary.LittleEndian.AppendUint64(header, 0)
	if err := z.write(header); err != nil {
		return nil, err
	}

	z.entries = append(z.entries, zipWrittenEntry{name: name, headerStart: headerStart})
	z.current = &zipEntryWriter{zip: z}
	return z.current, nil
}

// Close finishes the last entry and writes the central directory and end record.
func (z *zipWriter) Close() error {
	if err := z.finishEntry(); err != nil {
		return err
	}
	if z.closed {
		return nil
	}
	z.closed = true

	directoryStart := z.offset
	var directory []byte
	for _, entry := range z.entries {
		directory = appendZipCentralHeader(directory, entry)
	}
	directorySize := uint64(len(directory))
	count := uint64(len(z.entries))

	if count > zip64EntriesMarker || max(directorySize, directoryStart) > zip64Marker {
		end64Start := directoryStart + directorySize
		directory = binary.LittleEndian.AppendUint32(directory, zipEnd64Signature)
		directory = binary.LittleEndian.AppendUint64(directory, zipEnd64Size-12) // size of the rest
		directory = binary.LittleEndian.AppendUint16(directory, zipVersionEnd64)
		directory = binary.LittleEndian.AppendUint16(directory, zipVersionEnd64)
		directory = binary.LittleEndian.AppendUint32(directory, 0) // this disk
		directory = binary.LittleEndian.AppendUint32(directory, 0) // disk of the directory
		directory = binary.LittleEndian.AppendUint64(directory, count)
		directory = binary.LittleEndian.AppendUint64(directory, count)
		directory = binary.LittleEndian.AppendUint64(directory, directorySize)
		directory = binary.LittleEndian.AppendUint64(directory, directoryStart)

		directory = binary.LittleEndian.AppendUint32(directory, zipEnd64LocatorSignature)
		directory = binary.LittleEndian.AppendUint32(directory, 0) // disk of the zip64 end record
		directory = binary.LittleEndian.AppendUint64(directory, end64Start)
		directory = binary.LittleEndian.AppendUint32(directory, 1) // number of disks
	}

	directory = binary.LittleEndian.AppendUint32(directory, zipEndSignature)
	directory = binary.LittleEndian.AppendUint16(directory, 0) // this disk
	directory = binary.LittleEndian.AppendUint16(directory, 0) // disk of the directory
	directory = binary.LittleEndian.AppendUint16(directory, uint16(min(count, zip64EntriesMarker)))
	directory = binary.LittleEndian.AppendUint16(directory, uint16(min(count, zip64EntriesMarker)))
	directory = binary.LittleEndian.AppendUint32(directory, uint32(min(directorySize, zip64Marker)))
	directory = binary.LittleEndian.AppendUint32(directory, uint32(min(directoryStart, zip64Marker)))
	directory = binary.LittleEndian.AppendUint16(directory, 0) // comment length
	return z.write(directory)
}

// appendZipCentralHeader appends the central directory record of an entry. Like the zip
// crate, sizes and offsets beyond 32 bits are written as 0xFFFFFFFF and given in a zip64
// extra field, which holds only those.
func appendZipCentralHeader(out []byte, entry zipWrittenEntry) []byte {
	var extra []uint64
	if entry.size > zip64Marker {
		extra = append(extra, entry.size, entry.size) // uncompressed, then compressed
	}
	if entry.headerStart > zip64Marker {
		extra = append(extra, entry.headerStart)
	}
	extraSize := 0
	if len(extra) != 0 {
		extraSize = 4 + 8*len(extra)
	}

	out = binary.LittleEndian.AppendUint32(out, zipCentralSignature)
	out = binary.LittleEndian.AppendUint16(out, zipVersionMadeBy)
	out = binary.LittleEndian.AppendUint16(out, zipVersionNeededFor(entry.size, entry.headerStart))
	out = binary.LittleEndian.AppendUint16(out, zipNameFlags(entry.name))
	out = binary.LittleEndian.AppendUint16(out, zipMethodStored)
	out = binary.LittleEndian.AppendUint16(out, zipModTime)
	out = binary.LittleEndian.AppendUint16(out, zipModDate)
	out = binary.LittleEndian.AppendUint32(out, entry.crc)
	out = binary.LittleEndian.AppendUint32(out, uint32(min(entry.size, zip64Marker)))
	out = binary.LittleEndian.AppendUint32(out, uint32(min(entry.size, zip64Marker)))
	out = binary.LittleEndian.AppendUint16(out, uint16(len(entry.name)))
	out = binary.LittleEndian.AppendUint16(out, uint16(extraSize))
	out = binary.LittleEndian.AppendUint16(out, 0) // comment length
	out = binary.LittleEndian.AppendUint16(out, 0) // disk
	out = binary.LittleEndian.AppendUint16(out, 0) // internal attributes
	out = binary.LittleEndian.AppendUint32(out, zipExternalAttrs)
	out = binary.LittleEndian.AppendUint32(out, uint32(min(entry.headerStart, zip64Marker)))
	out = append(out, entry.name...)
	if extraSize != 0 {
		out = binary.LittleEndian.AppendUint16(out, zip64ExtraID)
		out = binary.LittleEndian.AppendUint16(out, uint16(extraSize-4))
		for _, value := range extra {
			out = binary.LittleEndian.AppendUint64(out, value)
		}
	}
	return out
}

// zipVersionNeededFor is the version needed to extract an entry: 4.5 when its size or the
// offset of its header needs zip64, else 2.0. The local header is written before the size is
// known, so it only looks at the offset.
func zipVersionNeededFor(size, headerStart uint64) uint16 {
	if size > zip64Marker || headerStart > zip64Marker {
		return zipVersionNeeded64
	}
	return zipVersionNeeded
}

// zipNameFlags sets the UTF-8 flag for names that are not ASCII.
func zipNameFlags(name string) uint16 {
	for i := range len(name) {
		if name[i] >= 0x80 {
			return zipUTF8Flag
		}
	}
	return 0
}

// finishEntry completes the local header of the entry being written with its CRC and sizes.
func (z *zipWriter) finishEntry() error {
	if z.err != nil {
		return z.err
	}
	current := z.current
	if current == nil {
		return nil
	}
	z.current = nil
	current.zip = nil

	entry := &z.entries[len(z.entries)-1]
	entry.crc = current.crc
	entry.size = current.size

	var patch [16]byte
	binary.LittleEndian.PutUint32(patch[:4], entry.crc)
	if err := z.patch(patch[:4], entry.headerStart+14); err != nil {
		return err
	}
	binary.LittleEndian.PutUint64(patch[:8], entry.size)
	binary.LittleEndian.PutUint64(patch[8:], entry.size)
	return z.patch(patch[:], entry.headerStart+zipLocalSize+uint64(len(entry.name))+4)
}

func (z *zipWriter) write(p []byte) error {
	if z.err != nil {
		return z.err
	}
	if _, err := z.sink.Write(p); err != nil {
		z.err = sinkError(err)
		return z.err
	}
	z.offset += uint64(len(p))
	return nil
}

func (z *zipWriter) patch(p []byte, offset uint64) error {
	if _, err := z.sink.WriteAt(p, int64(offset)); err != nil {
		z.err = sinkError(err)
		return z.err
	}
	return nil
}

// zipEntryWriter receives the data of one entry, hashing it on the way to the sink.
type zipEntryWriter struct {
	zip  *zipWriter // nil once the entry is finished
	crc  uint32
	size uint64
}

func (w *zipEntryWriter) Write(p []byte) (int, error) {
	if w.zip == nil {
		return 0, Errorf(IOError, "can not write to a zip entry that is already finished")
	}
	written := 0
	for written < len(p) {
		chunk := p[written:min(len(p), written+zipChunk)]
		w.crc = crc32.Update(w.crc, crc32.IEEETable, chunk)
		if err := w.zip.write(chunk); err != nil {
			return written, err
		}
		written += len(chunk)
		w.size += uint64(len(chunk))
	}
	return written, nil
}
