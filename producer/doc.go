// Package producer writes records to Kafka, always idempotent with
// acks=all, and tells for each record whether it was written.
//
// # Quick start
//
// Write one record and learn where it went (ExampleProducer_Send has the
// whole program):
//
//	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}})
//	// ... handle err; defer cl.Close(ctx) after the producer's Close
//	p, err := producer.New(cl, producer.Config{})
//	// ... handle err; defer p.Close(ctx)
//	res, err := p.Produce(ctx, producer.Record{Topic: "greetings", Key: []byte("k"), Value: []byte("hello")})
//	var failed *producer.RecordError
//	if errors.As(err, &failed) {
//		log.Printf("not written (%s): %v", failed.Certainty, err) // NotSent or PossiblySent
//	}
//	fmt.Println(res.Partition, res.Offset)
//
// Send and TrySend pipeline many records, each with a Delivery to wait on;
// Flush waits for all; Close flushes and stops.
//
// The producer is idempotent (KIP-98, with KIP-360 epoch bumps) and
// batches with linger; it partitions keyed records with murmur2 as the
// Java client does and unkeyed ones uniformly sticky (KIP-794), optionally
// kept to the partitions led in the producer's rack
// (Config.RackAwarePartitioning, KIP-1123); every record gets a delivery
// handle with truthful certainty and can be cancelled on its own. The
// contract follows; how batches, sequences and epochs work comes last.
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
// # Certainty
//
// A failed Result (and its *RecordError) says client.NotSent when no byte of the record can have
// reached a broker or every attempt was definitely rejected, and
// client.PossiblySent otherwise (an attempt timed out or its connection
// failed after writing, or the broker answered REQUEST_TIMED_OUT and the
// like). Certainty never improves.
//
// # Cancellation
//
// Delivery.Cancel removes a record whose batch has never been handed to the
// client (CancelledNotSent: terminal ErrRecordCancelled, NotSent; no sequence
// consumed; siblings unaffected). Once the batch has been handed out it
// returns TooLate and the broker decides; after the terminal,
// AlreadyTerminal.
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
// # Lending the record's slices (Config.BorrowSlices)
//
// With Config.BorrowSlices the producer does not copy: it keeps the
// record's Key, Value and Headers (the header slice and each header's Key
// bytes and Value) as they are and encodes them when the record's batch is
// first sent, just before the bytes go to the connection. The caller
// promises not to modify them, nor anything they point to, from Send or
// TrySend until the record is terminal (its Delivery is done: acknowledged,
// failed or cancelled); TrySend or Send that refuses a record does not keep
// it. The producer only reads them, never once the record is terminal,
// and keeps no reference to them after that. Retries resend the
// bytes encoded at the first send. The bytes sent, their sizes, and every
// limit (BatchMaxBytes, RequestMaxBytes, RetainedBytes, InFlightRecords)
// are the same as when copying; what differs is the cost (no copy at
// admission; with large values, a value read once while it is warm) and
// that the caller's memory stays in use until the terminal.
//
// A batch is sealed when it is full (BatchMaxBytes, BatchMaxRecords), when
// Linger has passed since its first record, or on Flush or Close; it gets
// its sequence numbers on its first send, and retries resend the same
// bytes. At most MaxInFlightPerBroker ProduceRequests are outstanding per
// broker; a partition's batches reach its leader, and their responses are
// applied, in order.
//
// # Metrics
//
// The producer adds to the client's Metrics snapshot (client.ProducerMetrics):
// buffered and waiting records and bytes, sealed (unacknowledged) batches
// and their bytes, Produce request/batch/record/byte counters, peak
// in-flight requests, Accepting and Healthy. UnreadResults counts records
// whose terminal is decided but not yet read by the caller: a record joins
// it when its Result is set and leaves it the first time Delivery.Result or
// Delivery.Wait returns that Result (Done alone does not read it). Per
// partition (client.PartitionMetrics) it counts the records and encoded
// batch bytes the broker acknowledged.
//
// # Memory
//
// Batch buffers (record streams, record tables, compressed batches) are
// recycled within RetainedBytes, so steady-state admission, encoding and
// acknowledgement allocate nothing per record or per batch; a failed batch
// costs one allocation (its records share one terminal).
//
// # Life of a record
//
// TrySend (or Send, which waits in FIFO order for room) copies the record's
// key, value and headers once, already in the v2 record format
// (wire.AppendRecord), into its partition's open batch (or, before the
// topic's metadata is known, into the topic's unassigned batch) and reserves
// its bytes against RetainedBytes and one slot of InFlightRecords.
// It returns a *Delivery that reaches exactly one terminal Result.
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
package producer
