package wire

import "fmt"

// TaggedField is one raw entry of a KIP-482 tagged-field section: a tag number
// and its undecoded bytes. Messages keep the tags they do not know in an
// UnknownTags field so that re-encoding preserves them.
type TaggedField struct {
	Tag  uint32
	Data []byte
}

// AppendTags appends a tagged-field section holding fields, which must be
// sorted by ascending tag (the protocol requires it).
func AppendTags(dst []byte, fields []TaggedField) []byte {
	dst = AppendUvarint(dst, uint32(len(fields)))
	for _, f := range fields {
		dst = AppendUvarint(dst, f.Tag)
		dst = AppendUvarint(dst, uint32(len(f.Data)))
		dst = append(dst, f.Data...)
	}
	return dst
}

// AppendEmptyTags appends an empty tagged-field section (one zero byte).
func AppendEmptyTags(dst []byte) []byte { return append(dst, 0) }

// ReadTags reads a tagged-field section. For each field, known is called with
// the tag and a Reader bounded to that field's bytes (valid only during the
// call: the section's fields share one); it returns false for a
// tag it does not know. Unknown fields are returned, their Data copied (so
// a message whose other fields are copies too keeps nothing of its frame;
// see FrameFreeResponder), so the message can keep them. known may be nil.
// Tags must ascend.
func (r *Reader) ReadTags(known func(tag uint32, fr *Reader) bool) []TaggedField {
	n := int(r.Uvarint())
	if r.err != nil || n == 0 {
		return nil
	}
	if n > r.Remaining()/2 { // each field takes at least a tag byte and a size byte
		r.Fail(fmt.Errorf("%w: %d tagged fields, %d bytes left", ErrInvalidLength, n, r.Remaining()))
		return nil
	}
	var unknown []TaggedField
	var fr *Reader
	last := int64(-1)
	for i := 0; i < n && r.err == nil; i++ {
		tag := r.Uvarint()
		size := int(r.Uvarint())
		data := r.take(size)
		if r.err != nil {
			return nil
		}
		if int64(tag) <= last {
			r.Fail(fmt.Errorf("%w: tag %d after tag %d", ErrInvalidLength, tag, last))
			return nil
		}
		last = int64(tag)
		if known != nil {
			// One Reader for the section's fields (known must not keep it).
			if fr == nil {
				fr = new(Reader)
			}
			fr.Reset(data)
			if known(tag, fr) {
				if fr.err != nil {
					r.Fail(fmt.Errorf("tagged field %d: %w", tag, fr.err))
				}
				continue
			}
		}
		unknown = append(unknown, TaggedField{Tag: tag, Data: append([]byte{}, data...)})
	}
	return unknown
}
