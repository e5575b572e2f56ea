package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// encodeInfoJSON writes the info entry as the reference does: keys sorted, one "key": "value"
// line each indented by two spaces, and no final newline.
func encodeInfoJSON(info *Info) []byte {
	keys := slices.Clone(info.Keys())
	slices.Sort(keys)
	var out bytes.Buffer
	out.WriteString("{\n")
	for i, key := range keys {
		if i != 0 {
			out.WriteString(",\n")
		}
		value, _ := info.Get(key)
		out.WriteString("  ")
		writeJSONString(&out, key)
		out.WriteString(": ")
		writeJSONString(&out, value)
	}
	out.WriteString("\n}")
	return out.Bytes()
}

// checkInfoValues rejects values that are not UTF-8, which JSON can not hold (a panic in the
// reference, hence the status).
func checkInfoValues(info *Info) error {
	for _, key := range info.Keys() {
		value, _ := info.Get(key)
		if problem := utf8Problem(value); problem != "" {
			return Errorf(InternalError, "the info value of '%s' is not valid UTF-8: %s", key, problem)
		}
	}
	return nil
}

// jsonEscapes gives the letter after the backslash for each byte JSON strings escape; 'u'
// means \u00XX. Other bytes, non-ASCII included, are written as they are.
var jsonEscapes = func() (table [256]byte) {
	for c := range 0x20 {
		table[c] = 'u'
	}
	table['\b'], table['\t'], table['\n'], table['\f'], table['\r'] = 'b', 't', 'n', 'f', 'r'
	table['"'], table['\\'] = '"', '\\'
	return table
}()

func writeJSONString(out *bytes.Buffer, text string) {
	out.WriteByte('"')
	start := 0
	for i := 0; i < len(text); i++ {
		escape := jsonEscapes[text[i]]
		if escape == 0 {
			continue
		}
		out.WriteString(text[start:i])
		out.WriteByte('\\')
		out.WriteByte(escape)
		if escape == 'u' {
			fmt.Fprintf(out, "%04x", text[i])
		}
		start = i + 1
	}
	out.WriteString(text[start:])
	out.WriteByte('"')
}

// decodeInfoJSON adds the entries of an info entry to info, in the order of the file. The
// text must be one JSON object whose values are all strings.
func decodeInfoJSON(text []byte, info *Info) error {
	return readInfoJSON(bytes.NewReader(text), info)
}

// readInfoJSON is decodeInfoJSON reading the text from r as it goes: it never holds more
// of the text than its longest token. The text must be UTF-8, as the reference requires (the
// JSON decoder alone would replace invalid bytes). Errors of r (and of the UTF-8 check) are
// reported as they are.
func readInfoJSON(r io.Reader, info *Info) error {
	decoder := json.NewDecoder(newUTF8Reader(r, infoEntry))
	syntax := func(err error) error {
		var known *Error
		if errors.As(err, &known) {
			return known
		}
		return Errorf(SerializationError, "invalid JSON in '%s': %v", infoEntry, err)
	}
	start, err := decoder.Token()
	if err != nil {
		return syntax(err)
	}
	if delim, ok := start.(json.Delim); !ok || delim != '{' {
		if err := skipJSONValue(decoder, start); err != nil {
			return syntax(err)
		}
		return Errorf(SerializationError, "'%s' should contain an object", infoEntry)
	}
	var values []string // key, value, key, value...
	valuesAreStrings := true
	for decoder.More() {
		key, err := decoder.Token()
		if err != nil {
			return syntax(err)
		}
		value, err := decoder.Token()
		if err != nil {
			return syntax(err)
		}
		text, isString := value.(string)
		if !isString {
			valuesAreStrings = false
			if err := skipJSONValue(decoder, value); err != nil {
				return syntax(err)
			}
			continue
		}
		values = append(values, key.(string), text)
	}
	if _, err := decoder.Token(); err != nil { // the closing brace
		return syntax(err)
	}
	if _, err := decoder.Token(); err != io.EOF {
		return syntax(fmt.Errorf("unexpected content after the object"))
	}
	if !valuesAreStrings {
		return Errorf(SerializationError, "values in '%s' should be strings", infoEntry)
	}
	for i := 0; i < len(values); i += 2 {
		if err := info.Set(values[i], values[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// skipJSONValue consumes the rest of a value whose first token was already read, so that
// syntax errors later in the text are still reported first.
func skipJSONValue(decoder *json.Decoder, first json.Token) error {
	delim, ok := first.(json.Delim)
	if !ok || (delim != '{' && delim != '[') {
		return nil
	}
	for depth := 1; depth > 0; {
		token, err := decoder.Token()
		if err != nil {
			return err
		}
		if delim, ok := token.(json.Delim); ok {
			if delim == '{' || delim == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}
