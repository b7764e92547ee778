// Package wire holds gregor's hand-written codecs for the Apache Kafka
// protocol; most programs never import it (package gregor re-exports the
// names they need).
//
// # Quick start
//
// Encode a record batch and read its records back (ExampleBatchReader has
// the whole program):
//
//	records, err := wire.NewBatchEncoder(nil).AppendBatch(nil, &wire.BatchHeader{
//		ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}, []wire.Record{{Value: []byte("v")}})
//	br := wire.NewBatchReader(records, wire.DecodeOptions{Decompressor: wire.NewDecompressor(0)})
//	var b wire.RecordBatch
//	for br.Next(&b) {
//		fmt.Println(b.Records[0].Offset, b.NextOffset())
//	}
//	err = br.Err()
//
// # Contents
//
// It holds the primitive types of the protocol guide (fixed-width integers, varints,
// strings, bytes, arrays, UUIDs and the KIP-482 tagged-field sections of
// flexible versions), request and response headers, one file per API message,
// record batches (magic v2, with read-only decoding of legacy message sets),
// the five compression codecs and the table of Kafka error codes.
//
// The package does no I/O, starts no goroutines and reads no clock. Encoding
// appends to a caller's buffer (AppendTo(dst, version) []byte) so hot paths can
// reuse memory; decoding reads from a bounded slice through a Reader, which
// checks every length against the bytes that remain before it allocates and
// records the first error instead of panicking.
//
// A producer builds record batches without re-encoding: AppendRecord encodes
// each record once into a stream with BatchHeaderLen bytes of header room,
// and BatchEncoder.FinishBatch (or FinishBatchCRC, with a running CRC-32C)
// completes it, in place when uncompressed; with lz4 a StreamEncoder
// compresses the records as they arrive, and SealBatch stamps the header.
//
// Source of truth for every field and version: Apache Kafka's message
// definitions (clients/src/main/resources/common/message/*.json).
package wire
