package core

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strings"
)

// The zip reader accepts what the reference's (the zip crate 0.6) accepts, and fails with its
// messages: see docs/reference-behaviour.md#zip-reading. Format errors have the serialization
// status; I/O errors (data ending too soon, a bad checksum, broken DEFLATE data) keep the
// reference's I/O status and message. Every error ends with ": at '<entry>'" (": at '<root>'" for
// the archive itself), which the reference's I/O errors lack. It is also written for hostile input: every count, length and offset is checked
// against the size of the archive before anything is allocated or read, so a small file never makes
// it allocate much or loop long.

// zipArchive is the central directory of a zip archive, and where to read its entries.
type zipArchive struct {
	r       io.ReaderAt
	size    int64
	entries []zipEntry
	byName  map[string]int // names are unique: see errDuplicateZipEntry
	budget  loadBudget     // what the entries opened may still declare
	sorted  []int          // entry indices sorted by name, made by the first prefix lookup
}

// zipEntry is an entry as the central directory describes it.
type zipEntry struct {
	name             string
	flags            uint16
	method           uint16
	crc              uint32
	compressedSize   uint64
	uncompressedSize uint64
	headerStart      uint64 // in the archive, any bytes before it included
}

// zipRoot is the location of errors about the archive rather than one of its entries.
const zipRoot = "<root>"

// deflateMaxRatio bounds the output of DEFLATE: at best a 258-byte match costs two bits.
const deflateMaxRatio = 1032

// zipEndSearch is how far before the end of the archive the end record may start: its size
// plus the longest comment.
const zipEndSearch = zipEndSize + math.MaxUint16

func zipInvalid(location, format string, args ...any) *Error {
	return Errorf(SerializationError, "invalid Zip archive: "+format+": at '%s'", append(args, location)...)
}

func zipUnsupported(location, detail string) *Error {
	return Errorf(SerializationError, "unsupported Zip archive: %s: at '%s'", detail, location)
}

// errDuplicateZipEntry refuses a second entry of a name, which the zip crate accepts (the last
// one wins): a reader of the archive could see other data than a loader does.
func errDuplicateZipEntry(name string) *Error {
	return zipInvalid(name, "more than one entry has this name")
}

// errZipEOF is the reference's error for data that ends too soon (Rust's read_exact).
func errZipEOF() *Error {
	return Errorf(IOError, "failed to fill whole buffer")
}

// openZip reads the central directory of the archive held by r (size bytes).
func openZip(r io.ReaderAt, size int64) (*zipArchive, error) {
	if size < zipEndSize {
		return nil, zipInvalid(zipRoot, "Invalid zip header")
	}
	end, err := findZipEnd(r, size)
	if err != nil {
		return nil, inEntry(zipRoot, err)
	}
	if !end.recordTooSmall() && end.disk != end.directoryDisk {
		return nil, zipUnsupported(zipRoot, "Support for multi-disk files is not implemented")
	}
	directory, err := findZipDirectory(r, size, end)
	if err != nil {
		return nil, inEntry(zipRoot, err)
	}
	archive, err := readZipDirectory(r, size, directory)
	return archive, inEntry(zipRoot, err)
}

// zipEnd is the end of central directory record.
type zipEnd struct {
	position       int64
	disk           uint16
	directoryDisk  uint16
	diskEntries    uint16
	entries        uint16
	directorySize  uint32
	directoryStart uint32
	commentLength  uint16
}

// recordTooSmall tells whether a field is saturated, so the zip64 end record has its value.
func (e zipEnd) recordTooSmall() bool {
	return e.disk == zip64EntriesMarker || e.directoryDisk == zip64EntriesMarker ||
		e.diskEntries == zip64EntriesMarker || e.entries == zip64EntriesMarker ||
		e.directorySize == zip64Marker || e.directoryStart == zip64Marker
}

