package core

import "sync"

// Origin identifies the library or framework that owns an array's data (mts_data_origin_t).
type Origin uint64

// UnregisteredOrigin is the name of origin 0 and of every identifier never handed out.
const UnregisteredOrigin = "unregistered origin"

// origins is the process-wide registry behind mts_register_data_origin. Names are only ever
// added, so a lookup by identifier can not race with a removal.
var origins = struct {
	sync.RWMutex
	names []string
	ids   map[string]Origin
}{
	names: []string{UnregisteredOrigin},
	ids:   map[string]Origin{UnregisteredOrigin: 0},
}

// RegisterOrigin gives the identifier of an origin name, registering it on first use: the
// same name always gives the same identifier.
func RegisterOrigin(name string) Origin {
	origins.RLock()
	id, ok := origins.ids[name]
	origins.RUnlock()
	if ok {
		return id
	}
	origins.Lock()
	defer origins.Unlock()
	if id, ok := origins.ids[name]; ok {
		return id
	}
	id = Origin(len(origins.names))
	origins.names = append(origins.names, name)
	origins.ids[name] = id
	return id
}

// OriginName gives the name an origin was registered with, or UnregisteredOrigin.
func OriginName(id Origin) string {
	origins.RLock()
	defer origins.RUnlock()
	if id < Origin(len(origins.names)) {
		return origins.names[id]
	}
	return UnregisteredOrigin
}
