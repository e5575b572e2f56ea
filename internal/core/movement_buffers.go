package core

import "sync"

// movementBuffers recycles the movement lists given to Array.MoveData, which only reads them
// during the call. keys_to_* hand over one movement per sample and block, megabytes per call:
// fresh memory each time costs page faults that show in their timings.
var movementBuffers = sync.Pool{New: func() any { return new([]DataMovement) }}

// borrowMovements gives an empty list with room for n movements; give it back with
// returnMovements once MoveData returned.
func borrowMovements(n int) *[]DataMovement {
	list := movementBuffers.Get().(*[]DataMovement)
	if cap(*list) < n {
		*list = make([]DataMovement, 0, n)
	}
	*list = (*list)[:0]
	return list
}

func returnMovements(list *[]DataMovement) {
	movementBuffers.Put(list)
}