// findZipEnd finds the end record closest to the end of the archive, as the zip crate does.
func findZipEnd(r io.ReaderAt, size int64) (zipEnd, error) {
	tailStart := max(0, size-zipEndSearch)
	tail := make([]byte, size-tailStart)
	if err := readZipAt(r, tail, tailStart); err != nil {
		return zipEnd{}, err
	}
	signature := binary.LittleEndian.AppendUint32(nil, zipEndSignature)
	at := bytes.LastIndex(tail[:len(tail)-zipEndSize+4], signature)
	if at < 0 {
		return zipEnd{}, zipInvalid(zipRoot, "Could not find central directory end")
	}
	record := tail[at:]
	end := zipEnd{
		position:       tailStart + int64(at),
		disk:           binary.LittleEndian.Uint16(record[4:]),
		directoryDisk:  binary.LittleEndian.Uint16(record[6:]),
		diskEntries:    binary.LittleEndian.Uint16(record[8:]),
		entries:        binary.LittleEndian.Uint16(record[10:]),
		directorySize:  binary.LittleEndian.Uint32(record[12:]),
		directoryStart: binary.LittleEndian.Uint32(record[16:]),
		commentLength:  binary.LittleEndian.Uint16(record[20:]),
	}
	if len(record) < zipEndSize+int(end.commentLength) {
		return zipEnd{}, errZipEOF()
	}
	return end, nil
}

// zip64SearchMargin is how far before the end record the zip crate stops looking for the
// zip64 end record (its "minimum size of a zip64 end record and locator").
const zip64SearchMargin = 60

// zipDirectory is where the central directory is and how many entries it has. offset is the
// number of bytes before the archive (a self-extracting stub): every offset the archive
// records is shifted by it.
type zipDirectory struct {
	offset  uint64
	start   uint64
	entries uint64
}

// findZipDirectory locates the central directory from the end record, or from the zip64 end
// record when a zip64 locator stands before the end record.
func findZipDirectory(r io.ReaderAt, size int64, end zipEnd) (zipDirectory, error) {
	locator, found, err := findZip64Locator(r, size, end)
	if err != nil {
		return zipDirectory{}, err
	}
	if !found {
		offset := uint64(end.position) - uint64(end.directorySize)
		if uint64(end.position) < uint64(end.directorySize) || offset < uint64(end.directoryStart) {
			return zipDirectory{}, zipInvalid(zipRoot, "Invalid central directory size or offset")
		}
		offset -= uint64(end.directoryStart)
		return zipDirectory{
			offset:  offset,
			start:   offset + uint64(end.directoryStart),
			entries: uint64(end.diskEntries),
		}, nil
	}

	if !end.recordTooSmall() && uint32(end.disk) != locator.directoryDisk {
		return zipDirectory{}, zipUnsupported(zipRoot, "Support for multi-disk files is not implemented")
	}
	// The zip64 end record is where the locator says, unless bytes were added before the
	// archive: then it is further, and the distance is the offset of the archive.
	if end.position < zip64SearchMargin {
		return zipDirectory{}, zipInvalid(zipRoot, "File cannot contain ZIP64 central directory end")
	}
	last := uint64(end.position) - zip64SearchMargin
	position, found, err := searchZipForward(r, locator.end64Start, last, zipEnd64Signature)
	if err != nil {
		return zipDirectory{}, err
	}
	if !found {
		return zipDirectory{}, zipInvalid(zipRoot, "Could not find ZIP64 central directory end")
	}
	var record [zipEnd64Size]byte
	if err := readZipAt(r, record[:], int64(position)); err != nil {
		return zipDirectory{}, err
	}
	if binary.LittleEndian.Uint32(record[16:]) != binary.LittleEndian.Uint32(record[20:]) {
		return zipDirectory{}, zipUnsupported(zipRoot, "Support for multi-disk files is not implemented")
	}
	offset := position - locator.end64Start
	start := binary.LittleEndian.Uint64(record[48:])
	if start > math.MaxUint64-offset {
		return zipDirectory{}, zipInvalid(zipRoot, "Invalid central directory size or offset")
	}
	return zipDirectory{offset: offset, start: start + offset, entries: binary.LittleEndian.Uint64(record[32:])}, nil
}

// zip64Locator is the zip64 end of central directory locator.
type zip64Locator struct {
	directoryDisk uint32
	end64Start    uint64
}

// findZip64Locator reads the zip64 locator, which the zip crate expects 20 bytes before the
// end record, counting from the end of the archive.
func findZip64Locator(r io.ReaderAt, size int64, end zipEnd) (zip64Locator, bool, error) {
	position := size - (zipEnd64LocatorSize + zipEndSize + int64(end.commentLength))
	if position < 0 {
		return zip64Locator{}, false, nil
	}
	var record [zipEnd64LocatorSize]byte
	if err := readZipAt(r, record[:], position); err != nil {
		return zip64Locator{}, false, err
	}
	if binary.LittleEndian.Uint32(record[:]) != zipEnd64LocatorSignature {
		return zip64Locator{}, false, nil
	}
	return zip64Locator{
		directoryDisk: binary.LittleEndian.Uint32(record[4:]),
		end64Start:    binary.LittleEndian.Uint64(record[8:]),
	}, true, nil
}

