package core

import (
	"errors"
	"io"
	"os"
)

// SaveSink receives the bytes of a file being saved, in order, and lets the zip writer patch
// bytes it already wrote (local headers are completed once the entry's CRC is known): WriteAt
// only touches the range already written.
type SaveSink interface {
	io.Writer
	io.WriterAt
}

// errPatchOutside is the failure of a WriteAt that reaches past what a sink holds.
func errPatchOutside(offset int64, count int, written int64) *Error {
	return Errorf(IOError, "can not patch %d bytes at offset %d: only %d bytes were written", count, offset, written)
}

// patchInside tells whether count bytes at offset lie inside the written bytes.
func patchInside(offset int64, count int, written int64) bool {
	return offset >= 0 && offset <= written && int64(count) <= written-offset
}

// memorySink keeps the saved bytes in memory.
type memorySink struct {
	data []byte
}

func (s *memorySink) Write(p []byte) (int, error) {
	s.data = append(s.data, p...)
	return len(p), nil
}

func (s *memorySink) WriteAt(p []byte, offset int64) (int, error) {
	if !patchInside(offset, len(p), int64(len(s.data))) {
		return 0, errPatchOutside(offset, len(p), int64(len(s.data)))
	}
	return copy(s.data[offset:], p), nil
}

// fileSinkBuffer is how many bytes a fileSink gathers before writing them to the file.
const fileSinkBuffer = 1 << 20

// fileSink writes to a file through a buffer, so that the many small writes of a save (NPY
// headers, zip headers, small arrays) cost one system call per MiB. Patches of bytes still in
// the buffer change the buffer; older ones are written in place. Offsets count from where the
// file was when the sink was made. Flush must be called once the save is done.
type fileSink struct {
	file *os.File
	// base is the file offset of the sink's first byte; flushed how many of the sink's bytes
	// are in the file, the following ones being in pending.
	base    int64
	flushed int64
	pending []byte
	err     error
}

func newFileSink(file *os.File) *fileSink {
	base, err := file.Seek(0, io.SeekCurrent)
	if err != nil {
		// A pipe or terminal: appending works, patching what was written can not.
		base = -1
	}
	return &fileSink{file: file, base: base, pending: make([]byte, 0, fileSinkBuffer)}
}

func (s *fileSink) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	large := len(p) >= cap(s.pending)/4
	if large || len(s.pending)+len(p) > cap(s.pending) {
		if err := s.Flush(); err != nil {
			return 0, err
		}
	}
	if large {
		// Large writes skip the copy into the buffer.
		n, err := s.file.Write(p)
		s.flushed += int64(n)
		if err != nil {
			s.err = sinkError(err)
			return n, s.err
		}
		return n, nil
	}
	s.pending = append(s.pending, p...)
	return len(p), nil
}

func (s *fileSink) WriteAt(p []byte, offset int64) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	total := s.flushed + int64(len(s.pending))
	if !patchInside(offset, len(p), total) {
		return 0, errPatchOutside(offset, len(p), total)
	}
	done := 0
	if offset < s.flushed {
		inFile := p[:min(int64(len(p)), s.flushed-offset)]
		if s.base < 0 {
			return 0, Errorf(IOError, "can not patch bytes already written to a file that does not seek")
		}
		n, err := s.file.WriteAt(inFile, s.base+offset)
		if err != nil {
			s.err = sinkError(err)
			return n, s.err
		}
		done = n
	}
	if done < len(p) {
		done += copy(s.pending[offset+int64(done)-s.flushed:], p[done:])
	}
	return done, nil
}

// Flush writes the buffered bytes to the file.
func (s *fileSink) Flush() error {
	if s.err != nil {
		return s.err
	}
	if len(s.pending) == 0 {
		return nil
	}
	n, err := s.file.Write(s.pending)
	s.flushed += int64(n)
	s.pending = s.pending[:copy(s.pending, s.pending[n:])]
	if err != nil {
		s.err = sinkError(err)
	}
	return s.err
}

// sinkError gives failures of a sink the I/O status; errors of the core keep theirs.
func sinkError(err error) error {
	var known *Error
	if errors.As(err, &known) {
		return err
	}
	return osError(err)
}
