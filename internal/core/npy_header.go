package core

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// npyMagic starts every NPY file; the format version follows it.
const npyMagic = "\x93NUMPY"

// npyHeader is the dictionary that describes the array of an NPY file.
type npyHeader struct {
	// structured says that the type is a list of named fields (labels) rather than the
	// scalar descr.
	structured   bool
	descr        string
	fields       []npyField
	fortranOrder bool
	shape        []uintptr
}

// npyField is one named field of a structured type: [('a', '<i4'), ...].
type npyField struct {
	name, descr string
}

// readNpyHeader reads the header at the start of r and gives the number of bytes it took.
// Like the reference, it reads versions 1.0, 2.0 and 3.0 and a dictionary with exactly the
// keys descr, fortran_order and shape. Missing bytes are an I/O error.
func readNpyHeader(r io.Reader) (npyHeader, int64, error) {
	// The reference reads and checks the magic, then the version, then the length, so a
	// short input fails with the error of the first part that is wrong.
	var start [8]byte
	if _, err := io.ReadFull(r, start[:6]); err != nil {
		return npyHeader{}, 0, readError(err)
	}
	if string(start[:6]) != npyMagic {
		return npyHeader{}, 0, Errorf(SerializationError, "start does not match magic string")
	}
	if _, err := io.ReadFull(r, start[6:8]); err != nil {
		return npyHeader{}, 0, readError(err)
	}
	major, minor := start[6], start[7]
	var lengthRoom [4]byte
	var lengthBytes []byte
	switch {
	case major == 1 && minor == 0:
		lengthBytes = lengthRoom[:2]
	case (major == 2 || major == 3) && minor == 0:
		lengthBytes = lengthRoom[:4]
	default:
		return npyHeader{}, 0, Errorf(SerializationError, "unknown version number: %d.%d", major, minor)
	}
	if _, err := io.ReadFull(r, lengthBytes); err != nil {
		return npyHeader{}, 0, readError(err)
	}
	var length int64
	if len(lengthBytes) == 2 {
		length = int64(binary.LittleEndian.Uint16(lengthBytes))
	} else {
		length = int64(binary.LittleEndian.Uint32(lengthBytes))
	}

	text, err := readNpyHeaderText(r, length)
	if err != nil {
		return npyHeader{}, 0, err
	}
	consumed := int64(len(start)+len(lengthBytes)) + length

	// text is never written again: the dictionary and the strings parsed from it share it
	dictionary, ok := strings.CutSuffix(unsafe.String(unsafe.SliceData(text), len(text)), "\n")
	if !ok {
		return npyHeader{}, 0, Errorf(SerializationError, "invalid header in file: missing new line")
	}
	if major < 3 {
		for i := range len(dictionary) {
			if dictionary[i] >= utf8.RuneSelf {
				return npyHeader{}, 0, Errorf(SerializationError,
					"non-ascii in array format string; this is not supported in .npy format versions 1.0 and 2.0")
			}
		}
	} else if problem := utf8Problem(dictionary); problem != "" {
		return npyHeader{}, 0, Errorf(SerializationError, "error parsing array format string as UTF-8: %s", problem)
	}

	header, err := parseNpyDictionary(dictionary)
	if err != nil {
		return npyHeader{}, 0, err
	}
	return header, consumed, nil
}

// smallNpyHeader is the longest header text read into memory of its declared length at once:
// numpy pads its headers to 64 bytes or more, so a header of a few hundred bytes is the rule.
const smallNpyHeader = 4096

// readNpyHeaderText reads the length bytes of a header's text. A longer text is read as it
// arrives, so that a huge declared length in a small input allocates nothing large.
func readNpyHeaderText(r io.Reader, length int64) ([]byte, error) {
	if length <= smallNpyHeader {
		text := make([]byte, length)
		if _, err := io.ReadFull(r, text); err != nil {
			return nil, readError(err)
		}
		return text, nil
	}
	text, err := io.ReadAll(io.LimitReader(r, length))
	if err != nil {
		return nil, readError(err)
	}
	if int64(len(text)) != length {
		return nil, readError(io.ErrUnexpectedEOF)
	}
	return text, nil
}

// startsWithNpyHeader tells whether r starts with a valid NPY header, which is how the
// reference recognises labels files.
func startsWithNpyHeader(r io.Reader) bool {
	_, _, err := readNpyHeader(r)
	return err == nil
}