// searchZipForward finds the first signature starting in [first, last], reading in blocks.
func searchZipForward(r io.ReaderAt, first, last uint64, signature uint32) (uint64, bool, error) {
	const block = 64 << 10
	pattern := binary.LittleEndian.AppendUint32(nil, signature)
	buffer := make([]byte, 0, block+3)
	for start := first; start <= last; start += block {
		// The block holds the signatures starting in [start, start+block) ∩ [first, last].
		count := min(uint64(block), last-start+1) + 3
		buffer = buffer[:count]
		if err := readZipAt(r, buffer, int64(start)); err != nil {
			return 0, false, err
		}
		if at := bytes.Index(buffer, pattern); at >= 0 {
			return start + uint64(at), true, nil
		}
		if last-start < block {
			break
		}
	}
	return 0, false, nil
}

// readZipDirectory reads the central directory records.
func readZipDirectory(r io.ReaderAt, size int64, directory zipDirectory) (*zipArchive, error) {
	// A directory starting past the end is only an error when there are records to read.
	remaining := uint64(size) - min(directory.start, uint64(size))
	// Every record takes at least zipCentralSize bytes, which bounds what to allocate; a
	// larger count fails when the records run out.
	capacity := min(directory.entries, remaining/zipCentralSize)
	budget, err := newLoadBudget(size)
	if err != nil {
		return nil, err
	}
	archive := &zipArchive{
		r:       r,
		size:    size,
		entries: make([]zipEntry, 0, capacity),
		byName:  make(map[string]int, capacity),
		budget:  budget,
	}
	input := bufio.NewReaderSize(io.NewSectionReader(r, int64(uint64(size)-remaining), int64(remaining)),
		int(min(remaining, 64<<10)))
	var header [zipCentralSize]byte
	for range directory.entries {
		if _, err := io.ReadFull(input, header[:4]); err != nil {
			return nil, zipReadError(err)
		}
		if binary.LittleEndian.Uint32(header[:]) != zipCentralSignature {
			return nil, zipInvalid(zipRoot, "Invalid Central Directory header")
		}
		if _, err := io.ReadFull(input, header[4:]); err != nil {
			return nil, zipReadError(err)
		}
		nameLength := uint64(binary.LittleEndian.Uint16(header[28:]))
		extraLength := uint64(binary.LittleEndian.Uint16(header[30:]))
		commentLength := uint64(binary.LittleEndian.Uint16(header[32:]))
		if remaining < zipCentralSize+nameLength+extraLength+commentLength {
			return nil, errZipEOF()
		}
		remaining -= zipCentralSize + nameLength + extraLength + commentLength
		variable := make([]byte, nameLength+extraLength)
		if _, err := io.ReadFull(input, variable); err != nil {
			return nil, zipReadError(err)
		}
		if _, err := input.Discard(int(commentLength)); err != nil {
			return nil, zipReadError(err)
		}

		flags := binary.LittleEndian.Uint16(header[8:])
		entry := zipEntry{
			name:             decodeZipName(variable[:nameLength], flags),
			flags:            flags,
			method:           binary.LittleEndian.Uint16(header[10:]),
			crc:              binary.LittleEndian.Uint32(header[16:]),
			compressedSize:   uint64(binary.LittleEndian.Uint32(header[20:])),
			uncompressedSize: uint64(binary.LittleEndian.Uint32(header[24:])),
			headerStart:      uint64(binary.LittleEndian.Uint32(header[42:])),
		}
		entry.readZip64Extra(variable[nameLength:])
		if entry.headerStart > math.MaxUint64-directory.offset {
			return nil, zipInvalid(zipRoot, "Archive header is too large")
		}
		entry.headerStart += directory.offset

		if _, seen := archive.byName[entry.name]; seen {
			return nil, errDuplicateZipEntry(entry.name)
		}
		archive.byName[entry.name] = len(archive.entries)
		archive.entries = append(archive.entries, entry)
	}
	return archive, nil
}

