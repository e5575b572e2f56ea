package core

import (
	"io"
	"strconv"
)

// infoEntry is the name of the entry holding a tensor map's info, present only when the info
// has entries.
const infoEntry = "info.json"

// SaveTensorMap writes a tensor map as a zip of NPY entries: the keys, every block under
// blocks/<i>/, then the info.
func SaveTensorMap(sink SaveSink, tensor *TensorMap) error {
	return writeZip(sink, func(archive *zipWriter) error {
		return writeTensorMapEntries(archive, tensor)
	})
}

// writeTensorMapEntries writes the entries of a tensor map file, in the reference's order.
func writeTensorMapEntries(archive *zipWriter, tensor *TensorMap) error {
	if err := writeLabelsEntry(archive, "keys.npy", tensor.keys); err != nil {
		return err
	}
	for i, block := range tensor.blocks {
		if err := writeBlockEntries(archive, "blocks/"+strconv.Itoa(i)+"/", true, block); err != nil {
			return err
		}
	}
	if tensor.info.Len() != 0 {
		if err := checkInfoValues(&tensor.info); err != nil {
			return err
		}
		entry, err := archive.Create(infoEntry)
		if err != nil {
			return err
		}
		if _, err := entry.Write(encodeInfoJSON(&tensor.info)); err != nil {
			return err
		}
	}
	return nil
}

// LoadTensorMap reads a tensor map file from the size bytes of r, making every array with
// create: for each block its values, then its gradients'. Entries the format does not name
// are ignored.
func LoadTensorMap(r io.ReaderAt, size int64, create CreateArray) (*TensorMap, error) {
	archive, err := openZip(r, size)
	if err != nil {
		return nil, err
	}
	keys, err := readLabelsEntry(archive, "keys.npy")
	if err != nil {
		return nil, err
	}
	defer keys.Release()

	blocks := make([]*Block, 0, keys.Count())
	for i := range keys.Count() {
		block, err := readBlockEntries(archive, "blocks/"+strconv.Itoa(i)+"/", nil, create)
		if err != nil {
			for _, block := range blocks {
				block.Free()
			}
			return nil, err
		}
		blocks = append(blocks, block)
	}
	tensor, err := NewTensorMap(keys, blocks)
	if err != nil {
		return nil, err
	}
	if archive.Has(infoEntry) {
		if err := readInfoEntry(archive, &tensor.info); err != nil {
			tensor.Free()
			return nil, err
		}
	}
	return tensor, nil
}

func readInfoEntry(archive *zipArchive, info *Info) error {
	entry, _, err := archive.Open(infoEntry)
	if err != nil {
		return err
	}
	if err := readInfoJSON(entry, info); err != nil {
		// Reading the whole entry first, as the reference does, would report a failing read
		// (a bad checksum) before what the text holds: so does this.
		if _, readErr := io.Copy(io.Discard, entry); readErr != nil {
			return inEntry(infoEntry, zipReadError(readErr))
		}
		return inEntry(infoEntry, err)
	}
	return nil
}
