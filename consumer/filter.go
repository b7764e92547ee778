package consumer

import (
	"slices"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// abortedTxn is one entry of a FetchResponse partition's aborted_transactions
// list: the producer ID and the first offset of one of its aborted
// transactions within the returned range (KIP-98).
type abortedTxn struct {
	ProducerID  int64
	FirstOffset int64
}

// deliveryFilter turns the record batches of one partition of one Fetch
// response, in log order, into the records an application may see:
//
//   - records below the position are never delivered (the fetch offset may
//     fall inside a batch; compaction can leave a batch's tail below it);
//   - control batches (transaction markers) are never delivered;
//   - under ReadCommitted, a transactional batch of a producer whose aborted
//     transaction has begun at or before the batch's last offset and whose
//     ABORT marker has not been seen yet is dropped (the algorithm of
//     Kafka's Java consumer, CompletedFetch.nextFetchedRecord);
//   - the position advances by batch headers (NextOffset), so a batch whose
//     records were all compacted away or filtered still moves it forward.
type deliveryFilter struct {
	tp            gregor.TopicPartition
	readCommitted bool
	aborted       []abortedTxn // sorted by FirstOffset; consumed from the front
	abortedPIDs   map[int64]struct{}
	next          int64 // the position: no offset below it is delivered
	lastEpoch     int32 // partition leader epoch of the last batch consumed, -1 none
}

func newDeliveryFilter(tp gregor.TopicPartition, readCommitted bool, position int64, aborted []abortedTxn) deliveryFilter {
	f := deliveryFilter{tp: tp, readCommitted: readCommitted, next: position, lastEpoch: -1}
	if readCommitted && len(aborted) > 0 {
		f.aborted = slices.Clone(aborted)
		slices.SortFunc(f.aborted, func(a, b abortedTxn) int {
			switch {
			case a.FirstOffset < b.FirstOffset:
				return -1
			case a.FirstOffset > b.FirstOffset:
				return 1
			}
			return 0
		})
	}
	return f
}

// add filters one batch and appends its deliverable records to dst.
func (f *deliveryFilter) add(b *wire.RecordBatch, dst []Record) []Record {
	next := b.NextOffset()
	if next <= f.next {
		return dst // wholly below the position (already delivered or skipped)
	}
	if b.Magic >= 2 {
		f.lastEpoch = b.PartitionLeaderEpoch
	}
	deliver := !b.IsControl()
	if f.readCommitted && b.IsTransactional() {
		f.consumeAbortedUpTo(next - 1)
		_, abortedPID := f.abortedPIDs[b.ProducerID]
		switch {
		case b.IsControl():
			if isAbortMarker(b) {
				delete(f.abortedPIDs, b.ProducerID)
			}
		case abortedPID:
			deliver = false
		}
	}
	if deliver {
		logAppend := b.Attributes&wire.AttrLogAppendTime != 0
		floor := f.next
		for i := range b.Records {
			r := &b.Records[i]
			// Below the position, or out of order / beyond the batch's last
			// offset (a corrupt batch): never delivered.
			if r.Offset < floor || r.Offset >= next {
				continue
			}
			floor = r.Offset + 1
			ts := r.Timestamp
			if logAppend {
				ts = b.MaxTimestamp
			}
			dst = append(dst, Record{
				Topic:     f.tp.Topic,
				Partition: f.tp.Partition,
				Offset:    r.Offset,
				Timestamp: msTime(ts),
				Key:       r.Key,
				Value:     r.Value,
				Headers:   r.Headers,
			})
		}
	}
	f.next = next
	return dst
}

// consumeAbortedUpTo moves the producers of aborted transactions that begin
// at or before offset into the set of aborted producers.
func (f *deliveryFilter) consumeAbortedUpTo(offset int64) {
	for len(f.aborted) > 0 && f.aborted[0].FirstOffset <= offset {
		if f.abortedPIDs == nil {
			f.abortedPIDs = make(map[int64]struct{})
		}
		f.abortedPIDs[f.aborted[0].ProducerID] = struct{}{}
		f.aborted = f.aborted[1:]
	}
}

// isAbortMarker reports whether a control batch holds an ABORT marker.
func isAbortMarker(b *wire.RecordBatch) bool {
	if len(b.Records) == 0 {
		return false
	}
	typ, err := wire.ParseControlRecordKey(b.Records[0].Key)
	return err == nil && typ == wire.ControlAbort
}
