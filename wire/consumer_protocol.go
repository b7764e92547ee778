package wire

import "errors"

// ErrConsumerProtocolVersion reports embedded consumer protocol metadata
// with a negative version.
var ErrConsumerProtocolVersion = errors.New("wire: negative consumer protocol version")

// ConsumerProtocolType is the JoinGroup protocol type of consumer groups.
const ConsumerProtocolType = "consumer"

// ConsumerProtocolVersion is the newest ConsumerProtocolSubscription and
// ConsumerProtocolAssignment version, the one the Java client writes.
const ConsumerProtocolVersion int16 = 3

// ConsumerProtocolSubscription is the JoinGroup protocol metadata of a
// consumer (the embedded "consumer" protocol), encoded as an INT16 version
// followed by the fields of that version, never flexible. v1 adds owned
// partitions (KIP-429), v2 the generation of those partitions, v3 the rack
// (KIP-881). As the Java client does, a newer version than 3 is decoded with
// the v3 layout and bytes after the known fields are ignored. Source:
// ConsumerProtocolSubscription.json, ConsumerProtocol.java.
type ConsumerProtocolSubscription struct {
	// Version is the encoding version (0-3; higher decodes as 3).
	Version int16
	// Topics are the subscribed topics.
	Topics []string
	// UserData is assignor-specific data, or nil (null).
	UserData []byte
	// OwnedPartitions are the partitions the member owns now (v1+).
	OwnedPartitions []ConsumerProtocolTopicPartitions
	// GenerationID is the generation of OwnedPartitions (v2+), -1 unknown.
	GenerationID int32
	// RackID is the member's client.rack (v3+), or nil.
	RackID *string
}

// ConsumerProtocolTopicPartitions names partitions of one topic in the
// consumer protocol.
type ConsumerProtocolTopicPartitions struct {
	// Topic is the topic name.
	Topic string
	// Partitions are partition indexes.
	Partitions []int32
}

// ConsumerProtocolAssignment is a member's assignment in SyncGroup (the
// embedded "consumer" protocol): an INT16 version, the assigned partitions
// and user data. v1-v3 have the v0 layout. Source:
// ConsumerProtocolAssignment.json.
type ConsumerProtocolAssignment struct {
	// Version is the encoding version (0-3; higher decodes as 3).
	Version int16
	// AssignedPartitions are the assigned partitions.
	AssignedPartitions []ConsumerProtocolTopicPartitions
	// UserData is assignor-specific data, or nil (null).
	UserData []byte
}

// AppendTo appends s encoded at s.Version (the v3 layout for higher versions).
func (s *ConsumerProtocolSubscription) AppendTo(dst []byte) []byte {
	v := s.Version
	dst = AppendInt16(dst, v)
	dst = AppendStringArray(dst, false, s.Topics)
	dst = AppendNullableBytes(dst, s.UserData, false)
	if v >= 1 {
		dst = appendConsumerTopicPartitions(dst, s.OwnedPartitions)
	}
	if v >= 2 {
		dst = AppendInt32(dst, s.GenerationID)
	}
	if v >= 3 {
		dst = AppendNullableString(dst, s.RackID, false)
	}
	return dst
}

// DecodeFrom decodes a subscription; a negative version fails with
// ErrConsumerProtocolVersion.
func (s *ConsumerProtocolSubscription) DecodeFrom(r *Reader) error {
	*s = ConsumerProtocolSubscription{GenerationID: -1}
	v := r.Int16()
	if r.Err() == nil && v < 0 {
		r.Fail(ErrConsumerProtocolVersion)
	}
	s.Version = v
	s.Topics = r.StringArray(false)
	s.UserData = r.NullableBytes(false)
	if v >= 1 {
		s.OwnedPartitions = readConsumerTopicPartitions(r)
	}
	if v >= 2 {
		s.GenerationID = r.Int32()
	}
	if v >= 3 {
		s.RackID = r.NullableString(false)
	}
	return r.Err()
}

// AppendTo appends a encoded at a.Version.
func (a *ConsumerProtocolAssignment) AppendTo(dst []byte) []byte {
	dst = AppendInt16(dst, a.Version)
	dst = appendConsumerTopicPartitions(dst, a.AssignedPartitions)
	return AppendNullableBytes(dst, a.UserData, false)
}

// DecodeFrom decodes an assignment; a negative version fails with
// ErrConsumerProtocolVersion.
func (a *ConsumerProtocolAssignment) DecodeFrom(r *Reader) error {
	*a = ConsumerProtocolAssignment{}
	v := r.Int16()
	if r.Err() == nil && v < 0 {
		r.Fail(ErrConsumerProtocolVersion)
	}
	a.Version = v
	a.AssignedPartitions = readConsumerTopicPartitions(r)
	a.UserData = r.NullableBytes(false)
	return r.Err()
}

func appendConsumerTopicPartitions(dst []byte, tps []ConsumerProtocolTopicPartitions) []byte {
	return AppendArray(dst, false, tps, func(dst []byte, tp *ConsumerProtocolTopicPartitions) []byte {
		dst = AppendString(dst, tp.Topic, false)
		return AppendInt32Array(dst, false, tp.Partitions)
	})
}

func readConsumerTopicPartitions(r *Reader) []ConsumerProtocolTopicPartitions {
	// topic (2-byte length) and partition count (4): at least 6 bytes.
	return ReadArray(r, false, 6, func(r *Reader, tp *ConsumerProtocolTopicPartitions) {
		tp.Topic = r.String(false)
		tp.Partitions = r.Int32Array(false)
	})
}
