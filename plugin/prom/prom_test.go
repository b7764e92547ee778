package prom_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/plugin/prom"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestCollectorAfterRealTraffic: after producing n records to a real
// broker and consuming them, a scrape shows the produced and fetched
// record counts per partition, the high watermark and consumer position n,
// nothing buffered and a zero consumer lag, request latency histograms for
// the produce and fetch lanes, and succeeded calls.
func TestCollectorAfterRealTraffic(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	col := prom.New()
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{col}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	col.Attach(cl)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)

	topic := kafkatest.UniqueName(t, "prom")
	res, err := admin.New(cl, admin.Config{}).CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
	if err == nil {
		err = res[0].Err
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := producer.New(cl, producer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	const n = 25
	var ds []*producer.Delivery
	for range n {
		d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte("value")})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for _, d := range ds {
		if r, err := d.Wait(ctx); err != nil || r.Err != nil {
			t.Fatalf("delivery: %v %v", err, r.Err)
		}
	}
	c, err := consumer.New(cl, consumer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	tp := gregor.TopicPartition{Topic: topic, Partition: 0}
	if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: tp, Position: consumer.AtBeginning()}}); err != nil {
		t.Fatal(err)
	}
	for got := 0; got < n; {
		recs, err := c.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got += len(recs)
	}

	want := `
# HELP gregor_produced_records_total Records acknowledged by the broker.
# TYPE gregor_produced_records_total counter
gregor_produced_records_total{partition="0",topic="TOPIC"} 25
# HELP gregor_fetched_records_total Records fetched and delivered to the consumer.
# TYPE gregor_fetched_records_total counter
gregor_fetched_records_total{partition="0",topic="TOPIC"} 25
# HELP gregor_consumer_lag_records End offset (high watermark, or last stable offset under read_committed) minus the consumer's position.
# TYPE gregor_consumer_lag_records gauge
gregor_consumer_lag_records{partition="0",topic="TOPIC"} 0
# HELP gregor_high_watermark_offset High watermark the last Fetch response reported.
# TYPE gregor_high_watermark_offset gauge
gregor_high_watermark_offset{partition="0",topic="TOPIC"} 25
# HELP gregor_consumer_position_offset Next offset the consumer's Receive returns.
# TYPE gregor_consumer_position_offset gauge
gregor_consumer_position_offset{partition="0",topic="TOPIC"} 25
# HELP gregor_consumer_buffered_records Fetched records waiting for Receive.
# TYPE gregor_consumer_buffered_records gauge
gregor_consumer_buffered_records{partition="0",topic="TOPIC"} 0
# HELP gregor_producer_buffered_records Records admitted by the producers and not yet terminal.
# TYPE gregor_producer_buffered_records gauge
gregor_producer_buffered_records 0
`
	want = strings.ReplaceAll(want, "TOPIC", topic)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "gregor_produced_records_total", "gregor_fetched_records_total", "gregor_consumer_lag_records",
		"gregor_high_watermark_offset", "gregor_consumer_position_offset", "gregor_consumer_buffered_records", "gregor_producer_buffered_records"); err != nil {
		t.Fatal(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	lanes := map[string]uint64{}
	var bytes, fetchedBytes, succeeded float64
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			switch mf.GetName() {
			case "gregor_request_latency_seconds":
				for _, l := range m.GetLabel() {
					if l.GetName() == "lane" {
						lanes[l.GetValue()] += m.GetHistogram().GetSampleCount()
					}
				}
			case "gregor_produced_bytes_total":
				bytes += m.GetCounter().GetValue()
			case "gregor_fetched_bytes_total":
				fetchedBytes += m.GetCounter().GetValue()
			case "gregor_calls_total":
				if m.GetLabel()[0].GetValue() == "succeeded" {
					succeeded = m.GetCounter().GetValue()
				}
			}
		}
	}
	if lanes["produce"] == 0 || lanes["fetch"] == 0 || lanes["control"] == 0 {
		t.Errorf("latency samples per lane %v: want produce, fetch and control", lanes)
	}
	if bytes < n*5 || fetchedBytes < n*5 || succeeded < 3 {
		t.Errorf("produced bytes %v, fetched bytes %v, succeeded calls %v: implausible", bytes, fetchedBytes, succeeded)
	}
}
