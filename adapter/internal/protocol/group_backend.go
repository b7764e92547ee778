package protocol

import (
	"context"

	"github.com/gregor-kafka/gregor/consumer"
)

// GroupConsumerConfig is what create_group_consumer asks for (§4.5).
type GroupConsumerConfig struct {
	GroupID       string
	Topic         string
	Protocol      string // "classic" or "consumer"
	OffsetReset   string // "earliest" or "latest"
	ReadCommitted bool
}

// GroupTransition is one public assignment change of a group member.
type GroupTransition struct {
	Kind            string // "assigned", "revoking" or "lost"
	AssignmentEpoch uint64
	Partitions      []TopicPartition
}

// GroupSnapshot is a member's current membership and assignment.
type GroupSnapshot struct {
	GroupID    string
	MemberID   string
	Protocol   string // "classic" or "consumer"
	Generation int32  // classic generation or KIP-848 member epoch; <= 0 while not a member
	// AssignmentEpoch is the member's local assignment fence: it changes
	// with every transition and is never reused.
	AssignmentEpoch uint64
	Partitions      []TopicPartition // sorted
}

// GroupConsumer is a consumer group member.
type GroupConsumer interface {
	// Receive returns the first available batch of owned partitions; it
	// returns a context error (or one wrapping it) when ctx ends first.
	Receive(ctx context.Context) ([]ReceivedRecord, error)
	// CommitBatch commits the checkpoint of a received batch: per
	// partition, the offset after its last record.
	CommitBatch(ctx context.Context, batch []ReceivedRecord) error
	// DrainTransitions returns the transitions since the last drain, in
	// order; an error when more than the retained capacity (256) piled up.
	DrainTransitions() ([]GroupTransition, error)
	Snapshot() GroupSnapshot
	// GroupMetadata is the member's identity for a transactional producer's
	// SendOffsets (KIP-447).
	GroupMetadata() consumer.GroupMetadata
	// PartitionCount is the subscribed topic's partition count.
	PartitionCount(ctx context.Context) (int, error)
	// Err is the error that stopped the membership for good, nil while it
	// runs.
	Err() error
	// GroupMembers lists the member IDs the group coordinator reports for
	// the group (the session's members and any outside it).
	GroupMembers(ctx context.Context) ([]string, error)
	Pause(tps []TopicPartition) error
	Resume(tps []TopicPartition) error
	Seek(ctx context.Context, tp TopicPartition, pos StartPosition) error
	// Shutdown requests the member's shutdown; it is idempotent, and every
	// call (and Close) waits for the one shutdown within ctx.
	Shutdown(ctx context.Context) error
	Close(ctx context.Context) error
}
