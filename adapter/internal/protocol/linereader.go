package protocol

import (
	"bufio"
	"errors"
	"io"
)

// Line reader failures (§9.3).
var (
	// ErrLineTooLong: a line longer than MaxLine bytes, newline included
	// (command_too_large).
	ErrLineTooLong = errors.New("command_too_large: line exceeds 4 MiB")
	// ErrIncompleteLine: EOF in the middle of a line (incomplete_command).
	ErrIncompleteLine = errors.New("incomplete_command: last line has no newline")
)

// LineReader reads newline-terminated lines of at most MaxLine bytes
// (newline included), never buffering more than MaxLine+1 bytes of one line.
type LineReader struct {
	r   *bufio.Reader
	buf []byte
	max int
}

// NewLineReader returns a LineReader on r with the protocol bound.
func NewLineReader(r io.Reader) *LineReader { return newLineReader(r, MaxLine) }

func newLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// ReadLine returns the next line without its newline. It returns io.EOF at a
// clean end of input, ErrIncompleteLine when input ends inside a line and
// ErrLineTooLong when the line (with its newline) exceeds the bound. The
// returned slice is valid until the next call.
func (l *LineReader) ReadLine() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(l.buf)+len(chunk) > l.max {
			return nil, ErrLineTooLong
		}
		l.buf = append(l.buf, chunk...)
		switch {
		case err == nil:
			return l.buf[:len(l.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(l.buf) == 0 {
				return nil, io.EOF
			}
			return nil, ErrIncompleteLine
		default:
			return nil, err
		}
	}
}
