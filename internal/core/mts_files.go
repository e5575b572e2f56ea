package core

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// mtsKind is what a .mts file holds. Loading the wrong kind fails with a hint naming the
// loader that fits, as the reference's messages do.
type mtsKind int

const (
	labelsFile mtsKind = iota
	blockFile
	tensorMapFile
)

// mtsSource is the bytes a file is loaded from; path is empty for a buffer in memory.
type mtsSource struct {
	reader io.ReaderAt
	size   int64
	path   string
}

// LoadLabelsBuffer reads labels saved by SaveLabels from memory.
func LoadLabelsBuffer(data []byte) (*ArrayLabels, error) {
	return loadBuffer(labelsFile, data, loadLabelsFrom)
}

// LoadLabelsFile reads labels saved by SaveLabels from the file at path.
func LoadLabelsFile(path string) (*ArrayLabels, error) {
	return loadFile(labelsFile, path, loadLabelsFrom)
}

// LoadBlockBuffer reads a block saved by SaveBlock from memory.
func LoadBlockBuffer(data []byte, create CreateArray) (*Block, error) {
	return loadBuffer(blockFile, data, withCreate(LoadBlock, create))
}

// LoadBlockFile reads a block saved by SaveBlock from the file at path.
func LoadBlockFile(path string, create CreateArray) (*Block, error) {
	return loadFile(blockFile, path, withCreate(LoadBlock, create))
}

// LoadTensorMapBuffer reads a tensor map saved by SaveTensorMap from memory.
func LoadTensorMapBuffer(data []byte, create CreateArray) (*TensorMap, error) {
	return loadBuffer(tensorMapFile, data, withCreate(LoadTensorMap, create))
}

// LoadTensorMapFile reads a tensor map saved by SaveTensorMap from the file at path.
func LoadTensorMapFile(path string, create CreateArray) (*TensorMap, error) {
	return loadFile(tensorMapFile, path, withCreate(LoadTensorMap, create))
}

// SaveLabelsFile writes labels to the file at path, replacing it.
func SaveLabelsFile(path string, labels *ArrayLabels) error {
	return saveFile(path, func(sink SaveSink) error { return SaveLabels(sink, labels) })
}

// SaveBlockFile writes a block to the file at path, replacing it.
func SaveBlockFile(path string, block *Block) error {
	return saveFile(path, func(sink SaveSink) error { return SaveBlock(sink, block) })
}

// SaveTensorMapFile writes a tensor map to the file at path, replacing it.
func SaveTensorMapFile(path string, tensor *TensorMap) error {
	return saveFile(path, func(sink SaveSink) error { return SaveTensorMap(sink, tensor) })
}

// SaveLabelsBuffer gives the bytes SaveLabels writes.
func SaveLabelsBuffer(labels *ArrayLabels) ([]byte, error) {
	return saveBuffer(func(sink SaveSink) error { return SaveLabels(sink, labels) })
}

// SaveBlockBuffer gives the bytes SaveBlock writes.
func SaveBlockBuffer(block *Block) ([]byte, error) {
	return saveBuffer(func(sink SaveSink) error { return SaveBlock(sink, block) })
}

// SaveTensorMapBuffer gives the bytes SaveTensorMap writes.
func SaveTensorMapBuffer(tensor *TensorMap) ([]byte, error) {
	return saveBuffer(func(sink SaveSink) error { return SaveTensorMap(sink, tensor) })
}

func saveBuffer(save func(SaveSink) error) ([]byte, error) {
	sink := &memorySink{}
	if err := save(sink); err != nil {
		return nil, err
	}
	return sink.data, nil
}

// withCreate binds the create callback of a zip loader.
func withCreate[T any](load func(io.ReaderAt, int64, CreateArray) (T, error), create CreateArray) func(io.ReaderAt, int64) (T, error) {
	return func(r io.ReaderAt, size int64) (T, error) { return load(r, size, create) }
}

func loadLabelsFrom(r io.ReaderAt, size int64) (*ArrayLabels, error) {
	return LoadLabels(io.NewSectionReader(r, 0, size), size)
}

func loadBuffer[T any](kind mtsKind, data []byte, load func(io.ReaderAt, int64) (T, error)) (T, error) {
	if len(data) == 0 {
		var none T
		return none, Errorf(SerializationError, "unable to load %s from empty buffer", kind.typeName())
	}
	source := mtsSource{reader: bytes.NewReader(data), size: int64(len(data))}
	result, err := load(source.reader, source.size)
	return result, source.explain(kind, err)
}

