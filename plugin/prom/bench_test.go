package prom_test

import (
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/plugin/prom"
)

// BenchmarkHookOverheadPerRecord reports what the collector's hooks cost
// per produced and consumed record, for batches of 100 records: one batch
// acknowledgement, 100 record outcomes and one fetched batch.
func BenchmarkHookOverheadPerRecord(b *testing.B) {
	col := prom.New()
	ack := client.BatchEvent{Topic: "t", Partition: 3, Records: 100, Bytes: 10000, BaseOffset: 0, HighWatermark: -1, LastOffset: -1}
	rec := client.RecordEvent{Topic: "t", Partition: 3}
	fetch := client.BatchEvent{Topic: "t", Partition: 3, Records: 100, Bytes: 10000, HighWatermark: 1000, LastOffset: 99}
	b.ReportAllocs()
	for range b.N {
		col.OnProduceBatchAcked(ack)
		for range 100 {
			col.OnRecordOutcome(rec)
		}
		col.OnFetchBatch(fetch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/record")
}
