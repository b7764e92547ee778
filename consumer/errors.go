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
