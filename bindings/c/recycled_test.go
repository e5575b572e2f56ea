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

func TestRecycledMemoryComesBackCleared(t *testing.T) {
	if !recycling() {
		t.Skip("recycled memory is not reused (MTSGO_RECYCLED=poison, or MTSGO_FASTPATHS)")
	}
	materializing.Lock()
	made := newMadeInC()
	materializing.Unlock()
	made.shape = [2]uintptr{3, 2}
	made.object.made = made
	recycleMadeInC([]*madeInC{made})
	materializing.Lock()
	again := newMadeInC()
	materializing.Unlock()
	assert.Same(t, made, again, "the last memory given is the first taken")
	assert.Equal(t, [2]uintptr{}, again.shape)
	assert.Nil(t, again.object.made)

	materializingTensorMaps.Lock()
	tensor := newMadeTensorMap()
	materializingTensorMaps.Unlock()
	tensor.object.made = tensor
	recycleMadeTensorMap(tensor)
	materializingTensorMaps.Lock()
	defer materializingTensorMaps.Unlock()
	tensorAgain := newMadeTensorMap()
	assert.Same(t, tensor, tensorAgain)
	assert.Nil(t, tensorAgain.object.made)
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