// npyParser reads the Python dictionary literal of a header, one character at a time. It
// accepts what the reference's parser accepts (either quote, space/tab/form feed around
// tokens, trailing commas, anything after the closing brace) with the same messages. Where
// the reference would index past the end of the text and panic, it reports an error.
type npyParser struct {
	text string
	pos  int
}

// npyEnd is what peek gives at the end of the text.
const npyEnd = -1

// invalidNpyHeader is the error of a dictionary that does not parse.
func invalidNpyHeader(format string, args ...any) error {
	return Errorf(SerializationError, "invalid header in file: "+format, args...)
}

func (p *npyParser) peek() rune {
	if p.pos >= len(p.text) {
		return npyEnd
	}
	if c := p.text[p.pos]; c < utf8.RuneSelf {
		return rune(c) // headers are ASCII but for the names of version 3.0 labels
	}
	c, _ := utf8.DecodeRuneInString(p.text[p.pos:])
	return c
}

func (p *npyParser) advance() {
	if p.text[p.pos] < utf8.RuneSelf {
		p.pos++
		return
	}
	_, width := utf8.DecodeRuneInString(p.text[p.pos:])
	p.pos += width
}

// unexpected reports the current character where something else (what) was expected.
func (p *npyParser) unexpected(what string) error {
	if p.peek() == npyEnd {
		return invalidNpyHeader("expected %s, got the end of the header", what)
	}
	return invalidNpyHeader("expected %s, got '%c'", what, p.peek())
}

func (p *npyParser) expect(c rune) error {
	if p.peek() != c {
		return p.unexpected("'" + string(c) + "'")
	}
	p.advance()
	return nil
}

func (p *npyParser) skipSpaces() {
	for ; p.pos < len(p.text); p.pos++ {
		if c := p.text[p.pos]; c != ' ' && c != '\t' && c != '\f' {
			return
		}
	}
}

// string reads a string in single or double quotes; there are no escapes.
func (p *npyParser) string() (string, error) {
	quote := p.peek()
	if quote != '\'' && quote != '"' {
		return "", p.unexpected("a string")
	}
	p.advance()
	start := p.pos
	end := strings.IndexRune(p.text[start:], quote)
	if end < 0 {
		p.pos = len(p.text)
		return "", p.unexpected("'" + string(quote) + "'")
	}
	p.pos = start + end + 1
	return p.text[start : start+end], nil
}

// integer reads a non-negative decimal integer that fits in a uintptr.
func (p *npyParser) integer() (uintptr, error) {
	start := p.pos
	for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
		p.advance()
	}
	if p.pos == start {
		return 0, p.unexpected("an integer")
	}
	value, err := strconv.ParseUint(p.text[start:p.pos], 10, strconv.IntSize)
	if err != nil {
		return 0, invalidNpyHeader("failed to parse an integer: number too large to fit in target type")
	}
	return uintptr(value), nil
}

// word reads the rest of a keyword whose first character was already read.
func (p *npyParser) word(rest string) error {
	for _, c := range rest {
		if err := p.expect(c); err != nil {
			return err
		}
	}
	return nil
}

func (p *npyParser) bool() (bool, error) {
	switch p.peek() {
	case 'T':
		p.advance()
		return true, p.word("rue")
	case 'F':
		p.advance()
		return false, p.word("alse")
	}
	return false, p.unexpected("a bool")
}

// list reads the items of a non-empty list or tuple up to its closing bracket, with an
// optional trailing comma; the opening bracket was already read. `[]` and `()` do not parse,
// as in the reference.
func (p *npyParser) list(closing rune, item func() error) error {
	for {
		p.skipSpaces()
		if err := item(); err != nil {
			return err
		}
		p.skipSpaces()
		if p.peek() != ',' {
			return p.expect(closing)
		}
		p.advance()
		p.skipSpaces()
		if p.peek() == closing {
			p.advance()
			return nil
		}
	}
}

// descr reads a scalar type descriptor or a list of (name, descriptor) fields into h.
func (p *npyParser) descr(h *npyHeader) error {
	switch p.peek() {
	case '\'', '"':
		descr, err := p.string()
		h.structured, h.descr, h.fields = false, descr, nil
		return err
	case '[':
		p.advance()
		h.structured, h.descr, h.fields = true, "", nil
		return p.list(']', func() error {
			field, err := p.field()
			h.fields = append(h.fields, field)
			return err
		})
	}
	return p.unexpected("a string or a list")
}

// field reads one ('name', 'descr') pair of a structured type.
func (p *npyParser) field() (npyField, error) {
	var field npyField
	err := p.sequence(
		func() error { return p.expect('(') },
		func() (err error) { field.name, err = p.string(); return err },
		func() error { return p.expect(',') },
		func() (err error) { field.descr, err = p.string(); return err },
		func() error { return p.expect(')') },
	)
	return field, err
}

