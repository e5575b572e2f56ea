package core

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOriginsAreStableAndDistinct(t *testing.T) {
	assert.Equal(t, Origin(0), RegisterOrigin(UnregisteredOrigin))
	a := RegisterOrigin("core-test.a")
	b := RegisterOrigin("core-test.b")
	assert.NotEqual(t, a, b)
	assert.NotZero(t, a)
	assert.Equal(t, a, RegisterOrigin("core-test.a"))
	assert.Equal(t, "core-test.a", OriginName(a))
	assert.Equal(t, "core-test.b", OriginName(b))
	assert.Equal(t, UnregisteredOrigin, OriginName(1<<40))
}

func TestOriginsConcurrentRegistration(t *testing.T) {
	const workers, names = 8, 50
	results := make([][]Origin, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range names {
				results[w] = append(results[w], RegisterOrigin(fmt.Sprintf("core-test.concurrent.%d", i)))
			}
		}()
	}
	wg.Wait()
	seen := map[Origin]bool{}
	for i := range names {
		for w := 1; w < workers; w++ {
			require.Equal(t, results[0][i], results[w][i], "name %d", i)
		}
		assert.False(t, seen[results[0][i]], "identifier reused")
		seen[results[0][i]] = true
	}
}

func TestErrorMessagesAndMatching(t *testing.T) {
	err := Errorf(InvalidParameterError, "'%s' is not a valid label name", "1a")
	assert.Equal(t, "invalid parameter: '1a' is not a valid label name", err.Error())
	assert.ErrorIs(t, err, &Error{Status: InvalidParameterError})
	assert.NotErrorIs(t, err, &Error{Status: IOError})
	assert.Equal(t, "internal metatensor error (this is likely a bug, please report it): not implemented yet: mts_labels",
		NotImplemented("mts_labels").Error())
	assert.Equal(t, "MTS_CALLBACK_ERROR", CallbackError.String())
	assert.Equal(t, "", CallbackError.Prefix())
}
