package metatensor_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	metatensor "github.com/metatensor-go/metatensor/bindings/go"
)

func TestMaxCompressionRatioSetting(t *testing.T) {
	t.Cleanup(func() { require.NoError(t, metatensor.SetMaxCompressionRatio(metatensor.DefaultMaxCompressionRatio)) })
	require.NoError(t, metatensor.SetMaxCompressionRatio(5000))
	ratio, err := metatensor.MaxCompressionRatio()
	require.NoError(t, err)
	require.EqualValues(t, 5000, ratio)
	requireStatus(t, metatensor.SetMaxCompressionRatio(0), metatensor.ErrInvalidParameter,
		"the maximum compression ratio must be at least 1, got 0")
}
