package protocol

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzLineReader checks the reader's invariants on arbitrary input: every
// line returned is within the bound and newline-free, and the lines read
// before a clean EOF rebuild the input exactly.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nbc\n"), uint8(4))
	f.Add([]byte("toolong\n"), uint8(3))
	f.Add([]byte("x\ny"), uint8(8))
	f.Fuzz(func(t *testing.T, in []byte, max uint8) {
		m := int(max%32) + 1
		lr := newLineReader(bytes.NewReader(in), m)
		var rebuilt []byte
		for {
			l, err := lr.ReadLine()
			if err != nil {
				if errors.Is(err, io.EOF) && !bytes.Equal(rebuilt, in) {
					t.Fatalf("lines %q do not rebuild %q", rebuilt, in)
				}
				if !errors.Is(err, io.EOF) && !errors.Is(err, ErrLineTooLong) && !errors.Is(err, ErrIncompleteLine) {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if len(l)+1 > m || bytes.IndexByte(l, '\n') >= 0 {
				t.Fatalf("line %q breaks bound %d", l, m)
			}
			rebuilt = append(append(rebuilt, l...), '\n')
		}
	})
}
