package metatensor

import "github.com/metatensor-go/metatensor/internal/core"

// Loaders never allocate much more than the file justifies: the entries of one .mts archive
// may declare, all together, 16 MiB plus the archive's size times the maximum compression
// ratio. A file beyond that fails to load with an ErrSerialization error naming the entry.
// Files written by metatensor are not compressed; raise the ratio only for trusted files of
// very compressible data.

// DefaultMaxCompressionRatio is the ratio used unless the MTS_MAX_COMPRESSION_RATIO
// environment variable (read once, by the first load) or SetMaxCompressionRatio says
// otherwise.
const DefaultMaxCompressionRatio = core.DefaultMaxCompressionRatio

// SetMaxCompressionRatio sets the maximum compression ratio of every later load in this
// process, the C API's included, overriding the environment variable. It must be at least 1.
func SetMaxCompressionRatio(ratio uint64) error {
	return core.SetMaxCompressionRatio(ratio)
}

// MaxCompressionRatio gives the ratio loads use now, or the error of a malformed
// MTS_MAX_COMPRESSION_RATIO variable.
func MaxCompressionRatio() (uint64, error) {
	return core.MaxCompressionRatio()
}
