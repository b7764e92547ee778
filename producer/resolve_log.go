package producer

import (
	"context"
	"errors"
	"fmt"

	"github.com/gregor-kafka/gregor/wire"
)

// resolveFetchBytes bounds one Fetch of Resolve's log read.
const resolveFetchBytes = 1 << 20

// found is what findBatch saw.
type found struct {
	found             bool
	offset, timestamp int64
	appendTime        bool // timestamp is the batch's LogAppendTime
	// deleted: the log starts after where the batch could be.
	deleted bool
}

// findBatch reads the partition's log from s.AckedEnd until the batch
// with s's producer ID, epoch and base sequence, a later batch of that
// producer (by epoch or sequence), or the high watermark.
func findBatch(ctx context.Context, cl kafkaClient, leader int32, topic string, id wire.UUID, partition int32, s SentBatch) (found, error) {
	off := s.AckedEnd
	var br wire.BatchReader
	var b wire.RecordBatch
	for {
		if err := ctx.Err(); err != nil {
			return found{}, fmt.Errorf("%w: reading the log: %w", ErrResolve, ctxError(ctx))
		}
		fp, err := fetchOnce(ctx, cl, leader, topic, id, partition, off)
		if errors.Is(err, wire.ErrOffsetOutOfRange) {
			return found{deleted: true}, nil
		}
		if err != nil {
			return found{}, err
		}
		if s.AckedEnd == 0 && fp.LogStartOffset > 0 {
			return found{deleted: true}, nil // nothing anchors the search before the log start
		}
		if off >= fp.HighWatermark {
			return found{}, nil
		}
		// Only raw batch headers are needed, but the record of the batch
		// gives its timestamp: decode batches (decompressing) one by one.
		br.Reset(fp.Records, wire.DecodeOptions{})
		progressed := false
		for br.Next(&b) {
			if b.NextOffset() <= off {
				continue // a batch that starts before the fetch offset
			}
			progressed = true
			off = b.NextOffset()
			if b.ProducerID != s.ProducerID || b.IsControl() {
				continue
			}
			switch {
			case b.ProducerEpoch == s.ProducerEpoch && b.BaseSequence == s.BaseSequence:
				return batchFound(&b, s), nil
			case b.ProducerEpoch > s.ProducerEpoch,
				b.ProducerEpoch == s.ProducerEpoch && b.BaseSequence > s.BaseSequence:
				return found{}, nil // the producer's later batch: ours is not after it
			}
		}
		if err := br.Err(); err != nil {
			return found{}, fmt.Errorf("%w: decoding %s/%d at %d: %w", ErrResolve, topic, partition, off, err)
		}
		if !progressed {
			return found{}, fmt.Errorf("%w: no complete batch at %s/%d offset %d within %d bytes", ErrResolve, topic, partition, off, resolveFetchBytes)
		}
	}
}

// batchFound is the record's offset and timestamp in the found batch b.
func batchFound(b *wire.RecordBatch, s SentBatch) found {
	f := found{found: true, offset: b.BaseOffset + int64(s.OffsetDelta), timestamp: -1}
	if b.Attributes&wire.AttrLogAppendTime != 0 {
		f.timestamp, f.appendTime = b.MaxTimestamp, true // LogAppendTime
		return f
	}
	for i := range b.Records {
		if b.Records[i].Offset == f.offset {
			f.timestamp = b.Records[i].Timestamp
		}
	}
	return f
}

// fetchOnce reads the partition from off (read_uncommitted, no waiting).
func fetchOnce(ctx context.Context, cl kafkaClient, leader int32, topic string, id wire.UUID, partition int32, off int64) (*wire.FetchResponsePartition, error) {
	req := &wire.FetchRequest{
		ReplicaID: -1, ReplicaState: wire.FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1},
		MaxBytes: resolveFetchBytes, SessionEpoch: -1,
		Topics: []wire.FetchTopic{{Topic: topic, TopicID: id, Partitions: []wire.FetchPartition{{
			Partition: partition, CurrentLeaderEpoch: -1, FetchOffset: off, LastFetchedEpoch: -1,
			LogStartOffset: -1, PartitionMaxBytes: resolveFetchBytes,
		}}}},
	}
	resp, err := cl.Request(ctx, leader, req)
	if err != nil {
		return nil, fmt.Errorf("%w: Fetch: %w", ErrResolve, err)
	}
	fr := resp.(*wire.FetchResponse)
	if fr.ErrorCode != 0 {
		return nil, fmt.Errorf("%w: Fetch: %w", ErrResolve, wire.ErrorForCode(fr.ErrorCode))
	}
	for _, t := range fr.Responses {
		for i := range t.Partitions {
			fp := &t.Partitions[i]
			if fp.PartitionIndex != partition {
				continue
			}
			if fp.ErrorCode != 0 {
				kerr := wire.ErrorForCode(fp.ErrorCode)
				if errors.Is(kerr, wire.ErrOffsetOutOfRange) {
					return nil, kerr
				}
				return nil, fmt.Errorf("%w: Fetch %s/%d: %w", ErrResolve, topic, partition, kerr)
			}
			return fp, nil
		}
	}
	return nil, fmt.Errorf("%w: Fetch: no answer for %s/%d", ErrResolve, topic, partition)
}
