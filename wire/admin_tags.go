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
