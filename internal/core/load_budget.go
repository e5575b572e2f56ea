package core

import (
	"math"
	"math/bits"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
)

// The entries a loader opens in one zip archive may declare, all together, at most
// loadSlack bytes plus the archive's size times the maximum compression ratio. Every buffer
// and array a loader makes is sized from those declared sizes (which the entry readers
// enforce), so a small file can not make the library allocate much: DEFLATE alone expands
// data about 1032 times, and entries may share their data, so without a budget for the whole
// load a 2 MB file could ask for gigabytes.

// DefaultMaxCompressionRatio is the ratio used unless MTS_MAX_COMPRESSION_RATIO or
// SetMaxCompressionRatio says otherwise. Files written by metatensor are not compressed
// (ratio 1); real data compressed by other tools rarely goes past 10.
const DefaultMaxCompressionRatio = 100

// MaxCompressionRatioVariable names the environment variable read, once, by the first load.
const MaxCompressionRatioVariable = "MTS_MAX_COMPRESSION_RATIO"

// loadSlack is what any archive may declare whatever its size: small files with very
// compressible entries (an array of zeros) load without any setting.
const loadSlack = 16 << 20

var compressionRatio struct {
	once     sync.Once
	value    atomic.Uint64
	envError atomic.Pointer[Error] // a malformed environment variable, reported by every load
}

// SetMaxCompressionRatio sets the ratio for every later load of this process, overriding
// the environment variable. It must be at least 1.
func SetMaxCompressionRatio(ratio uint64) error {
	if ratio < 1 {
		return Errorf(InvalidParameterError, "the maximum compression ratio must be at least 1, got %d", ratio)
	}
	compressionRatio.once.Do(func() {})
	compressionRatio.envError.Store(nil)
	compressionRatio.value.Store(ratio)
	return nil
}

// MaxCompressionRatio gives the ratio loaders use now.
func MaxCompressionRatio() (uint64, error) {
	compressionRatio.once.Do(readCompressionRatioVariable)
	if err := compressionRatio.envError.Load(); err != nil {
		return 0, err
	}
	return compressionRatio.value.Load(), nil
}

func readCompressionRatioVariable() {
	compressionRatio.value.Store(DefaultMaxCompressionRatio)
	text, set := os.LookupEnv(MaxCompressionRatioVariable)
	if !set {
		return
	}
	ratio, err := strconv.ParseUint(text, 10, 64)
	if err != nil || ratio < 1 {
		compressionRatio.envError.Store(Errorf(InvalidParameterError,
			"%s must be a whole number of at least 1, got '%s'", MaxCompressionRatioVariable, text))
		return
	}
	compressionRatio.value.Store(ratio)
}

// loadBudget is what the entries of one archive may still declare, and still hold.
type loadBudget struct {
	archiveSize uint64
	ratio       uint64
	allowed     uint64
	left        uint64 // of allowed, for the uncompressed sizes
	dataLeft    uint64 // of archiveSize, for the compressed sizes
}

func newLoadBudget(archiveSize int64) (loadBudget, error) {
	ratio, err := MaxCompressionRatio()
	if err != nil {
		return loadBudget{}, err
	}
	hi, product := bits.Mul64(uint64(archiveSize), ratio)
	allowed, carry := bits.Add64(product, loadSlack, 0)
	if hi != 0 || carry != 0 {
		allowed = math.MaxUint64
	}
	return loadBudget{
		archiveSize: uint64(archiveSize),
		ratio:       ratio,
		allowed:     allowed,
		left:        allowed,
		dataLeft:    uint64(archiveSize),
	}, nil
}

// spend takes an entry's sizes from the budget, or says which entry and which sizes go past
// it. The data of the entries of a valid archive never overlap, so their compressed sizes add
// up to less than the archive: more means entries share their data (which the zip crate
// accepts), a way to declare much from little even without compression.
func (b *loadBudget) spend(entry zipEntry) error {
	if entry.compressedSize > b.dataLeft {
		return zipInvalid(entry.name,
			"the entry's %d bytes of data overlap those of the entries read before it: "+
				"only %d bytes of this %d-byte archive are left", entry.compressedSize, b.dataLeft, b.archiveSize)
	}
	if entry.uncompressedSize > b.left {
		return zipInvalid(entry.name,
			"the entry declares %d bytes (%d bytes compressed), more than this %d-byte archive may give: "+
				"its entries may declare %d bytes in all (16 MiB plus %d times the size of the archive) "+
				"and %d bytes are left; if the file is trusted, raise the maximum compression ratio "+
				"with the %s environment variable or SetMaxCompressionRatio",
			entry.uncompressedSize, entry.compressedSize, b.archiveSize, b.allowed, b.ratio, b.left,
			MaxCompressionRatioVariable)
	}
	b.dataLeft -= entry.compressedSize
	b.left -= entry.uncompressedSize
	return nil
}
