package producer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// SentBatch identifies the idempotent record batch (KIP-98) a failed record
// was last sent in: what Producer.Resolve looks for in the partition
// leader's producer state and log.
type SentBatch struct {
	// TopicID is the topic's ID when the batch was last sent (zero when the
	// broker names topics only by name).
	TopicID gregor.TopicID
	// ProducerID, ProducerEpoch and BaseSequence are the batch header's.
	ProducerID    int64
	ProducerEpoch int16
	BaseSequence  int32
	// Records is the number of records in the batch (0: the Result carries
	// no batch).
	Records int32
	// OffsetDelta is the record's position in the batch: its offset is the
	// batch's base offset plus OffsetDelta.
	OffsetDelta int32
	// AckedEnd is the offset after the last record the producer had
	// acknowledged on the partition when the batch got its sequence (0:
	// none): the batch, if written, is at or after it.
	AckedEnd int64
}

// lastSequence is the sequence of the batch's last record (sequences wrap
// after math.MaxInt32, as Kafka's DefaultRecordBatch.incrementSequence).
func (s SentBatch) lastSequence() int32 {
	last := int64(s.BaseSequence) + int64(s.Records) - 1
	if last > 1<<31-1 {
		last -= 1 << 31
	}
	return int32(last)
}

// sentBatch is b's identity for Result.Sent.
func (b *batch) sentBatch() SentBatch {
	return SentBatch{TopicID: b.topicID, ProducerID: b.pid, ProducerEpoch: b.epoch, BaseSequence: b.baseSeq,
		Records: b.numSeq, AckedEnd: b.ackedEnd}
}

// Verdict is what Resolve proved about a record.
type Verdict uint8

const (
	// Written: the record is in the partition's log at Resolution.Offset.
	Written Verdict = iota + 1
	// NotWritten: the record is not in the log and can no longer be
	// appended (its producer epoch is fenced on the partition), so sending
	// it again cannot duplicate it.
	NotWritten
	// StillUnknown: neither could be proved; Resolution.Reason says why.
	StillUnknown
)

// String returns "written", "not_written" or "still_unknown".
func (v Verdict) String() string {
	switch v {
	case Written:
		return "written"
	case NotWritten:
		return "not_written"
	case StillUnknown:
		return "still_unknown"
	}
	return "unknown"
}

// UnknownReason says why a Resolution is StillUnknown.
type UnknownReason uint8

const (
	// ReasonNoBatch: the Result carries no batch identity (Result.Sent.Records
	// is 0), e.g. it was failed PossiblySent before it got a sequence.
	ReasonNoBatch UnknownReason = iota + 1
	// ReasonRangeDeleted: the log no longer holds the offsets where the
	// batch would be (retention or DeleteRecords moved the log start offset
	// past Sent.AckedEnd), or no acknowledgement anchors the search and the
	// log does not start at offset 0.
	ReasonRangeDeleted
	// ReasonProducerIDExpired: the leader keeps no state for the producer ID
	// (producer.id.expiration.ms passed, or the state was lost) and the
	// batch is not in the log: a late attempt could still be accepted.
	ReasonProducerIDExpired
	// ReasonNotFenced: the leader has not appended the batch, but its
	// producer epoch is still current on the partition, so an attempt still
	// queued at the broker could be appended. Once the producer has written
	// to the partition again (under its next epoch, KIP-360) a new Resolve
	// can decide.
	ReasonNotFenced
	// ReasonPartitionRecreated: the topic's ID changed since the batch was
	// sent (the topic was deleted and created again).
	ReasonPartitionRecreated
	// ReasonPartitionGone: the topic or partition no longer exists.
	ReasonPartitionGone
	// ReasonNotFound: the producer state proves the batch was appended, but
	// the read found no batch with its producer ID, epoch and base sequence
	// below the high watermark (not yet replicated, or truncated).
	ReasonNotFound
)

