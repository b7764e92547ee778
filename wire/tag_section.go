package wire

// appendTagSection appends a KIP-482 tagged-field section holding the known
// fields a message sets (each already encoded, sorted by tag) merged in tag
// order with the unknown fields it preserved from decoding (sorted by tag).
// A known tag also present in unknown is written once, from known.
func appendTagSection(dst []byte, known, unknown []TaggedField) []byte {
	if len(known) == 0 {
		return AppendTags(dst, unknown)
	}
	n := len(known) + len(unknown)
	for _, u := range unknown {
		for _, k := range known {
			if k.Tag == u.Tag {
				n--
			}
		}
	}
	dst = AppendUvarint(dst, uint32(n))
	i, j := 0, 0
	for i < len(known) || j < len(unknown) {
		var f TaggedField
		switch {
		case j >= len(unknown) || (i < len(known) && known[i].Tag <= unknown[j].Tag):
			f = known[i]
			if j < len(unknown) && unknown[j].Tag == f.Tag {
				j++
			}
			i++
		default:
			f = unknown[j]
			j++
		}
		dst = AppendUvarint(dst, f.Tag)
		dst = AppendUvarint(dst, uint32(len(f.Data)))
		dst = append(dst, f.Data...)
	}
	return dst
}

// appendFlexTags appends a tagged-field section holding unknown when
// flexible is set (KIP-482 flexible versions) and nothing otherwise.
func appendFlexTags(dst []byte, flexible bool, unknown []TaggedField) []byte {
	if !flexible {
		return dst
	}
	return AppendTags(dst, unknown)
}

// readFlexTags reads a tagged-field section, keeping every field as
// unknown, when flexible is set; otherwise it reads nothing.
func readFlexTags(r *Reader, flexible bool) []TaggedField {
	if !flexible {
		return nil
	}
	return r.ReadTags(nil)
}
