package core

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// infoOf gives an info set from key, value pairs, in order.
func infoOf(t testing.TB, pairs ...string) *Info {
	t.Helper()
	info := &Info{}
	for i := 0; i < len(pairs); i += 2 {
		require.NoError(t, info.Set(pairs[i], pairs[i+1]))
	}
	return info
}

func TestInfoJSONEncoding(t *testing.T) {
	info := infoOf(t, "zeta", "last", "alpha", "quote \" backslash \\ newline \n tab \t bell \x07 é", "mid", "")
	require.Equal(t,
		"{\n  \"alpha\": \"quote \\\" backslash \\\\ newline \\n tab \\t bell \\u0007 é\",\n"+
			"  \"mid\": \"\",\n  \"zeta\": \"last\"\n}",
		string(encodeInfoJSON(info)))

	single := infoOf(t, "test", "value")
	require.Equal(t, "{\n  \"test\": \"value\"\n}", string(encodeInfoJSON(single)))
}

func TestInfoJSONRoundTrip(t *testing.T) {
	info := infoOf(t, "b", "x\"y\\z\n\r\b\f\x01", "a", "ünïcode")
	var decoded Info
	require.NoError(t, decodeInfoJSON(encodeInfoJSON(info), &decoded))
	// Sorted on write, file order on read.
	require.Equal(t, []string{"a", "b"}, decoded.Keys())
	for _, key := range info.Keys() {
		want, _ := info.Get(key)
		got, ok := decoded.Get(key)
		require.True(t, ok)
		require.Equal(t, want, got)
	}
}

func TestInfoJSONDecodingKeepsFileOrder(t *testing.T) {
	var info Info
	require.NoError(t, decodeInfoJSON([]byte(`{"z": "1", "a": "2", "m": "3"}`), &info))
	require.Equal(t, []string{"z", "a", "m"}, info.Keys())
}

func TestInfoJSONDecodingErrors(t *testing.T) {
	for _, tc := range []struct{ text, message string }{
		{`["a"]`, "'info.json' should contain an object"},
		{`"a"`, "'info.json' should contain an object"},
		{`{"a": 1}`, "values in 'info.json' should be strings"},
		{`{"a": "b", "c": {"d": []}}`, "values in 'info.json' should be strings"},
		{`{"a": `, "invalid JSON in 'info.json'"},
		{`{"a": "b"} x`, "invalid JSON in 'info.json'"},
		{``, "invalid JSON in 'info.json'"},
		{`{"a": 1, "b": }`, "invalid JSON in 'info.json'"},
	} {
		var info Info
		err := decodeInfoJSON([]byte(tc.text), &info)
		require.Error(t, err, tc.text)
		require.ErrorIs(t, err, &Error{Status: SerializationError}, tc.text)
		require.Contains(t, err.Error(), tc.message, tc.text)
	}
}