// readZip64Extra takes the sizes and offset that are saturated in the record from the zip64
// extra field. Like the zip crate, it reads them in order wherever the field's length ends,
// and stops quietly at the end of the extra data.
func (e *zipEntry) readZip64Extra(extra []byte) {
	for len(extra) >= 4 {
		id := binary.LittleEndian.Uint16(extra)
		length := int(binary.LittleEndian.Uint16(extra[2:]))
		extra = extra[4:]
		if id == zip64ExtraID {
			used := 0
			for _, field := range []*uint64{&e.uncompressedSize, &e.compressedSize, &e.headerStart} {
				if *field != zip64Marker {
					continue
				}
				if len(extra) < used+8 {
					return
				}
				*field = binary.LittleEndian.Uint64(extra[used:])
				used += 8
			}
			length = max(length, used)
		}
		if length > len(extra) {
			return
		}
		extra = extra[length:]
	}
}

// cp437High is code page 437 from 0x80 on, the encoding of names without the UTF-8 flag.
const cp437High = "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐" +
	"└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0"

// decodeZipName decodes a name as UTF-8 (invalid bytes replaced) when flagged so, else from
// code page 437.
func decodeZipName(raw []byte, flags uint16) string {
	if flags&zipUTF8Flag != 0 {
		return strings.ToValidUTF8(string(raw), "\uFFFD")
	}
	ascii := true
	for _, b := range raw {
		ascii = ascii && b < 0x80
	}
	if ascii {
		return string(raw)
	}
	high := []rune(cp437High)
	var name strings.Builder
	for _, b := range raw {
		if b < 0x80 {
			name.WriteByte(b)
		} else {
			name.WriteRune(high[b-0x80])
		}
	}
	return name.String()
}

// Names gives the names of the entries, in central-directory order.
func (z *zipArchive) Names() []string {
	names := make([]string, len(z.entries))
	for i, entry := range z.entries {
		names[i] = entry.name
	}
	return names
}

// WithPrefix gives the indices of the entries whose name starts with prefix, in
// central-directory order. The first call sorts the names once, so that looking up the
// gradients of every block does not scan the whole directory each time.
func (z *zipArchive) WithPrefix(prefix string) []int {
	if z.sorted == nil {
		z.sorted = make([]int, len(z.entries))
		for i := range z.sorted {
			z.sorted[i] = i
		}
		slices.SortFunc(z.sorted, func(a, b int) int { return strings.Compare(z.entries[a].name, z.entries[b].name) })
	}
	first, _ := slices.BinarySearchFunc(z.sorted, prefix, func(i int, prefix string) int {
		return strings.Compare(z.entries[i].name, prefix)
	})
	var found []int
	for _, i := range z.sorted[first:] {
		if !strings.HasPrefix(z.entries[i].name, prefix) {
			break
		}
		found = append(found, i)
	}
	slices.Sort(found)
	return found
}

// Has tells whether the archive has an entry of that name.
func (z *zipArchive) Has(name string) bool {
	_, ok := z.byName[name]
	return ok
}

// Open gives a reader of the entry's uncompressed bytes and their count. Stored and DEFLATE
// entries are supported; other methods are errors. The reader checks the size and CRC-32 of
// the data as the last byte is read, so a caller that reads exactly the count with
// io.ReadFull sees a mismatch as an error.
func (z *zipArchive) Open(name string) (io.Reader, int64, error) {
	index, ok := z.byName[name]
	if !ok {
		return nil, 0, Errorf(SerializationError, "specified file not found in archive: at '%s'", name)
	}
	entry := z.entries[index]
	if entry.flags&zipEncryptedFlag != 0 {
		return nil, 0, zipUnsupported(name, "Password required to decrypt file")
	}

	dataStart, err := z.dataStart(entry)
	if err != nil {
		return nil, 0, inEntry(name, err)
	}
	if entry.method != zipMethodStored && entry.method != zipMethodDeflate {
		return nil, 0, zipUnsupported(name, "Compression method not supported")
	}
	if entry.compressedSize > uint64(z.size)-dataStart {
		return nil, 0, inEntry(name, errZipEOF())
	}
	if entry.uncompressedSize > math.MaxInt64 {
		return nil, 0, zipInvalid(name, "the size of the entry (%d bytes) is too large", entry.uncompressedSize)
	}
	data := io.NewSectionReader(z.r, int64(dataStart), int64(entry.compressedSize))

	reader := &zipEntryReader{name: name, remaining: entry.uncompressedSize, crc: entry.crc}
	if entry.method == zipMethodStored {
		if entry.compressedSize != entry.uncompressedSize {
			return nil, 0, zipInvalid(name,
				"stored entry with different compressed (%d bytes) and uncompressed (%d bytes) sizes",
				entry.compressedSize, entry.uncompressedSize)
		}
		reader.source = data
	} else {
		if entry.compressedSize < math.MaxUint64/deflateMaxRatio &&
			entry.uncompressedSize > entry.compressedSize*deflateMaxRatio {
			return nil, 0, zipInvalid(name,
				"%d bytes of DEFLATE data can not give the %d bytes the entry declares",
				entry.compressedSize, entry.uncompressedSize)
		}
		if entry.compressedSize == 0 {
			// Nothing to decompress: an empty entry, as the zip crate reads it.
			reader.source = data
		} else {
			reader.source = flate.NewReader(bufio.NewReaderSize(data, int(min(entry.compressedSize, 64<<10))))
			reader.deflate = true
		}
	}
	if err := z.budget.spend(entry); err != nil {
		return nil, 0, err
	}
	if reader.remaining == 0 {
		// Nothing to read: check now, callers may never call Read.
		if err := reader.finish(); err != nil {
			return nil, 0, err
		}
	}
	return reader, int64(entry.uncompressedSize), nil
}