// String returns the reason's snake_case name.
func (r UnknownReason) String() string {
	switch r {
	case ReasonNoBatch:
		return "no_batch"
	case ReasonRangeDeleted:
		return "range_deleted"
	case ReasonProducerIDExpired:
		return "producer_id_expired"
	case ReasonNotFenced:
		return "not_fenced"
	case ReasonPartitionRecreated:
		return "partition_recreated"
	case ReasonPartitionGone:
		return "partition_gone"
	case ReasonNotFound:
		return "not_found"
	}
	return "unknown"
}

// Resolution is Resolve's answer for one record.
type Resolution struct {
	// Verdict is Written, NotWritten or StillUnknown.
	Verdict Verdict
	// Offset and Timestamp (as Result.Timestamp) are the record's when
	// Written, else -1 and the zero time.
	Offset    int64
	Timestamp time.Time
	// Reason says why, when StillUnknown.
	Reason UnknownReason

	appendTime bool // Timestamp is the batch's LogAppendTime
}

// ErrResolve wraps failures that prevented Resolve from answering (ctx
// ended, the leader could not be reached, a Kafka error such as
// NOT_LEADER_OR_FOLLOWER, after which the leader is looked up again);
// resolving again may succeed.
var ErrResolve = errors.New("producer: resolve failed")

// Resolve turns a failed Result's PossiblySent into proof: Written with the
// record's offset and timestamp, NotWritten, or StillUnknown with a reason.
// It never answers Written or NotWritten without proof. A successful Result
// resolves Written and a NotSent one NotWritten without I/O.
//
// Cost: one DescribeProducers (KIP-664) to the partition's leader, which
// returns the last sequence and epoch of Result.Sent.ProducerID, and when
// that decides or needs the offset, one read of the log (Fetch, 1 MiB per
// request, read_uncommitted) from Result.Sent.AckedEnd up to the batch, a
// later batch of the same producer, or the high watermark. Each call is
// independent and bounded by ctx; failures wrap ErrResolve.
//
// Use it when retrying a PossiblySent record risks a duplicate the
// application cannot tolerate (outbox relays, exports): resend only on
// NotWritten, record the offset on Written, and on StillUnknown with
// ReasonNotFenced resolve again after the producer wrote to the partition.
func (p *Producer) Resolve(ctx context.Context, r Result) (Resolution, error) {
	switch {
	case r.Err == nil:
		return Resolution{Verdict: Written, Offset: r.Offset, Timestamp: r.Timestamp}, nil
	case r.Certainty == client.NotSent:
		return notWritten, nil
	case r.Sent.Records == 0:
		return unknown(ReasonNoBatch), nil
	}
	return resolveIn(ctx, p.cl, r.Topic, r.Partition, r.Sent)
}

var notWritten = Resolution{Verdict: NotWritten, Offset: -1}

func unknown(r UnknownReason) Resolution {
	return Resolution{Verdict: StillUnknown, Offset: -1, Reason: r}
}

