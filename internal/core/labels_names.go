package core

import (
	"strconv"
	"strings"
)

// IsValidLabelName tells whether name can be a labels dimension: non-empty, not starting with
// an ASCII digit, and made only of ASCII letters, ASCII digits and '_'.
func IsValidLabelName(name string) bool {
	if name == "" || isASCIIDigit(name[0]) {
		return false
	}
	// Bytes, not runes: any non-ASCII byte (including invalid UTF-8) makes the name invalid.
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(isASCIIDigit(c) || c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')) {
			return false
		}
	}
	return true
}

func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }

// validateLabelNames checks every name first, then uniqueness, in the reference's order: the
// first invalid name wins over any duplicate.
func validateLabelNames(names []string) error {
	for _, name := range names {
		if !IsValidLabelName(name) {
			return Errorf(InvalidParameterError, "'%s' is not a valid label name", name)
		}
	}
	if name, ok := firstDuplicateName(names); ok {
		return Errorf(InvalidParameterError, "label dimensions must be unique, got '%s' multiple times", name)
	}
	return nil
}

// firstDuplicateName reports the first duplicate in (i, j) scan order: the earliest name that
// appears again later, not the earliest second occurrence.
func firstDuplicateName(names []string) (string, bool) {
	if len(names) <= 16 {
		for i := range names {
			for j := i + 1; j < len(names); j++ {
				if names[i] == names[j] {
					return names[i], true
				}
			}
		}
		return "", false
	}
	// Many names (only fuzzers do that): count occurrences instead of the quadratic scan.
	seen := make(map[string]int, len(names))
	for _, name := range names {
		seen[name]++
	}
	for _, name := range names {
		if seen[name] > 1 {
			return name, true
		}
	}
	return "", false
}

// debugNameList formats names like Rust's `{:?}` of a Vec<&str>: ["aa", "bb"]. Valid names
// are plain ASCII, so Go quoting gives the same text.
func debugNameList(names []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, name := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(name))
	}
	b.WriteByte(']')
	return b.String()
}
