package consumer

import (
	"errors"
	"fmt"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// ErrNotAssigned is returned by Seek, Pause and Resume for a partition that
// is not in the assignment.
var ErrNotAssigned = errors.New("consumer: partition not assigned")

// OffsetOutOfRangeError reports that a partition's position is outside the
// log (OFFSET_OUT_OF_RANGE) under ResetNone. The partition is not fetched
// again until a Seek or a new assignment of it. LogStartOffset and
// LogEndOffset are -1 when they could not be listed.
// errors.Is(err, wire.ErrOffsetOutOfRange) holds.
type OffsetOutOfRangeError struct {
	gregor.TopicPartition
	Offset         int64 // the position that was out of range
	LogStartOffset int64
	LogEndOffset   int64
}

// Error names the partition, the position and the log's range.
func (e *OffsetOutOfRangeError) Error() string {
	return fmt.Sprintf("consumer: offset %d of %s out of range: log start %d, log end %d",
		e.Offset, e.TopicPartition, e.LogStartOffset, e.LogEndOffset)
}

// Unwrap returns wire.ErrOffsetOutOfRange.
func (e *OffsetOutOfRangeError) Unwrap() error { return wire.ErrOffsetOutOfRange }

// LogTruncationError reports, under ResetNone, that the leader's log
// diverged from what this consumer read (KIP-320): records at and after
// TruncatedAt were removed by an unclean leader change. The partition is not
// fetched again until a Seek or a new assignment of it.
type LogTruncationError struct {
	gregor.TopicPartition
	Offset      int64 // the position
	TruncatedAt int64 // the end offset of the diverging epoch on the leader
	LeaderEpoch int32 // the diverging epoch
}

// Error names the partition and where its log diverged.
func (e *LogTruncationError) Error() string {
	return fmt.Sprintf("consumer: log of %s truncated at %d (epoch %d) below position %d",
		e.TopicPartition, e.TruncatedAt, e.LeaderEpoch, e.Offset)
}

// PartitionError is a non-retriable broker error for one partition (for
// example TOPIC_AUTHORIZATION_FAILED). The partition is not fetched again
// until a Seek or a new assignment of it. Unwrap gives the *wire.KafkaError.
type PartitionError struct {
	gregor.TopicPartition
	Err error
}

// Error names the partition and the cause.
func (e *PartitionError) Error() string {
	return fmt.Sprintf("consumer: %s: %v", e.TopicPartition, e.Err)
}

// Unwrap returns the cause.
func (e *PartitionError) Unwrap() error { return e.Err }

// ErrTopicDeleted is matched (errors.Is) by a *TopicIDChangedError whose
// topic no longer exists.
var ErrTopicDeleted = errors.New("consumer: topic deleted")

// ErrTopicRecreated is matched (errors.Is) by a *TopicIDChangedError whose
// topic was deleted and created again under the same name (a new topic ID).
var ErrTopicRecreated = errors.New("consumer: topic deleted and recreated")

// TopicIDChangedError reports that a topic with assigned partitions was
// deleted (NewID zero: metadata no longer lists it) or deleted and created
// again under the same name (NewID is the new topic ID, KIP-516).
// Positions and commits belong to a topic ID: an offset of the old topic
// means nothing in the new one, so a recreated topic's partitions restart
// under Config.OffsetReset (Stopped false), or under ResetNone, and when
// the new topic has fewer partitions for those beyond its count, stop
// until a Seek or a new assignment (Stopped true); they are never fetched or
// committed at the old position. A deleted topic's partitions stay
// assigned (fetched again when it reappears) unless the group revokes
// them. Receive reports the change once, before any record of the new
// topic; it is a notice, not a failure of the consumer.
type TopicIDChangedError struct {
	Topic      string
	Partitions []int32        // the affected partitions, sorted
	OldID      gregor.TopicID // the topic ID the positions belonged to
	NewID      gregor.TopicID // the topic's ID now; zero: the topic is gone
	Stopped    bool           // the partitions wait for a Seek (ResetNone)
}

// Error names the topic, its partitions and both IDs.
func (e *TopicIDChangedError) Error() string {
	if e.NewID.IsZero() {
		return fmt.Sprintf("consumer: topic %q (ID %v) deleted; partitions %v", e.Topic, e.OldID, e.Partitions)
	}
	what := "restarted under the reset policy"
	if e.Stopped {
		what = "stopped until a seek"
	}
	return fmt.Sprintf("consumer: topic %q recreated (ID %v, was %v); partitions %v %s", e.Topic, e.NewID, e.OldID, e.Partitions, what)
}

// Is matches ErrTopicDeleted or ErrTopicRecreated.
func (e *TopicIDChangedError) Is(target error) bool {
	if e.NewID.IsZero() {
		return target == ErrTopicDeleted
	}
	return target == ErrTopicRecreated
}
