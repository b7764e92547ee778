package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrTruncated reports input that ends before a value it announces.
var ErrTruncated = errors.New("wire: truncated input")

// ErrInvalidLength reports a length or count that is negative where null is not
// allowed, or larger than the bytes that remain could hold.
var ErrInvalidLength = errors.New("wire: invalid length")

// ErrVarintOverflow reports a varint longer than its type allows.
var ErrVarintOverflow = errors.New("wire: varint overflow")

// Reader decodes protocol primitives from a bounded byte slice. It never reads
// past its slice and never allocates for a length it has not checked against
// the bytes that remain. The first failure is kept in Err; after it every read
// returns a zero value, so a decoder can read a whole message and check Err
// once at the end.
type Reader struct {
	buf []byte
	off int
	err error
}

// NewReader returns a Reader over b. The Reader does not copy b; decoded byte
// slices alias it unless documented otherwise.
func NewReader(b []byte) *Reader { return &Reader{buf: b} }

// Reset points r at b and clears its error, so a Reader can be reused.
func (r *Reader) Reset(b []byte) { *r = Reader{buf: b} }

// Err returns the first decoding error, or nil.
func (r *Reader) Err() error { return r.err }

// Remaining returns how many bytes are left to read.
func (r *Reader) Remaining() int { return len(r.buf) - r.off }

// Offset returns how many bytes have been consumed.
func (r *Reader) Offset() int { return r.off }

// Fail records err (wrapped with the current offset) unless an error is
// already recorded. Decoders use it for semantic violations.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = fmt.Errorf("%w (at byte %d)", err, r.off)
		r.off = len(r.buf)
	}
}

// Complete fails with ErrInvalidLength when bytes remain unread, for decoders
// that must consume their whole input.
func (r *Reader) Complete() error {
	if r.err == nil && r.off != len(r.buf) {
		r.Fail(fmt.Errorf("%w: %d trailing bytes", ErrInvalidLength, len(r.buf)-r.off))
	}
	return r.err
}

func (r *Reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.buf)-r.off {
		r.Fail(ErrTruncated)
		return nil
	}
	b := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return b
}

// Raw returns the next n bytes without copying.
func (r *Reader) Raw(n int) []byte { return r.take(n) }

// Int8 reads an INT8.
func (r *Reader) Int8() int8 {
	if b := r.take(1); b != nil {
		return int8(b[0])
	}
	return 0
}

// Bool reads a BOOLEAN (any non-zero byte is true).
func (r *Reader) Bool() bool { return r.Int8() != 0 }

// Int16 reads a big-endian INT16.
func (r *Reader) Int16() int16 {
	if b := r.take(2); b != nil {
		return int16(binary.BigEndian.Uint16(b))
	}
	return 0
}

// Int32 reads a big-endian INT32.
func (r *Reader) Int32() int32 {
	if b := r.take(4); b != nil {
		return int32(binary.BigEndian.Uint32(b))
	}
	return 0
}

// Uint32 reads a big-endian UINT32.
func (r *Reader) Uint32() uint32 {
	if b := r.take(4); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

// Int64 reads a big-endian INT64.
func (r *Reader) Int64() int64 {
	if b := r.take(8); b != nil {
		return int64(binary.BigEndian.Uint64(b))
	}
	return 0
}

// Float64 reads a FLOAT64.
func (r *Reader) Float64() float64 {
	if b := r.take(8); b != nil {
		return math.Float64frombits(binary.BigEndian.Uint64(b))
	}
	return 0
}

// UUID reads a 16-byte UUID.
func (r *Reader) UUID() UUID {
	var u UUID
	if b := r.take(16); b != nil {
		copy(u[:], b)
	}
	return u
}

// Uvarint reads an UNSIGNED_VARINT of at most 5 bytes.
func (r *Reader) Uvarint() uint32 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf[r.off:])
	switch {
	case n == 0:
		r.Fail(ErrTruncated)
		return 0
	case n < 0 || n > 5 || v > math.MaxUint32:
		r.Fail(ErrVarintOverflow)
		return 0
	}
	r.off += n
	return uint32(v)
}

// Varint reads a zigzag VARINT (32-bit).
func (r *Reader) Varint() int32 {
	v := r.Varlong()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.Fail(ErrVarintOverflow)
		return 0
	}
	return int32(v)
}

// Varlong reads a zigzag VARLONG (64-bit).
func (r *Reader) Varlong() int64 {
	if r.err != nil {
		return 0
	}
	// One and two bytes (a record's attributes, deltas, lengths and
	// header count mostly) without the general loop: it is the record
	// decoder's most frequent call.
	if v, n := zigzag2(r.buf, r.off); n > 0 {
		r.off += n
		return v
	}
	v, n := binary.Varint(r.buf[r.off:])
	switch {
	case n == 0:
		r.Fail(ErrTruncated)
		return 0
	case n < 0:
		r.Fail(ErrVarintOverflow)
		return 0
	}
	r.off += n
	return v
}

