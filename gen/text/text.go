// Package text holds the text helpers every generator shares: splitting names into words and
// laying out documentation.
package text

import "strings"

// Words splits snake_case or SCREAMING_CASE into lower-case words: MTS_IO_ERROR gives mts,
// io, error.
func Words(name string) []string {
	var words []string
	for _, word := range strings.Split(strings.ToLower(name), "_") {
		if word != "" {
			words = append(words, word)
		}
	}
	return words
}

// OneLine puts a documentation text on one line, with single spaces.
func OneLine(doc string) string {
	return strings.Join(strings.Fields(doc), " ")
}

// Wrap splits text into lines of at most width characters; blank lines separate paragraphs.
func Wrap(text string, width int) []string {
	var lines []string
	for _, paragraph := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		line := ""
		for _, word := range strings.Fields(paragraph) {
			if line != "" && len(line)+1+len(word) > width {
				lines = append(lines, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += word
		}
		lines = append(lines, line)
	}
	return lines
}
