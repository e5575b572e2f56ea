package core

import (
	"math"
	"math/bits"
)

// The hash index maps a row's values to its position. It is an open-addressing table with
// linear probing, never resized: its capacity is known before the first insertion.
//
// A slot starts with a header word: position+1 in its low bits (0 marks an empty slot) and,
// in the high bits that positions do not need (12 of them for a million rows), a tag: more
// bits of the row's hash. A probe passing a slot whose tag differs knows the rows differ
// without comparing them.
//
// Rows of 1 to 3 values are stored in their slot after the header (slots of 2 or 4 words,
// so that a slot never straddles two cache lines): a lookup in a large index then costs one
// cache miss, where reading the row from the labels' values would cost a second, dependent
// one. Wider rows stay in the values, and their slots hold the header alone.

// maxIndexedCount is the largest number of rows an index can hold: slots store position+1
// in a uint32, 0 marking an empty slot.
const maxIndexedCount = math.MaxUint32 - 1

// Odd 64-bit multipliers with well spread bits (the wyhash constants).
const (
	hashK0 = 0xa0761d6478bd642f
	hashK1 = 0xe7037ed1a0b428db
	hashK2 = 0x8ebc6af09c88c6e3
)

// mix folds the 128-bit product of a and b into 64 bits: one multiplication spreads every
// input bit over the high bits, which pick the slot.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// pack puts two values side by side in one word, so two dimensions cost one multiplication.
func pack(a, b int32) uint64 { return uint64(uint32(a)) | uint64(uint32(b))<<32 }

func hash1(a int32) uint64       { return mix(uint64(uint32(a))^hashK0, hashK1) }
func hash2(a, b int32) uint64    { return mix(pack(a, b)^hashK0, hashK1) }
func hash3(a, b, c int32) uint64 { return mix(hash2(a, b)^uint64(uint32(c)), hashK2) }
func hash4(a, b, c, d int32) uint64 {
	return mix(hash2(a, b)^pack(c, d), hashK2)
}

// hashN hashes rows of any width, two values at a time.
func hashN(row []int32) uint64 {
	h := uint64(hashK0)
	i := 0
	for ; i+1 < len(row); i += 2 {
		h = mix(h^pack(row[i], row[i+1]), hashK1)
	}
	if i < len(row) {
		h = mix(h^uint64(uint32(row[i])), hashK2)
	}
	return h
}

func hashRow(row []int32) uint64 {
	switch len(row) {
	case 1:
		return hash1(row[0])
	case 2:
		return hash2(row[0], row[1])
	case 3:
		return hash3(row[0], row[1], row[2])
	case 4:
		return hash4(row[0], row[1], row[2], row[3])
	}
	return hashN(row)
}

type labelsIndex struct {
	slots   []uint32 // stride words per slot: the header, then the row when stored inline
	stride  uint64   // words per slot: 1, or 2 and 4 for rows stored inline
	mask    uint64   // number of slots - 1
	shift   uint     // 64 - log2(number of slots): a hash's top bits give its first slot
	posBits uint     // number of low bits of a header holding position+1
	posMask uint32   // 1<<posBits - 1
}

// inlineStride gives the words of a slot storing rows of width size inline, or 1 when rows of
// that width stay in the values.
func inlineStride(size int) uint64 {
	switch size {
	case 1:
		return 2
	case 2, 3:
		return 4
	}
	return 1
}

// newLabelsIndex makes an empty index for up to count rows of width size, kept at most half
// full so that probe chains stay short (about 1.5 slots for a hit, 2.5 for a miss).
func newLabelsIndex(count, size int) *labelsIndex {
	n := 8
	for n < 2*count {
		n <<= 1
	}
	posBits := uint(max(1, bits.Len64(uint64(count))))
	stride := inlineStride(size)
	return &labelsIndex{
		slots:   make([]uint32, uint64(n)*stride),
		stride:  stride,
		mask:    uint64(n - 1),
		shift:   uint(64 - bits.TrailingZeros(uint(n))),
		posBits: posBits,
		posMask: uint32(uint64(1)<<posBits - 1),
	}
}

// slotCount gives the number of slots of the table.
func (ix *labelsIndex) slotCount() int { return int(ix.mask + 1) }

// tag gives the high bits of the header of a row with hash h: its low bits, shifted past the
// position (none at all when positions need every bit).
func (ix *labelsIndex) tag(h uint64) uint32 { return uint32(h) << ix.posBits }

// header gives the header word of slot i.
func (ix *labelsIndex) header(i uint64) uint32 { return ix.slots[i*ix.stride] }

// put fills the empty slot i with the row at position pos, whose hash is h.
func (ix *labelsIndex) put(i, h uint64, pos int, row []int32) {
	at := i * ix.stride
	ix.slots[at] = ix.tag(h) | uint32(pos+1)
	if ix.stride > 1 {
		for k, v := range row {
			ix.slots[at+1+uint64(k)] = uint32(v)
		}
	}
}

