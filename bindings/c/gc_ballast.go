package main

import (
	"os"
	"strconv"
)

// The Go heap of the library holds little that lives long (records, labels and the blocks'
// bookkeeping; values mostly live in the callers' arrays), so with the runtime's default
// pacing the collector runs every few MiB allocated: building and freeing maps of small
// blocks spent about a third of its time in it (map_cycle_bench). A ballast, an allocation
// that is never read or written, and so never backed by memory, counts as live heap and
// spaces the collections out by about its size (GOGC=100). See docs/memory.md.

// defaultBallastMiB is the ballast's size when MTS_GC_BALLAST_MIB does not set it.
const defaultBallastMiB = 16

// ballast is kept alive by this variable; nothing ever touches its bytes.
var ballast []byte

func init() {
	ballast = make([]byte, ballastBytes(os.Getenv("MTS_GC_BALLAST_MIB"), os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT")))
}

// ballastBytes is the ballast's size: none when the user tunes the collector (GOGC or
// GOMEMLIMIT set), the setting's MiB when it is a whole number from 0 to 4096, else the
// default.
func ballastBytes(setting, gogc, memoryLimit string) int {
	if gogc != "" || memoryLimit != "" {
		return 0
	}
	mib, err := strconv.Atoi(setting)
	if err != nil || mib < 0 || mib > 4096 {
		mib = defaultBallastMiB
	}
	return mib << 20
}
