package core

import (
	"slices"
	"strings"
)

// Info is the string metadata of a tensor map: values by key, and the keys in the order they
// were first set. Values are kept as given, bytes that are not UTF-8 included.
//
// Maps carry a few entries at most, so the keys are found by a scan of two slices (two
// allocations for a first entry, where a Go map takes three and most of the time of setting
// it); an index is built once there are more than infoScanned.
type Info struct {
	keys   []string       // in the order they were first set
	values []string       // values[i] is the value of keys[i]
	index  map[string]int // the position of each key, past infoScanned keys; else nil
}

const infoScanned = 16

// position gives the index of key in keys, or -1.
func (info *Info) position(key string) int {
	if info.index != nil {
		if i, ok := info.index[key]; ok {
			return i
		}
		return -1
	}
	return slices.Index(info.keys, key)
}

// Set stores value under key; a key already set keeps its place in Keys.
func (info *Info) Set(key, value string) error {
	if err := CheckInfoKey(key); err != nil {
		return err
	}
	if i := info.position(key); i >= 0 {
		info.values[i] = value
		return nil
	}
	info.keys = append(info.keys, key)
	info.values = append(info.values, value)
	if info.index != nil {
		info.index[key] = len(info.keys) - 1
	} else if len(info.keys) > infoScanned {
		info.buildIndex()
	}
	return nil
}

func (info *Info) buildIndex() {
	info.index = make(map[string]int, len(info.keys))
	for i, key := range info.keys {
		info.index[key] = i
	}
}

// CheckInfoKey rejects keys that are not UTF-8.
func CheckInfoKey(key string) error {
	if problem := utf8Problem(key); problem != "" {
		return Errorf(InvalidParameterError, "Invalid UTF-8 in key: %s", problem)
	}
	return nil
}

// Get gives the value of key, and whether it is set.
func (info *Info) Get(key string) (string, bool) {
	if i := info.position(key); i >= 0 {
		return info.values[i], true
	}
	return "", false
}

// Keys gives the keys in the order they were first set; do not modify the slice.
func (info *Info) Keys() []string { return info.keys }

// Len gives the number of entries.
func (info *Info) Len() int { return len(info.keys) }

// Clone copies the entries, keeping their order.
func (info *Info) Clone() Info {
	clone := Info{keys: slices.Clone(info.keys), values: slices.Clone(info.values)}
	if info.index != nil {
		clone.buildIndex()
	}
	return clone
}

// Sorted copies the entries with the keys in alphabetical order, as the results of
// keys_to_properties and keys_to_samples list them.
func (info *Info) Sorted() Info {
	order := make([]int, len(info.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(info.keys[a], info.keys[b]) })
	sorted := Info{keys: make([]string, len(order)), values: make([]string, len(order))}
	for i, from := range order {
		sorted.keys[i] = info.keys[from]
		sorted.values[i] = info.values[from]
	}
	if info.index != nil {
		sorted.buildIndex()
	}
	return sorted
}
