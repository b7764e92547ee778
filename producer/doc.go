// Package producer is gregor's producer: always idempotent with acks=all
// (KIP-98 idempotence, KIP-360 epoch bumps), batching with linger, keyed
// murmur2 partitioning compatible with the Java client, uniform sticky
// partitioning for unkeyed records (KIP-794), per-record delivery handles with
// truthful certainty, and per-record cancellation.
//
// # Sending
//
// A Record's zero Partition lets the partitioner pick; ToPartition(n) names
// partition n. Produce is the synchronous send (Send, then wait): it
// returns the Result, or one error, a *RecordError whose Certainty says
// whether the record may have been written (errors.Is matches the Kafka
// error underneath; gregor.MayHaveBeenWritten asks the same). Delivery.Wait
// returns a failed record's *RecordError the same way, and ctx's error
// alone when ctx ends first. Send/TrySend and Deliveries pipeline records.
//
// # Life of a record
//
// TrySend (or Send, which waits in FIFO order for room) copies the record's
// key, value and headers once, already in the v2 record format
// (wire.AppendRecord), into its partition's open batch (or, before the
// topic's metadata is known, into the topic's unassigned batch) and reserves
// its bytes against RetainedBytes and one slot of InFlightRecords.
// It returns a *Delivery that reaches exactly one terminal Result. With lz4
// and records of 512 bytes or more on average, a partition's batch
// compresses its records 64 KiB at a time as they arrive
// (wire.StreamEncoder, as the Java client's MemoryRecordsBuilder), so only
// the chunk being filled is kept uncompressed; otherwise a batch is
// compressed whole when it is first sent.
//
// One sender goroutine seals batches (full, Linger expired, Flush or Close),
// assigns sequence numbers on a batch's first send, finishes it once
// (wire.BatchEncoder.FinishBatch writes the header in place, or compresses;
// a streamed lz4 batch ends its frame and is sealed with wire.SealBatch;
// retries resend the same bytes, a new sequence only re-stamps the header) and builds at most one
// ProduceRequest per broker per pass, at most MaxInFlightPerBroker per
// broker. A goroutine per broker hands requests to the client in order
// (client.StartCall keeps call order per broker), so a partition's sequences
// reach its leader in order; another applies that broker's responses in
// order.
//
// # Sequences and epochs (KIP-98, KIP-360)
//
//   - A partition adopts the producer's ID and epoch at sequence 0 when it has
//     no sequenced batch outstanding. Until its first batch under that
//     identity is acknowledged it has one batch in flight: a broker without
//     state for the producer accepts any sequence number.
//   - A retriable failure (or OUT_OF_ORDER_SEQUENCE_NUMBER behind a failed
//     predecessor) drains the partition's in-flight batches and resends from
//     the first unacknowledged one with the same sequence numbers and bytes,
//     so the broker deduplicates what it already has. DUPLICATE_SEQUENCE_NUMBER
//     is success.
//   - A sequenced batch that fails for good leaves a gap. Once nothing before
//     the gap is outstanding, the partition restarts at sequence 0 under the
//     next epoch (bumped locally, as KIP-360 allows an idempotent producer; at
//     epoch exhaustion a new producer ID is requested). Later batches the
//     broker definitely rejected are sequenced again; a later batch that may
//     have been written after a gap of unknown outcome fails with
//     ErrSequenceReset and certainty PossiblySent rather than risk a duplicate.
//   - OUT_OF_ORDER_SEQUENCE_NUMBER or UNKNOWN_PRODUCER_ID on the first
//     unacknowledged batch means the broker lost the producer's state: the
//     batch is resent at sequence 0 under a new epoch if no attempt of it can
//     have been written, else it fails PossiblySent.
//
// # Certainty
//
// A failed Result (and its *RecordError) says client.NotSent when no byte of the record can have
// reached a broker or every attempt was definitely rejected, and
// client.PossiblySent otherwise (an attempt timed out or its connection
// failed after writing, or the broker answered REQUEST_TIMED_OUT and the
// like). Certainty never improves.
//
// # Resolving PossiblySent
//
// Producer.Resolve turns a PossiblySent failure into proof: Written with the
// record's offset and timestamp, NotWritten (the record is not in the log
// and its producer epoch is fenced, so sending it again cannot duplicate
// it), or StillUnknown with an UnknownReason (range_deleted,
// producer_id_expired, not_fenced, partition_recreated, partition_gone,
// not_found). Result.Sent carries what it needs: the batch's producer ID,
// epoch, base sequence and record count, the record's offset delta, the
// topic ID, and the partition's acknowledged end offset when the batch got
// its sequence. Use it where a duplicate or a loss matters (outbox relays,
// exports): resend on NotWritten only. It costs one DescribeProducers
// (KIP-664) to the partition leader and, when that decides or the offset is
// needed, one bounded read of the log (Fetch from the acknowledged end up to
// the batch, a later batch of the producer, or the high watermark); nothing
// on the success path. A batch that never reached the log is NotWritten
// only once the partition was written under a newer epoch (the producer
// bumps it after such a failure, KIP-360): until then a request still queued
// at the broker could be appended (not_fenced). Config.ResolvePossiblySent
// runs it automatically before reporting a batch's terminal (default off).
//
// A record whose topic metadata keeps reporting as UNKNOWN_TOPIC_OR_PARTITION
// fails with gregor.ErrUnknownTopicOrPartition, NotSent, after
// Config.UnknownTopicRetries refreshes in a row (about 4.5s by default)
// rather than at DeliveryTimeout; a topic created meanwhile is produced to.
//
// # Cancellation
//
// Delivery.Cancel removes a record whose batch has never been handed to the
// client (CancelledNotSent: terminal ErrRecordCancelled, NotSent; no sequence
// consumed; siblings unaffected). Once the batch has been handed out it
// returns TooLate and the broker decides; after the terminal,
// AlreadyTerminal.
//
// # Metrics
//
// The producer adds to the client's ProducerMetrics snapshot: active and
// waiting records and bytes, prepared (sealed, unacknowledged) batches and
// their bytes, ProduceRequest/batch/record/encoded-byte counters, peak
// in-flight requests, Accepting and Healthy. TerminalBacklog counts records
// whose terminal is decided but not yet read by the caller: a record joins
// it when its Result is set and leaves it the first time Delivery.Result or
// Delivery.Wait returns that Result (Done alone does not read it).
//
// # Memory
//
// Batch buffers (record streams, record tables, compressed batches) are recycled
// through capacity-class pools bounded by RetainedBytes, and Delivery handles
// (56 bytes) are allocated in slabs of 512, so steady-state admission,
// encoding and acknowledgement allocate nothing per record or per batch: an
// acknowledged record's Delivery keeps its own offset and timestamp and
// points to its partition's shared topic/partition terminal; a failed
// batch shares one terminal (one allocation per failure).
package producer
