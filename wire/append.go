package wire

import (
	"encoding/binary"
	"math"
)

// AppendInt8 appends v as one byte.
func AppendInt8(dst []byte, v int8) []byte { return append(dst, byte(v)) }

// AppendBool appends v as one byte, 1 for true and 0 for false.
func AppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, 1)
	}
	return append(dst, 0)
}

// AppendInt16 appends v big-endian in two bytes.
func AppendInt16(dst []byte, v int16) []byte { return binary.BigEndian.AppendUint16(dst, uint16(v)) }

// AppendInt32 appends v big-endian in four bytes.
func AppendInt32(dst []byte, v int32) []byte { return binary.BigEndian.AppendUint32(dst, uint32(v)) }

// AppendUint32 appends v big-endian in four bytes.
func AppendUint32(dst []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(dst, v) }

// AppendInt64 appends v big-endian in eight bytes.
func AppendInt64(dst []byte, v int64) []byte { return binary.BigEndian.AppendUint64(dst, uint64(v)) }

// AppendFloat64 appends v as an IEEE 754 double, big-endian.
func AppendFloat64(dst []byte, v float64) []byte {
	return binary.BigEndian.AppendUint64(dst, math.Float64bits(v))
}

// AppendUvarint appends v as an unsigned varint (protocol type UNSIGNED_VARINT).
func AppendUvarint(dst []byte, v uint32) []byte { return binary.AppendUvarint(dst, uint64(v)) }

// AppendVarint appends v zigzag-encoded (protocol type VARINT).
func AppendVarint(dst []byte, v int32) []byte { return binary.AppendVarint(dst, int64(v)) }

// AppendVarlong appends v zigzag-encoded (protocol type VARLONG).
func AppendVarlong(dst []byte, v int64) []byte { return binary.AppendVarint(dst, v) }

// AppendUUID appends the 16 bytes of u.
func AppendUUID(dst []byte, u UUID) []byte { return append(dst, u[:]...) }

// AppendString appends s as STRING (int16 length) or, when compact, as
// COMPACT_STRING (unsigned varint length+1).
func AppendString(dst []byte, s string, compact bool) []byte {
	if compact {
		dst = AppendUvarint(dst, uint32(len(s))+1)
	} else {
		dst = AppendInt16(dst, int16(len(s)))
	}
	return append(dst, s...)
}

// AppendNullableString appends s as NULLABLE_STRING or COMPACT_NULLABLE_STRING;
// nil is written as null (-1, or 0 when compact).
func AppendNullableString(dst []byte, s *string, compact bool) []byte {
	if s == nil {
		if compact {
			return append(dst, 0)
		}
		return AppendInt16(dst, -1)
	}
	return AppendString(dst, *s, compact)
}

// AppendBytes appends b as BYTES (int32 length) or COMPACT_BYTES. A nil b is
// written as empty; use AppendNullableBytes where the protocol allows null.
func AppendBytes(dst []byte, b []byte, compact bool) []byte {
	if compact {
		dst = AppendUvarint(dst, uint32(len(b))+1)
	} else {
		dst = AppendInt32(dst, int32(len(b)))
	}
	return append(dst, b...)
}

// AppendNullableBytes appends b as NULLABLE_BYTES or COMPACT_NULLABLE_BYTES;
// nil is written as null and a non-nil empty slice as empty.
func AppendNullableBytes(dst []byte, b []byte, compact bool) []byte {
	if b == nil {
		if compact {
			return append(dst, 0)
		}
		return AppendInt32(dst, -1)
	}
	return AppendBytes(dst, b, compact)
}

// AppendArrayLen appends an array length: int32 n, or unsigned varint n+1 when
// compact. A negative n writes null (-1, or 0 when compact).
func AppendArrayLen(dst []byte, n int, compact bool) []byte {
	if compact {
		if n < 0 {
			return append(dst, 0)
		}
		return AppendUvarint(dst, uint32(n)+1)
	}
	if n < 0 {
		return AppendInt32(dst, -1)
	}
	return AppendInt32(dst, int32(n))
}

// AppendArray appends the length of items and then each item encoded by f.
// A nil items is written as an empty array; use AppendNullableArray where the
// protocol allows null.
func AppendArray[T any](dst []byte, compact bool, items []T, f func(dst []byte, item *T) []byte) []byte {
	dst = AppendArrayLen(dst, len(items), compact)
	for i := range items {
		dst = f(dst, &items[i])
	}
	return dst
}

// AppendNullableArray is AppendArray with nil written as a null array.
func AppendNullableArray[T any](dst []byte, compact bool, items []T, f func(dst []byte, item *T) []byte) []byte {
	if items == nil {
		return AppendArrayLen(dst, -1, compact)
	}
	return AppendArray(dst, compact, items, f)
}

// AppendInt32Array appends an array of INT32.
func AppendInt32Array(dst []byte, compact bool, items []int32) []byte {
	dst = AppendArrayLen(dst, len(items), compact)
	for _, v := range items {
		dst = AppendInt32(dst, v)
	}
	return dst
}

// AppendStringArray appends an array of STRING (or COMPACT_STRING).
func AppendStringArray(dst []byte, compact bool, items []string) []byte {
	dst = AppendArrayLen(dst, len(items), compact)
	for _, s := range items {
		dst = AppendString(dst, s, compact)
	}
	return dst
}
