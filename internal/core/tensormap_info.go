package core

import "slices"

// Info is the string metadata of a tensor map: values by key, and the keys in the order they
// were first set. Values are kept as given, bytes that are not UTF-8 included.
type Info struct {
	values map[string]string
	order  []string
}

// Set stores value under key; a key already set keeps its place in Keys.
func (info *Info) Set(key, value string) error {
	if err := CheckInfoKey(key); err != nil {
		return err
	}
	if info.values == nil {
		info.values = make(map[string]string)
	}
	if _, ok := info.values[key]; !ok {
		info.order = append(info.order, key)
	}
	info.values[key] = value
	return nil
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
	value, ok := info.values[key]
	return value, ok
}

// Keys gives the keys in the order they were first set; do not modify the slice.
func (info *Info) Keys() []string { return info.order }

// Len gives the number of entries.
func (info *Info) Len() int { return len(info.order) }

// Clone copies the entries, keeping their order.
func (info *Info) Clone() Info {
	clone := Info{order: slices.Clone(info.order)}
	if info.values != nil {
		clone.values = make(map[string]string, len(info.values))
		for key, value := range info.values {
			clone.values[key] = value
		}
	}
	return clone
}

// Sorted copies the entries with the keys in alphabetical order, as the results of
// keys_to_properties and keys_to_samples list them.
func (info *Info) Sorted() Info {
	clone := info.Clone()
	slices.Sort(clone.order)
	return clone
}
