package wire

// appendVersionedString appends a string that the protocol makes nullable
// only from some version on: nullable selects NULLABLE_STRING (nil is
// null); otherwise STRING, with nil written as empty.
func appendVersionedString(dst []byte, s *string, nullable, compact bool) []byte {
	if nullable {
		return AppendNullableString(dst, s, compact)
	}
	if s == nil {
		return AppendString(dst, "", compact)
	}
	return AppendString(dst, *s, compact)
}

// readVersionedString reads what appendVersionedString writes; a
// non-nullable string is returned as a non-nil pointer.
func readVersionedString(r *Reader, nullable, compact bool) *string {
	if nullable {
		return r.NullableString(compact)
	}
	s := r.String(compact)
	if r.Err() != nil {
		return nil
	}
	return &s
}

// minLen returns the smallest encoding of a length prefix: one byte for a
// compact (unsigned varint) length, otherwise fixed bytes.
func minLen(compact bool, fixed int) int {
	if compact {
		return 1
	}
	return fixed
}

// tagsLen returns the smallest encoding of a tagged-field section: one byte
// in flexible versions, none otherwise.
func tagsLen(flex bool) int {
	if flex {
		return 1
	}
	return 0
}