// length reads a string/bytes/array length. It returns -1 for null and fails
// for other negative values or a length above what remains times minElem
// (minElem 0 skips the remaining-bytes check).
func (r *Reader) length(compact, wide bool, minElem int) int {
	var n int
	switch {
	case compact:
		n = int(r.Uvarint()) - 1
	case wide:
		n = int(r.Int32())
	default:
		n = int(r.Int16())
	}
	if r.err != nil {
		return 0
	}
	if n < -1 {
		r.Fail(fmt.Errorf("%w: %d", ErrInvalidLength, n))
		return 0
	}
	if n > 0 && minElem > 0 && n > r.Remaining()/minElem {
		r.Fail(fmt.Errorf("%w: %d elements of at least %d bytes, %d bytes left", ErrInvalidLength, n, minElem, r.Remaining()))
		return 0
	}
	return n
}

// String reads a STRING or COMPACT_STRING. Null fails with ErrInvalidLength.
func (r *Reader) String(compact bool) string {
	return string(r.stringBytes(compact))
}

// stringBytes reads a STRING or COMPACT_STRING and returns its bytes in the
// frame (nil when it fails: null, or past the end).
func (r *Reader) stringBytes(compact bool) []byte {
	n := r.length(compact, false, 1)
	if n < 0 {
		r.Fail(fmt.Errorf("%w: null for a non-nullable string", ErrInvalidLength))
		return nil
	}
	return r.take(n)
}

// NullableString reads a NULLABLE_STRING or COMPACT_NULLABLE_STRING; null is nil.
func (r *Reader) NullableString(compact bool) *string {
	n := r.length(compact, false, 1)
	if n < 0 || r.err != nil {
		return nil
	}
	s := string(r.take(n))
	if r.err != nil {
		return nil
	}
	return &s
}

// Bytes reads BYTES or COMPACT_BYTES without copying. Null fails.
func (r *Reader) Bytes(compact bool) []byte {
	n := r.length(compact, true, 1)
	if n < 0 {
		r.Fail(fmt.Errorf("%w: null for non-nullable bytes", ErrInvalidLength))
		return nil
	}
	b := r.take(n)
	if b == nil && r.err == nil {
		b = []byte{}
	}
	return b
}

// NullableBytes reads NULLABLE_BYTES or COMPACT_NULLABLE_BYTES without
// copying; null is nil and empty is a non-nil empty slice.
func (r *Reader) NullableBytes(compact bool) []byte {
	n := r.length(compact, true, 1)
	if n < 0 || r.err != nil {
		return nil
	}
	b := r.take(n)
	if b == nil && r.err == nil {
		b = []byte{}
	}
	return b
}

// ArrayLen reads an array length (INT32, or compact UNSIGNED_VARINT n+1) and
// returns -1 for null. minElem is the smallest encoded size of one element;
// a count that the remaining bytes cannot hold fails before any allocation.
func (r *Reader) ArrayLen(compact bool, minElem int) int {
	if minElem < 1 {
		minElem = 1
	}
	return r.length(compact, true, minElem)
}

// ReadArray reads an array whose elements each take at least minElem bytes,
// decoding each with f. Null and empty both return an empty result; use
// ReadNullableArray where the distinction matters.
func ReadArray[T any](r *Reader, compact bool, minElem int, f func(r *Reader, item *T)) []T {
	return ReadArrayInto(r, compact, minElem, nil, f)
}

// ReadArrayInto is ReadArray decoding into dst's backing array when it has
// the capacity (dst's length is ignored): f gets each element as a previous
// decode left it, so it can reuse the element's own slices, and must set
// every field. The array length is bounded against the remaining bytes
// before any allocation.
func ReadArrayInto[T any](r *Reader, compact bool, minElem int, dst []T, f func(r *Reader, item *T)) []T {
	n := r.ArrayLen(compact, minElem)
	if n <= 0 || r.err != nil {
		return nil
	}
	var items []T
	if n <= cap(dst) {
		items = dst[:n]
	} else {
		items = make([]T, n)
		copy(items, dst[:cap(dst)])
	}
	for i := range items {
		f(r, &items[i])
		if r.err != nil {
			return nil
		}
	}
	return items
}

// ReadNullableArray is ReadArray that returns nil for null and a non-nil empty
// slice for an empty array.
func ReadNullableArray[T any](r *Reader, compact bool, minElem int, f func(r *Reader, item *T)) []T {
	n := r.ArrayLen(compact, minElem)
	if n < 0 || r.err != nil {
		return nil
	}
	items := make([]T, n)
	for i := range items {
		f(r, &items[i])
		if r.err != nil {
			return nil
		}
	}
	return items
}

// Int32Array reads an array of INT32.
func (r *Reader) Int32Array(compact bool) []int32 {
	return ReadArray(r, compact, 4, func(r *Reader, v *int32) { *v = r.Int32() })
}

// StringArray reads an array of STRING (or COMPACT_STRING).
func (r *Reader) StringArray(compact bool) []string {
	return ReadArray(r, compact, 1, func(r *Reader, v *string) { *v = r.String(compact) })
}
