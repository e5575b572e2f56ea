package core

import "fmt"

// utf8Problem describes the first invalid UTF-8 sequence of s as the reference's messages do
// ("invalid utf-8 sequence of 1 bytes from index 0", "incomplete utf-8 byte sequence from
// index 2"), or gives "" when s is valid.
func utf8Problem(s string) string {
	for i := 0; i < len(s); {
		width, bad, incomplete := utf8SequenceAt(s, i)
		switch {
		case incomplete:
			return fmt.Sprintf("incomplete utf-8 byte sequence from index %d", i)
		case bad > 0:
			return fmt.Sprintf("invalid utf-8 sequence of %d bytes from index %d", bad, i)
		}
		i += width
	}
	return ""
}

// utf8SequenceAt reads the sequence starting at i: its width when valid; otherwise how many
// bytes form the invalid part, or whether the string ends inside an otherwise valid prefix.
func utf8SequenceAt(s string, i int) (width, bad int, incomplete bool) {
	first := s[i]
	// The allowed range of the second byte depends on the first (no overlong forms, no
	// surrogates, nothing above U+10FFFF); later bytes are plain continuation bytes.
	low, high := byte(0x80), byte(0xbf)
	switch {
	case first < 0x80:
		return 1, 0, false
	case first >= 0xc2 && first <= 0xdf:
		width = 2
	case first >= 0xe0 && first <= 0xef:
		width = 3
	case first >= 0xf0 && first <= 0xf4:
		width = 4
	default:
		return 0, 1, false
	}
	switch first {
	case 0xe0: // overlong below U+0800
		low = 0xa0
	case 0xed: // surrogates
		high = 0x9f
	case 0xf0: // overlong below U+10000
		low = 0x90
	case 0xf4: // beyond U+10FFFF
		high = 0x8f
	}
	for k := 1; k < width; k++ {
		if i+k >= len(s) {
			return 0, 0, true
		}
		b := s[i+k]
		if k > 1 {
			low, high = 0x80, 0xbf
		}
		if b < low || b > high {
			return 0, k, false
		}
	}
	return width, 0, false
}