func loadFile[T any](kind mtsKind, path string, load func(io.ReaderAt, int64) (T, error)) (T, error) {
	var none T
	if err := checkPath(path); err != nil {
		return none, err
	}
	file, err := os.Open(path)
	if err != nil {
		return none, osError(err)
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return none, osError(err)
	}
	source := mtsSource{reader: file, size: info.Size(), path: path}
	result, err := load(source.reader, source.size)
	return result, source.explain(kind, err)
}

func saveFile(path string, save func(SaveSink) error) error {
	if err := checkPath(path); err != nil {
		return err
	}
	file, err := os.Create(path)
	if err != nil {
		return osError(err)
	}
	sink := newFileSink(file)
	err = save(sink)
	if err == nil {
		err = sink.Flush()
	}
	if closeErr := file.Close(); err == nil && closeErr != nil {
		err = osError(closeErr)
	}
	return err
}

// checkPath requires paths to be UTF-8, as the reference does (it panics otherwise, hence the
// status).
func checkPath(path string) error {
	if problem := utf8Problem(path); problem != "" {
		return Errorf(InternalError, "use UTF-8 for path: %s", problem)
	}
	return nil
}

// typeName is the name of the kind in the messages of loaders: "unable to load a TensorMap".
func (k mtsKind) typeName() string {
	return [...]string{"Labels", "TensorBlock", "TensorMap"}[k]
}

// explain rewrites a format error to say what was being loaded from where, with a hint when
// the bytes look like another kind of file. Other errors pass through.
func (s mtsSource) explain(kind mtsKind, err error) error {
	// Loaders give callers plain *Error values, whatever the detail they carried inside.
	var oversize *npyOversizeError
	if errors.As(err, &oversize) {
		err = oversize.cause
	}
	var format *Error
	if err == nil || !errors.As(err, &format) || format.Status != SerializationError {
		return err
	}
	what := "Labels"
	if kind != labelsFile {
		what = "a " + kind.typeName()
	}
	from := "buffer"
	if s.path != "" {
		from = "'" + s.path + "'"
	}
	if hint := s.hint(kind); hint != "" {
		return Errorf(SerializationError, "unable to load %s from %s, %s: %s", what, from, hint, format.Message)
	}
	return Errorf(SerializationError, "unable to load %s from %s: %s", what, from, format.Message)
}

// hint names the loader for the kind of file the bytes look like, in the reference's order
// of checks and with its function names (which differ between paths and buffers).
func (s mtsSource) hint(kind mtsKind) string {
	buffer := s.path == ""
	labels := func() string {
		if buffer && kind == tensorMapFile {
			return "use `load_labels_buffer` to load Labels"
		}
		return "use `load_labels` to load Labels"
	}
	block := func() string {
		if buffer {
			return "use `load_block_buffer` to load TensorBlock"
		}
		return "use `load_block` to load TensorBlock"
	}
	tensorMap := func() string {
		if buffer && kind == labelsFile {
			return "use `load_buffer` to load TensorMap"
		}
		return "use `load` to load TensorMap"
	}
	switch kind {
	case tensorMapFile:
		if s.looksLikeLabels() {
			return labels()
		} else if s.hasZipEntry("values.npy") {
			return block()
		}
	case blockFile:
		if s.looksLikeLabels() {
			return labels()
		} else if s.hasZipEntry("keys.npy") {
			return tensorMap()
		}
	case labelsFile:
		if s.hasZipEntry("keys.npy") {
			return tensorMap()
		} else if s.hasZipEntry("values.npy") {
			return block()
		}
	}
	return ""
}

// looksLikeLabels: a .npy name, or bytes starting with a valid NPY header.
func (s mtsSource) looksLikeLabels() bool {
	if s.path != "" && strings.EqualFold(filepath.Ext(s.path), ".npy") {
		return true
	}
	return startsWithNpyHeader(io.NewSectionReader(s.reader, 0, s.size))
}

func (s mtsSource) hasZipEntry(name string) bool {
	archive, err := openZip(s.reader, s.size)
	return err == nil && archive.Has(name)
}

// osError reports a failure of the operating system as the reference does ("No such file or
// directory (os error 2)"), with the I/O status.
func osError(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		text := errno.Error()
		if text != "" {
			text = strings.ToUpper(text[:1]) + text[1:]
		}
		return Errorf(IOError, "%s (os error %d)", text, int(errno))
	}
	return Errorf(IOError, "%v", err)
}

// readError gives reading failures the I/O status; errors of the core keep theirs.
func readError(err error) error {
	var known *Error
	if errors.As(err, &known) {
		return err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return Errorf(IOError, "failed to fill whole buffer")
	}
	return osError(err)
}
