package wire

// LeaderIDAndEpoch names a partition's current leader, as sent in the
// CurrentLeader tagged fields of Produce (v10+) and Fetch (v12+) responses
// (KIP-951). The default, meaning "not sent", is {-1, -1}.
type LeaderIDAndEpoch struct {
	// LeaderID is the leader's broker ID, -1 when unknown.
	LeaderID int32
	// LeaderEpoch is the leader epoch, -1 when unknown.
	LeaderEpoch int32
	// UnknownTags keeps tagged fields the version does not define.
	UnknownTags []TaggedField
}

// defaultLeaderIDAndEpoch is the value of an absent CurrentLeader.
func defaultLeaderIDAndEpoch() LeaderIDAndEpoch {
	return LeaderIDAndEpoch{LeaderID: -1, LeaderEpoch: -1}
}

func (l *LeaderIDAndEpoch) isDefault() bool {
	return l.LeaderID == -1 && l.LeaderEpoch == -1 && len(l.UnknownTags) == 0
}

func (l *LeaderIDAndEpoch) appendTo(dst []byte) []byte {
	dst = AppendInt32(dst, l.LeaderID)
	dst = AppendInt32(dst, l.LeaderEpoch)
	return AppendTags(dst, l.UnknownTags)
}

func (l *LeaderIDAndEpoch) readFrom(r *Reader) {
	l.LeaderID = r.Int32()
	l.LeaderEpoch = r.Int32()
	l.UnknownTags = r.ReadTags(nil)
}

// NodeEndpoint is a broker address sent beside NOT_LEADER_OR_FOLLOWER errors
// in the NodeEndpoints tagged fields of Produce (v10+) and Fetch (v16+)
// responses (KIP-951).
type NodeEndpoint struct {
	// NodeID is the broker's node ID.
	NodeID int32
	// Host is the broker's host name.
	Host string
	// Port is the broker's TCP port.
	Port int32
	// Rack is the broker's rack, or nil.
	Rack *string
	// UnknownTags keeps tagged fields this version does not define (flexible versions only).
	UnknownTags []TaggedField
}

func appendNodeEndpoints(eps []NodeEndpoint) []byte {
	return AppendArray(nil, true, eps, func(dst []byte, e *NodeEndpoint) []byte {
		dst = AppendInt32(dst, e.NodeID)
		dst = AppendString(dst, e.Host, true)
		dst = AppendInt32(dst, e.Port)
		dst = AppendNullableString(dst, e.Rack, true)
		return AppendTags(dst, e.UnknownTags)
	})
}

func readNodeEndpoints(r *Reader) []NodeEndpoint {
	return ReadArray(r, true, 11, func(r *Reader, e *NodeEndpoint) {
		e.NodeID = r.Int32()
		e.Host = r.String(true)
		e.Port = r.Int32()
		e.Rack = r.NullableString(true)
		e.UnknownTags = r.ReadTags(nil)
	})
}
