package core

import (
	"io"
	"unicode/utf8"
)

// utf8Reader passes the bytes of source through and fails as soon as they are not UTF-8 (as
// strict as the reference: no surrogates, no overlong forms). It checks a stream without
// holding it: only the start of a sequence cut between two reads is kept.
type utf8Reader struct {
	source   io.Reader
	what     string // names the data in the error
	carry    []byte // the start of a sequence the last read cut
	position int64  // in the stream, of carry or of the next byte
	err      error
}

func newUTF8Reader(source io.Reader, what string) *utf8Reader {
	return &utf8Reader{source: source, what: what, carry: make([]byte, 0, utf8.UTFMax)}
}

func (r *utf8Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.source.Read(p)
	if checkErr := r.check(p[:n], err == io.EOF); checkErr != nil {
		r.err = checkErr
		return 0, checkErr
	}
	return n, err
}

// check validates the carried bytes followed by data; at the end of the stream nothing may
// stay carried.
func (r *utf8Reader) check(data []byte, end bool) error {
	// Complete the carried sequence from the head of data.
	for len(r.carry) > 0 && len(data) > 0 && !utf8.FullRune(r.carry) {
		r.carry = append(r.carry, data[0])
		data = data[1:]
	}
	if len(r.carry) > 0 && utf8.FullRune(r.carry) {
		if _, width := utf8.DecodeRune(r.carry); width != len(r.carry) || !utf8.Valid(r.carry) {
			return r.invalid(r.position)
		}
		r.position += int64(len(r.carry))
		r.carry = r.carry[:0]
	}
	if len(r.carry) == 0 {
		// A sequence cut at the end of data is carried to the next read.
		cut := len(data)
		for back := 1; back < utf8.UTFMax && back <= len(data); back++ {
			if utf8.RuneStart(data[len(data)-back]) {
				if !utf8.FullRune(data[len(data)-back:]) {
					cut = len(data) - back
				}
				break
			}
		}
		if !utf8.Valid(data[:cut]) {
			return r.invalid(r.position + int64(firstInvalidUTF8(data[:cut])))
		}
		r.position += int64(cut)
		r.carry = append(r.carry, data[cut:]...)
	}
	if end && len(r.carry) > 0 {
		return Errorf(SerializationError, "'%s' is not valid UTF-8: it ends inside a sequence at byte %d",
			r.what, r.position)
	}
	return nil
}

func (r *utf8Reader) invalid(at int64) error {
	return Errorf(SerializationError, "'%s' is not valid UTF-8: invalid sequence at byte %d", r.what, at)
}

// firstInvalidUTF8 gives the index of the first invalid sequence of data.
func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		decoded, width := utf8.DecodeRune(data[i:])
		if decoded == utf8.RuneError && width == 1 {
			return i
		}
		i += width
	}
	return len(data)
}
