package main

import (
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
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