// resolveIn asks the partition's leader: producer state first, then the log.
func resolveIn(ctx context.Context, cl kafkaClient, topic string, partition int32, s SentBatch) (Resolution, error) {
	md, err := cl.Metadata(ctx, []string{topic})
	if err != nil {
		return Resolution{}, fmt.Errorf("%w: metadata: %w", ErrResolve, err)
	}
	tm := md.Topics[topic]
	switch {
	case tm == nil || errors.Is(tm.Err, wire.ErrUnknownTopicOrPartition) || int(partition) >= len(tm.Partitions) && tm.Err == nil:
		return unknown(ReasonPartitionGone), nil
	case tm.Err != nil:
		return Resolution{}, fmt.Errorf("%w: metadata: %w", ErrResolve, tm.Err)
	case s.TopicID != (wire.UUID{}) && tm.ID != (wire.UUID{}) && tm.ID != s.TopicID:
		return unknown(ReasonPartitionRecreated), nil
	}
	leader := tm.Partitions[partition].Leader
	if leader < 0 {
		return Resolution{}, fmt.Errorf("%w: %s/%d has no leader", ErrResolve, topic, partition)
	}
	st, err := describeProducer(ctx, cl, leader, topic, partition, s.ProducerID)
	if errors.Is(err, wire.ErrUnknownTopicOrPartition) {
		return unknown(ReasonPartitionGone), nil
	}
	if err != nil {
		if needsMetadata(err) {
			cl.InvalidateMetadata()
		}
		return Resolution{}, err
	}
	// What the producer state proves before reading the log.
	var written, fenced bool
	switch {
	case st == nil: // no state: expired (or never written); only the log can say Written
	case st.ProducerEpoch > int32(s.ProducerEpoch):
		fenced = true // an attempt under the older epoch is now rejected (INVALID_PRODUCER_EPOCH)
	case st.ProducerEpoch == int32(s.ProducerEpoch) && seqAtOrAfter(st.LastSequence, s.lastSequence()):
		written = true // sequences are appended in order: the batch's last one is in
	default:
		// Epoch current and the batch not appended, or an older epoch: an
		// attempt still queued at the broker could be appended.
		return unknown(ReasonNotFenced), nil
	}
	f, err := findBatch(ctx, cl, leader, topic, tm.ID, partition, s)
	if err != nil {
		if needsMetadata(err) {
			cl.InvalidateMetadata() // the next Resolve looks the leader up again
		}
		return Resolution{}, err
	}
	switch {
	case f.found:
		return Resolution{Verdict: Written, Offset: f.offset, Timestamp: time.UnixMilli(f.timestamp), appendTime: f.appendTime}, nil
	case f.deleted:
		return unknown(ReasonRangeDeleted), nil
	case written:
		return unknown(ReasonNotFound), nil
	case fenced:
		return notWritten, nil
	}
	return unknown(ReasonProducerIDExpired), nil
}

// seqAtOrAfter reports whether the broker's last sequence has reached last,
// the batch's last sequence. Sequences wrap after math.MaxInt32, so it
// compares in sequence space: reached when brokerLast is at most 2^30
// sequences after last.
func seqAtOrAfter(brokerLast, last int32) bool {
	if brokerLast < 0 {
		return false
	}
	d := (int64(brokerLast) - int64(last)) & (1<<31 - 1)
	return d < 1<<30
}

// describeProducer returns the leader's state for pid on the partition (nil
// when it has none).
func describeProducer(ctx context.Context, cl kafkaClient, leader int32, topic string, partition int32, pid int64) (*wire.DescribeProducersProducerState, error) {
	req := &wire.DescribeProducersRequest{Topics: []wire.DescribeProducersTopicRequest{{Name: topic, PartitionIndexes: []int32{partition}}}}
	resp, err := cl.Request(ctx, leader, req)
	if err != nil {
		return nil, fmt.Errorf("%w: DescribeProducers: %w", ErrResolve, err)
	}
	for _, t := range resp.(*wire.DescribeProducersResponse).Topics {
		for _, pp := range t.Partitions {
			if t.Name != topic || pp.PartitionIndex != partition {
				continue
			}
			if pp.ErrorCode != 0 {
				kerr := wire.ErrorForCode(pp.ErrorCode)
				if errors.Is(kerr, wire.ErrUnknownTopicOrPartition) {
					return nil, kerr
				}
				return nil, fmt.Errorf("%w: DescribeProducers: %w", ErrResolve, kerr)
			}
			for i := range pp.ActiveProducers {
				if pp.ActiveProducers[i].ProducerID == pid {
					return &pp.ActiveProducers[i], nil
				}
			}
			return nil, nil
		}
	}
	return nil, fmt.Errorf("%w: DescribeProducers: no answer for %s/%d", ErrResolve, topic, partition)
}
