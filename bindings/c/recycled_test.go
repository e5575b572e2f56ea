package main

import (
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/metatensor-go/metatensor/internal/core"
)

type poisoned struct {
	names   [2]string
	count   int
	size    uint32
	checked bool
	values  []int32
	next    *poisoned
	any     any
	lock    sync.Mutex
	inner   struct{ label string }
}

func TestPoisonLeavesNoLiveValue(t *testing.T) {
	other := &poisoned{}
	v := &poisoned{names: [2]string{"a", "b"}, count: 3, size: 2, values: []int32{1}, next: other, any: 4}
	v.inner.label = "c"
	v.lock.Lock()
	poison(reflect.ValueOf(v).Elem())
	assert.Equal(t, [2]string{poisonText, poisonText}, v.names)
	assert.Equal(t, poisonText, v.inner.label)
	assert.Negative(t, v.count)
	assert.NotEqual(t, uint32(2), v.size)
	assert.True(t, v.checked)
	assert.Nil(t, v.values)
	assert.Nil(t, v.next)
	assert.Nil(t, v.any)
	assert.False(t, v.lock.TryLock(), "a lock is left as it was")
}

// Recycled memory comes back cleared, the last given first taken; with the recycle fast path
// off it is not kept, and poisoned it is not kept either but holds the poison.
func TestRecycledMemoryComesBackClearedOrNotAtAll(t *testing.T) {
	materializing.Lock()
	made := newMadeInC()
	materializing.Unlock()
	made.shape = [2]uintptr{3, 2}
	made.object.made = made
	recycleMadeInC([]*madeInC{made})
	materializing.Lock()
	again := newMadeInC()
	materializing.Unlock()

	materializingTensorMaps.Lock()
	tensor := newMadeTensorMap()
	materializingTensorMaps.Unlock()
	tensor.object.made = tensor
	recycleMadeTensorMap(tensor)
	materializingTensorMaps.Lock()
	tensorAgain := newMadeTensorMap()
	materializingTensorMaps.Unlock()

	if recycling() {
		assert.Same(t, made, again, "the last memory given is the first taken")
		assert.Equal(t, [2]uintptr{}, again.shape)
		assert.Nil(t, again.object.made)
		assert.Same(t, tensor, tensorAgain)
		assert.Nil(t, tensorAgain.object.made)
		return
	}
	assert.NotSame(t, made, again, "nothing recycled is reused")
	assert.NotSame(t, tensor, tensorAgain)
	if poisonRecycled {
		assert.Equal(t, [2]uintptr{0x5a5a5a5a, 0x5a5a5a5a}, made.shape)
		assert.Nil(t, made.object.made)
	}
}

func TestSparesKeepAtMostTheirCapacity(t *testing.T) {
	var s spares[int]
	for range spareCapacity + 5 {
		s.give(new(int))
	}
	assert.Len(t, s.items, spareCapacity)
	for range spareCapacity {
		s.take()
	}
	assert.Empty(t, s.items)
	assert.NotNil(t, s.take(), "an empty stack makes new memory")
}

// A map of more blocks than fewBlocks holds keeps its list of blocks, cleared, for the next
// map of as many blocks or fewer; a larger one gets a list of its own.
func TestRecycledMapKeepsItsListOfBlocks(t *testing.T) {
	materializingTensorMaps.Lock()
	tensor := newMadeTensorMap()
	materializingTensorMaps.Unlock()
	list := tensor.blockList(10)
	assert.Len(t, list, 10)
	for i := range list {
		list[i] = new(core.Block)
	}
	recycleMadeTensorMap(tensor)
	if poisonRecycled {
		assert.Equal(t, make([]*core.Block, 10), list, "the list is cleared, not kept")
		assert.Nil(t, tensor.spareBlocks)
		return
	}
	if !recycling() {
		assert.Equal(t, 10, len(tensor.blocks), "left as it was, to the collector")
		return
	}
	materializingTensorMaps.Lock()
	assert.Same(t, tensor, newMadeTensorMap())
	materializingTensorMaps.Unlock()
	assert.Equal(t, make([]*core.Block, 10), list, "cleared")
	assert.Nil(t, tensor.blocks)
	assert.Equal(t, 10, cap(tensor.spareBlocks))

	few := tensor.blockList(3)
	assert.Len(t, few, 3)
	assert.Equal(t, 10, cap(tensor.spareBlocks), "few blocks use fewBlocks, the list stays kept")
	again := tensor.blockList(8)
	assert.Same(t, &list[0], &again[0], "the kept list, for fewer blocks")
	assert.Len(t, again, 8)
	assert.Nil(t, tensor.spareBlocks, "taken")

	recycleMadeTensorMap(tensor)
	materializingTensorMaps.Lock()
	assert.Same(t, tensor, newMadeTensorMap())
	materializingTensorMaps.Unlock()
	larger := tensor.blockList(11)
	assert.NotSame(t, &list[0], &larger[0], "too short: a new list")
	assert.Len(t, larger, 11)
	recycleMadeTensorMap(tensor)
}
