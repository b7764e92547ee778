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
	headers       bool  // some delivered record has headers (pointing into a slab)
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

// add filters one batch, which br.NextHeader just returned, and appends
// its deliverable records to dst, decoding them with br.NextRecord straight
// into dst (records of batches that are not delivered are not decoded).
// When a record fails to decode (br.Err is then set) it appends nothing
// and leaves the position where it was, so the partition stops at the
// corrupt batch.
func (f *deliveryFilter) add(br *wire.BatchReader, b *wire.RecordBatch, dst []Record) []Record {
	next := b.NextOffset()
	if next <= f.next {
		return dst // wholly below the position (already delivered or skipped)
	}
	lastEpoch := f.lastEpoch
	if b.Magic >= 2 {
		f.lastEpoch = b.PartitionLeaderEpoch
	}
	deliver := !b.IsControl()
	if f.readCommitted && b.IsTransactional() {
		f.consumeAbortedUpTo(next - 1)
		_, abortedPID := f.abortedPIDs[b.ProducerID]
		switch {
		case b.IsControl():
			rec, ok := br.NextRecord()
			if br.Err() != nil {
				f.lastEpoch = lastEpoch
				return dst
			}
			if ok && isAbortMarker(rec.Key) {
				delete(f.abortedPIDs, b.ProducerID)
			}
		case abortedPID:
			deliver = false
		}
	}
	if deliver {
		start := len(dst)
		floor := f.next
		var (
			spare Record
			ts    int64
		)
		for {
			// Decode straight into the next slot of dst (the block is
			// sized for every record); a record that is not delivered
			// leaves the slot to the next one. Only a full dst takes
			// the record through spare.
			r := &spare
			if len(dst) < cap(dst) {
				r = &dst[:len(dst)+1][len(dst)]
			}
			if !br.NextRecordInto(&r.Offset, &ts, &r.Key, &r.Value, &r.Headers) {
				break
			}
			// Below the position, or out of order / beyond the batch's last
			// offset (a corrupt batch): never delivered. (Timestamps of
			// LogAppendTime batches are the batch's MaxTimestamp.)
			if r.Offset < floor || r.Offset >= next {
				continue
			}
			floor = r.Offset + 1
			r.Topic, r.Partition, r.Timestamp = f.tp.Topic, f.tp.Partition, wire.TimeOfMillis(ts)
			f.headers = f.headers || r.Headers != nil
			if r == &spare {
				dst = append(dst, spare)
			} else {
				dst = dst[:len(dst)+1]
			}
		}
		if br.Err() != nil {
			clear(dst[start:])
			f.lastEpoch = lastEpoch
			return dst[:start]
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

// isAbortMarker reports whether a control batch's first record key names
// an ABORT marker.
func isAbortMarker(key []byte) bool {
	typ, err := wire.ParseControlRecordKey(key)
	return err == nil && typ == wire.ControlAbort
}
