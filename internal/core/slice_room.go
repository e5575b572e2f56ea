package core

// InRoom is a slice of n elements with capacity n: the first n of room when room holds them,
// else a new zeroed allocation. A caller's fixed-size room, on the stack or inside an object it
// allocates anyway, so saves an allocation for small n. room is not cleared: callers give
// fresh room, or write every element before reading it.
func InRoom[T any](room []T, n int) []T {
	if n <= len(room) {
		return room[:n:n]
	}
	return make([]T, n)
}