// dataStart reads the entry's local header to find where its data starts.
func (z *zipArchive) dataStart(entry zipEntry) (uint64, error) {
	size := uint64(z.size)
	if entry.headerStart > size-4 {
		return 0, errZipEOF()
	}
	// Like the zip crate, check the signature before looking for the rest of the header.
	var header [zipLocalSize]byte
	available := min(size-entry.headerStart, zipLocalSize)
	if err := readZipAt(z.r, header[:available], int64(entry.headerStart)); err != nil {
		return 0, err
	}
	if binary.LittleEndian.Uint32(header[:]) != zipLocalSignature {
		return 0, zipInvalid(entry.name, "Invalid local file header")
	} else if available < zipLocalSize {
		return 0, errZipEOF()
	}
	nameLength := uint64(binary.LittleEndian.Uint16(header[26:]))
	extraLength := uint64(binary.LittleEndian.Uint16(header[28:]))
	dataStart := entry.headerStart + zipLocalSize + nameLength + extraLength
	if dataStart > size {
		return 0, errZipEOF()
	}
	return dataStart, nil
}

// zipEntryReader gives the uncompressed bytes of an entry, no more than it declares, and
// checks their count and CRC-32 when the last one is read.
type zipEntryReader struct {
	name      string
	source    io.Reader
	deflate   bool
	remaining uint64
	crc       uint32 // the expected CRC
	hash      uint32 // the CRC of what was read
	done      bool
	err       error
}

func (r *zipEntryReader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if r.done {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if uint64(len(p)) > r.remaining {
		p = p[:r.remaining]
	}
	n, err := r.source.Read(p)
	r.hash = crc32.Update(r.hash, crc32.IEEETable, p[:n])
	r.remaining -= uint64(n)
	if err != nil && (err != io.EOF || r.remaining != 0) {
		// The bytes of a failed read are not handed out: callers see the error at once.
		r.err = inEntry(r.name, zipReadError(err))
		return 0, r.err
	}
	if r.remaining == 0 {
		if err := r.finish(); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// finish checks, once the declared size is read, that the data ends there and has the
// declared CRC-32.
func (r *zipEntryReader) finish() error {
	if r.deflate {
		var extra [1]byte
		n, err := r.source.Read(extra[:])
		if n != 0 {
			r.err = zipInvalid(r.name, "the DEFLATE data is longer than the size the entry declares")
			return r.err
		} else if err != io.EOF && err != io.ErrUnexpectedEOF {
			// A stream cut after the declared bytes is accepted, as the zip crate does; the
			// CRC still checks the data.
			r.err = inEntry(r.name, zipReadError(err))
			return r.err
		}
	}
	if r.hash != r.crc {
		r.err = inEntry(r.name, Errorf(IOError, "Invalid checksum"))
		return r.err
	}
	r.done = true
	return nil
}

// zipReadError gives a failure to read the archive the reference's message: data ending too
// soon is "failed to fill whole buffer", broken DEFLATE data "corrupt deflate stream".
func zipReadError(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case err == nil:
		return errZipEOF()
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return errZipEOF()
	case errors.As(err, &corrupt):
		return Errorf(IOError, "corrupt deflate stream")
	}
	return readError(err)
}

// readZipAt fills p from offset; the callers have checked that it lies inside the archive,
// so a short read is an error of the reader (or a file that shrank).
func readZipAt(r io.ReaderAt, p []byte, offset int64) error {
	n, err := r.ReadAt(p, offset)
	if n == len(p) {
		return nil
	}
	return zipReadError(err)
}
