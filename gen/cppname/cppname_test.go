package cppname

import "testing"

// TestChecked pins the naming rule of the checked calls: the C name without its prefix, a
// C++ keyword suffixed, the mapping's name first.
func TestChecked(t *testing.T) {
	for _, c := range []struct{ function, name, want string }{
		{"mts_labels_union", "", "labels_union"},
		{"mts_tensormap", "", "tensormap"},
		{"mts_new", "", "new_"},
		{"mts_labels_union", "union_checked", "union_checked"},
	} {
		if got := Checked(c.function, c.name); got != c.want {
			t.Errorf("Checked(%q, %q) = %q, want %q", c.function, c.name, got, c.want)
		}
	}
}