// sequence runs steps in turn, with spaces allowed between them, up to the first failure.
func (p *npyParser) sequence(steps ...func() error) error {
	for i, step := range steps {
		if i > 0 {
			p.skipSpaces()
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func (p *npyParser) shape() ([]uintptr, error) {
	if err := p.expect('('); err != nil {
		return nil, err
	}
	shape := make([]uintptr, 0, 4)
	err := p.list(')', func() error {
		d, err := p.integer()
		shape = append(shape, d)
		return err
	})
	return shape, err
}

// parseNpyDictionary parses the dictionary of a header, its final newline removed.
func parseNpyDictionary(text string) (npyHeader, error) {
	p := &npyParser{text: text}
	var h npyHeader
	var seenDescr, seenOrder, seenShape bool
	p.skipSpaces()
	if err := p.expect('{'); err != nil {
		return h, err
	}
	err := p.list('}', func() error {
		var key string
		err := p.sequence(
			func() (err error) { key, err = p.string(); return err },
			func() error { return p.expect(':') },
		)
		if err != nil {
			return err
		}
		p.skipSpaces()
		switch key {
		case "descr":
			seenDescr = true
			return p.descr(&h)
		case "fortran_order":
			seenOrder = true
			h.fortranOrder, err = p.bool()
			return err
		case "shape":
			seenShape = true
			h.shape, err = p.shape()
			return err
		}
		return invalidNpyHeader("unknown key: '%s'", key)
	})
	switch {
	case err != nil:
		return h, err
	case !seenDescr:
		return h, invalidNpyHeader("missing 'descr' key")
	case !seenOrder:
		return h, invalidNpyHeader("missing 'fortran_order' key")
	case !seenShape:
		return h, invalidNpyHeader("missing 'shape' key")
	}
	return h, nil
}

// dictionary writes the header's dictionary as the reference does: a space after '{' and
// before '}', and ", " after every field and every dimension, so 1-D is "(27, )".
func (h *npyHeader) dictionary() string {
	var b strings.Builder
	b.WriteString("{ 'descr': ")
	if h.structured {
		b.WriteByte('[')
		for _, field := range h.fields {
			fmt.Fprintf(&b, "('%s', '%s'), ", field.name, field.descr)
		}
		b.WriteByte(']')
	} else {
		fmt.Fprintf(&b, "'%s'", h.descr)
	}
	if h.fortranOrder {
		b.WriteString(", 'fortran_order': True, 'shape': (")
	} else {
		b.WriteString(", 'fortran_order': False, 'shape': (")
	}
	for _, d := range h.shape {
		b.WriteString(strconv.FormatUint(uint64(d), 10))
		b.WriteString(", ")
	}
	b.WriteString(") }")
	return b.String()
}

// npyHeaderDivisor: the whole header, magic included, is padded to a multiple of it.
const npyHeaderDivisor = 64

// encode gives the bytes of the header: version 1.0 when its length fits in 16 bits, else
// 2.0; padded with spaces (at least one byte of padding) up to the final newline.
func (h *npyHeader) encode() ([]byte, error) {
	dictionary := h.dictionary()
	for _, version := range []struct {
		major       byte
		lengthBytes int
		maxLength   uint64
	}{{1, 2, math.MaxUint16}, {2, 4, math.MaxUint32}} {
		prefix := len(npyMagic) + 2 + version.lengthBytes
		unpadded := prefix + len(dictionary) + 1
		total := unpadded + npyHeaderDivisor - unpadded%npyHeaderDivisor
		length := total - prefix
		if uint64(length) > version.maxLength {
			continue
		}
		out := make([]byte, 0, total)
		out = append(out, npyMagic...)
		out = append(out, version.major, 0)
		if version.lengthBytes == 2 {
			out = binary.LittleEndian.AppendUint16(out, uint16(length))
		} else {
			out = binary.LittleEndian.AppendUint32(out, uint32(length))
		}
		out = append(out, dictionary...)
		for len(out) < total-1 {
			out = append(out, ' ')
		}
		return append(out, '\n'), nil
	}
	return nil, Errorf(SerializationError, "header too long")
}

// writeNpyHeader writes the header of an array.
func writeNpyHeader(w io.Writer, h *npyHeader) error {
	header, err := h.encode()
	if err != nil {
		return err
	}
	if _, err := w.Write(header); err != nil {
		return sinkError(err)
	}
	return nil
}
