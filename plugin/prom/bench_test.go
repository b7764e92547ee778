package prom_test

import (
	"context"
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/plugin/prom"
	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkHookOverheadPerRecord reports what the collector's hooks cost
// per produced record: per-partition counts come from the client's
// snapshot at scrape time, so a record costs one RecordOutcomeHook call
// (which counts only failures). Add producer's BenchmarkAdmitEncodeHooked
// minus BenchmarkAdmitEncode/none for the producer's side of a hook.
func BenchmarkHookOverheadPerRecord(b *testing.B) {
	col := prom.New()
	rec := client.RecordEvent{Topic: "t", Partition: 3}
	b.ReportAllocs()
	for b.Loop() {
		col.OnRecordOutcome(rec)
	}
}

// BenchmarkScrape reports one scrape of a client that has no connection
// and no partition: the fixed cost of Collect (a client's Metrics snapshot
// and the series built from it).
func BenchmarkScrape(b *testing.B) {
	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:1"}})
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close(context.Background())
	col := prom.New()
	col.Attach(cl)
	reg := prometheus.NewRegistry()
	reg.MustRegister(col)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Gather(); err != nil {
			b.Fatal(err)
		}
	}
}
