package wire

// appendTagsIf appends a tagged-field section holding unknown when flex is
// true (flexible versions) and nothing otherwise.
func appendTagsIf(dst []byte, flex bool, unknown []TaggedField) []byte {
	if !flex {
		return dst
	}
	return AppendTags(dst, unknown)
}

// readTagsIf reads a tagged-field section, keeping every field as unknown,
// when flex is true; otherwise it reads nothing.
func readTagsIf(r *Reader, flex bool) []TaggedField {
	if !flex {
		return nil
	}
	return r.ReadTags(nil)
}

// mergeTags merges two tag lists, each sorted by tag, into one sorted list
// (known fields a message encodes itself and the unknown ones it kept).
func mergeTags(a, b []TaggedField) []TaggedField {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]TaggedField, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].Tag <= b[0].Tag {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}
