package assign

import (
	"encoding/binary"
	"errors"
)

// ErrMalformedUserData is returned by DecodeStickyUserData for user data
// that is neither version of the StickyAssignor's schema.
var ErrMalformedUserData = errors.New("assign: malformed sticky assignor user data")

// StickyMemberData is what a "sticky" member's subscription user data
// carries (Java's StickyAssignor schema): the partitions it was assigned
// last and, from version 1 of the schema, that assignment's generation.
type StickyMemberData struct {
	Owned         []TopicPartitions
	Generation    int32
	HasGeneration bool // false for version 0 user data (no generation)
}

// StickyUserData returns the subscription user data a member using the
// "sticky" assignor sends in JoinGroup, byte for byte what Java's
// StickyAssignor.subscriptionUserData writes: the partitions of its last
// assignment and that assignment's generation (schema version 1). A member
// that has had no assignment yet sends no user data (nil), as Java does.
func StickyUserData(assigned []TopicPartitions, generation int32) []byte {
	// Java groups the partitions by topic in a HashMap, so topics appear in
	// its iteration order, each topic's partitions in assignment order.
	byTopic := map[string][]int32{}
	var topics []string
	for _, tps := range assigned {
		if _, ok := byTopic[tps.Topic]; !ok && len(tps.Partitions) > 0 {
			topics = append(topics, tps.Topic)
		}
		byTopic[tps.Topic] = append(byTopic[tps.Topic], tps.Partitions...)
	}
	topics = javaHashOrder(topics)
	var b []byte
	b = binary.BigEndian.AppendUint32(b, uint32(len(topics)))
	for _, t := range topics {
		b = binary.BigEndian.AppendUint16(b, uint16(len(t)))
		b = append(b, t...)
		ps := byTopic[t]
		b = binary.BigEndian.AppendUint32(b, uint32(len(ps)))
		for _, p := range ps {
			b = binary.BigEndian.AppendUint32(b, uint32(p))
		}
	}
	return binary.BigEndian.AppendUint32(b, uint32(generation))
}

// DecodeStickyUserData decodes a "sticky" member's subscription user data
// as Java's StickyAssignor reads it: version 1 (partitions and generation)
// if the generation follows the partitions, else version 0 (partitions
// only). Trailing bytes are ignored, as Java ignores them. Malformed data
// (a negative or overlong length) yields ErrMalformedUserData; every length
// is checked against the bytes left before anything is allocated.
func DecodeStickyUserData(b []byte) (StickyMemberData, error) {
	var d StickyMemberData
	n, b, ok := readInt32(b)
	// a topic takes at least 6 bytes: a string length and an array length
	if !ok || n < 0 || int64(n)*6 > int64(len(b)) {
		return d, ErrMalformedUserData
	}
	d.Owned = make([]TopicPartitions, 0, n)
	for range n {
		var sl int16
		if len(b) < 2 {
			return StickyMemberData{}, ErrMalformedUserData
		}
		sl, b = int16(binary.BigEndian.Uint16(b)), b[2:]
		if sl < 0 || int(sl) > len(b) {
			return StickyMemberData{}, ErrMalformedUserData
		}
		topic := string(b[:sl])
		b = b[sl:]
		var np int32
		np, b, ok = readInt32(b)
		if !ok || np < 0 || int64(np)*4 > int64(len(b)) {
			return StickyMemberData{}, ErrMalformedUserData
		}
		ps := make([]int32, np)
		for i := range ps {
			ps[i] = int32(binary.BigEndian.Uint32(b[4*i:]))
		}
		b = b[4*int(np):]
		d.Owned = append(d.Owned, TopicPartitions{Topic: topic, Partitions: ps})
	}
	if g, _, ok := readInt32(b); ok {
		d.Generation, d.HasGeneration = g, true
	}
	return d, nil
}

func readInt32(b []byte) (int32, []byte, bool) {
	if len(b) < 4 {
		return 0, b, false
	}
	return int32(binary.BigEndian.Uint32(b)), b[4:], true
}

// CooperativeStickyUserData returns the subscription user data a member
// using the "cooperative-sticky" assignor sends in JoinGroup, byte for
// byte what Java's CooperativeStickyAssignor.subscriptionUserData writes:
// the generation of its last assignment (-1 before the first), for leaders
// that read subscriptions older than version 2 (which lack the generation).
func CooperativeStickyUserData(generation int32) []byte {
	return binary.BigEndian.AppendUint32(nil, uint32(generation))
}
