package consumer

// GroupMetadata identifies a consumer group member at one point of its
// membership, as TxnOffsetCommit needs it to fence zombie members (KIP-447):
// a transactional producer's SendOffsets takes it from the group consumer
// whose records it transformed.
type GroupMetadata struct {
	GroupID string
	// GenerationID is the classic group's generation, or the member epoch
	// of a KIP-848 consumer group; -1 if the member has none.
	GenerationID int32
	// MemberID is the member id the coordinator gave; "" if none.
	MemberID string
	// InstanceID is the static member's group.instance.id; "" for a
	// dynamic member.
	InstanceID string
}