// buildLabelsIndex indexes every row of values, assumed unique. Should they not be (labels
// made with assume-unique by a careless caller), the first occurrence is the one found:
// linear probing without deletion keeps earlier insertions earlier in every chain.
func buildLabelsIndex(values []int32, size, count int) *labelsIndex {
	ix := newLabelsIndex(count, size)
	ix.insertAllNew(values, size, 0, count)
	return ix
}

// find gives the position of row in values (the rows this index was built over), or -1.
// It hashes and probes in one switch on the width: a hot path, called once per entry.
func (ix *labelsIndex) find(values, row []int32) int {
	var found int
	switch len(row) {
	case 1:
		h := hash1(row[0])
		found, _ = ix.probe1(row[0], h, h>>ix.shift)
	case 2:
		h := hash2(row[0], row[1])
		found, _ = ix.probe2(row[0], row[1], h, h>>ix.shift)
	case 3:
		h := hash3(row[0], row[1], row[2])
		found, _ = ix.probe3(row[0], row[1], row[2], h, h>>ix.shift)
	case 4:
		h := hash4(row[0], row[1], row[2], row[3])
		found, _ = ix.probe4(values, row[0], row[1], row[2], row[3], h, h>>ix.shift)
	default:
		h := hashN(row)
		found, _ = ix.probeN(values, row, h, h>>ix.shift)
	}
	return found
}

// probeFrom walks the chain of row's hash h from its slot i. It returns the position of the
// equal row and its slot, or -1 and the empty slot that ends the chain (where row would go).
func (ix *labelsIndex) probeFrom(values, row []int32, h, i uint64) (int, uint64) {
	switch len(row) {
	case 1:
		return ix.probe1(row[0], h, i)
	case 2:
		return ix.probe2(row[0], row[1], h, i)
	case 3:
		return ix.probe3(row[0], row[1], row[2], h, i)
	case 4:
		return ix.probe4(values, row[0], row[1], row[2], row[3], h, i)
	}
	return ix.probeN(values, row, h, i)
}

// Widths 1 to 4 have their own probe, so that comparisons work on registers, not slices.
// Widths 1 to 3 compare with the row stored in the slot (probe1 to probe3, generated into
// labels_probe_gen.go by gen/gocore), wider ones with the values.

func (ix *labelsIndex) probe4(values []int32, a, b, c, d int32, h, i uint64) (int, uint64) {
	return ix.probeValues(ix.tag(h), i, func(p int) bool {
		r := values[4*p : 4*p+4 : 4*p+4]
		return r[0] == a && r[1] == b && r[2] == c && r[3] == d
	})
}

func (ix *labelsIndex) probeN(values, row []int32, h, i uint64) (int, uint64) {
	return ix.probeValues(ix.tag(h), i, func(p int) bool { return compareRows(rowAt(values, len(row), p), row) == 0 })
}

// probeValues is the probe of rows kept in the values: same(p) compares the row at position p
// of a slot whose tag matches. An empty slot (0) gives position -1 by the same expression. Kept
// within the inlining budget, so that same is inlined too: a call per slot would cost a fifth
// more on lookups of 4 dimensions.
func (ix *labelsIndex) probeValues(tag uint32, i uint64, same func(p int) bool) (int, uint64) {
	slots, mask, posMask := ix.slots, ix.mask, ix.posMask
	for ; ; i = (i + 1) & mask {
		s := slots[i]
		if s == 0 || s&^posMask == tag && same(int(s&posMask)-1) {
			return int(s&posMask) - 1, i
		}
	}
}

// IndexTable is the hash index of labels as code outside Go reads it (the C binding looks rows
// up without entering Go): the slots (IndexStride words each) and the constants that find a
// row's chain and compare its slots, with the meaning they have above. The hashes are those
// of hashRow.
type IndexTable struct {
	Slots   []uint32
	Mask    uint64
	Shift   uint
	PosBits uint
	PosMask uint32
}

// IndexHashMultipliers gives the multipliers of hashRow (hashK0 to hashK2), and IndexStride
// the words per slot for rows of a width: code outside Go that walks an index (IndexTable)
// takes them from here (gen/cgo writes them into the C binding's fastpath_limits_gen.h).
func IndexHashMultipliers() [3]uint64 { return [3]uint64{hashK0, hashK1, hashK2} }

// IndexStride gives the words per slot of an index over rows of width size (inlineStride).
func IndexStride(size int) uint64 { return inlineStride(size) }

// IndexTable gives the hash index of the labels when a lookup built it, else false. The
// index never changes once built: its slots live as long as the labels.
func (l *Labels) IndexTable() (IndexTable, bool) {
	ix := l.index.Load()
	if ix == nil {
		return IndexTable{}, false
	}
	return IndexTable{ix.slots, ix.mask, ix.shift, ix.posBits, ix.posMask}, true
}
