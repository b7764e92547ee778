package wire_test

import (
	"fmt"

	"github.com/gregor-kafka/gregor/wire"
)

// A producer encodes a batch; a consumer reads the batches of a partition's
// Fetch records, skipping records below its fetch offset and control
// records, and resumes at NextOffset.
func ExampleBatchReader() {
	enc := wire.NewBatchEncoder(nil) // one per goroutine; share a *wire.Compressor
	records, err := enc.AppendBatch(nil, &wire.BatchHeader{
		Compression: wire.CompressionZstd, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, BaseTimestamp: 1000,
	}, []wire.Record{
		{Timestamp: 1000, Key: []byte("a"), Value: []byte("first")},
		{Timestamp: 1001, Key: []byte("b"), Value: []byte("second")},
	})
	if err != nil {
		panic(err)
	}

	fetchOffset := int64(1)
	dec := wire.NewDecompressor(0) // share one per consumer
	br := wire.NewBatchReader(records, wire.DecodeOptions{Decompressor: dec})
	var b wire.RecordBatch
	for br.Next(&b) {
		if !b.IsControl() {
			for _, r := range b.Records {
				if r.Offset >= fetchOffset {
					fmt.Printf("offset %d key %s value %s\n", r.Offset, r.Key, r.Value)
				}
			}
		}
		fetchOffset = b.NextOffset()
	}
	if err := br.Err(); err != nil {
		panic(err)
	}
	fmt.Println("next fetch offset", fetchOffset, "truncated", br.Truncated())
	// Output:
	// offset 1 key b value second
	// next fetch offset 2 truncated false
}
