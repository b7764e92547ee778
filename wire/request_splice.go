package wire

// Splice is a large byte field a request's encoding leaves out so that a
// writer can send it from where it already is (one vectored write, writev)
// instead of copying it into the frame: the complete encoding is the encoded
// bytes with Bytes inserted at offset At (the field's length prefix is
// already in the encoded bytes, just before At).
type Splice struct {
	// At is the offset in the encoded bytes (the slice AppendSplicedTo
	// returns, counted from its start) where Bytes belongs.
	At int
	// Bytes is the field's content, aliased, not copied.
	Bytes []byte
}

// SplicedAppender is an optional interface of a Request whose body carries
// large byte fields (ProduceRequest's record batches). AppendSplicedTo
// appends the body for version v exactly as AppendTo does, except that each
// byte field of at least SpliceMinBytes, and once the encoded bytes hold
// SpliceInlineMaxBytes every non-empty one, is left out and appended to
// splices instead, in increasing At order; inserting every splice's Bytes at its At
// gives AppendTo's bytes. The Bytes alias the request's fields: they must
// stay unchanged until the write that uses them returns.
type SplicedAppender interface {
	AppendSplicedTo(dst []byte, v int16, splices []Splice) ([]byte, []Splice)
}

// SpliceMinBytes is the smallest byte field AppendSplicedTo leaves out of
// the encoded bytes (4 KiB): copying smaller fields costs less than an extra
// vectored-write segment.
const SpliceMinBytes = 4 << 10

// SpliceInlineMaxBytes bounds the encoded bytes small fields are copied
// into (512 KiB): past it every non-empty byte field is spliced, so the
// encoding of a request of thousands of small record batches stays within
// the buffer a connection keeps for reuse instead of being regrown on
// every write (a 4 MiB ProduceRequest of 1,024 batches of 2-4 KiB each
// doubled the producer's bytes allocated per record).
const SpliceInlineMaxBytes = 512 << 10

// appendSplicedBytes appends b like AppendNullableBytes; when splices is
// non-nil and b holds at least SpliceMinBytes (or dst already holds
// SpliceInlineMaxBytes and b is not empty), only the length prefix is
// appended and b is recorded in *splices.
func appendSplicedBytes(dst, b []byte, compact bool, splices *[]Splice) []byte {
	if splices == nil || len(b) == 0 || (len(b) < SpliceMinBytes && len(dst) < SpliceInlineMaxBytes) {
		return AppendNullableBytes(dst, b, compact)
	}
	if compact {
		dst = AppendUvarint(dst, uint32(len(b))+1)
	} else {
		dst = AppendInt32(dst, int32(len(b)))
	}
	*splices = append(*splices, Splice{At: len(dst), Bytes: b})
	return dst
}
