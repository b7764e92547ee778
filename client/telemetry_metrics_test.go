package client

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/internal/otlp"
	"github.com/gregor-kafka/gregor/wire"
)

func findMetric(md *otlp.MetricsData, name string) *otlp.Metric {
	for i := range md.Metrics {
		if md.Metrics[i].Name == name {
			return &md.Metrics[i]
		}
	}
	return nil
}

// TestTelemetryMetricValues: counters are cumulative from the client's
// start or deltas since the previous push as the subscription asks;
// latencies cover the interval only; the selector filters by prefix.
func TestTelemetryMetricValues(t *testing.T) {
	t0 := time.Unix(1000, 0)
	snap := func(conns uint64, count, sumMs uint64, bucket int) MetricsSnapshot {
		var s MetricsSnapshot
		s.Conns.Opened = conns
		s.Lanes[LaneFetch].Opened = 1
		rl := RequestLatency{Count: count, SumNs: sumMs * 1e6}
		rl.Counts[bucket] = count
		s.Requests = map[BrokerLane]RequestLatency{{Broker: 2, Lane: LaneFetch}: rl}
		return s
	}
	all := newMetricSelector([]string{"*"})
	for _, delta := range []bool{false, true} {
		st := newMetricState(t0)
		st.collect(snap(3, 10, 100, 3), t0.Add(time.Second), delta, all) // 10 fetches of 10ms
		md := st.collect(snap(5, 12, 140, 5), t0.Add(3*time.Second), delta, all)
		total := findMetric(md, "org.apache.kafka.consumer.connection.creation.total")
		want := 5.0
		if delta {
			want = 2
		}
		if total == nil || total.Points[0].Value != want || (total.Temporality == otlp.TemporalityDelta) != delta {
			t.Fatalf("delta %v: connection.creation.total %+v, want %v", delta, total, want)
		}
		if rate := findMetric(md, "org.apache.kafka.consumer.connection.creation.rate"); rate == nil || rate.Points[0].Value != 1 {
			t.Fatalf("connection.creation.rate %+v, want 1/s", rate)
		}
		avg := findMetric(md, "org.apache.kafka.consumer.fetch.manager.fetch.latency.avg")
		mx := findMetric(md, "org.apache.kafka.consumer.node.request.latency.max")
		if avg == nil || avg.Points[0].Value != 20 { // 2 fetches, 40ms
			t.Fatalf("fetch latency avg %+v, want 20ms over the interval", avg)
		}
		if mx == nil || mx.Points[0].Value != 50 || mx.Points[0].Attrs[0] != (otlp.Attr{Key: "node_id", Value: "2"}) {
			t.Fatalf("node latency max %+v, want bucket bound 50ms for node 2", mx)
		}
		if findMetric(md, "org.apache.kafka.producer.connection.creation.total") != nil {
			t.Fatal("producer metrics without a producer")
		}
	}
	st := newMetricState(t0)
	md := st.collect(snap(1, 1, 1, 0), t0.Add(time.Second), false, newMetricSelector([]string{"org.apache.kafka.consumer.fetch."}))
	if len(md.Metrics) != 2 || findMetric(md, "org.apache.kafka.consumer.fetch.manager.fetch.latency.max") == nil {
		t.Fatalf("prefix selection: %d metrics", len(md.Metrics))
	}
	if md := st.collect(snap(1, 1, 1, 0), t0.Add(2*time.Second), false, newMetricSelector(nil)); len(md.Metrics) != 0 {
		t.Fatal("metrics with no prefix requested")
	}
}

// TestTelemetryPickCodec: the broker's first accepted type that gregor
// writes; none for an empty list; unknown codes skipped.
func TestTelemetryPickCodec(t *testing.T) {
	for _, c := range []struct {
		accepted []int8
		want     wire.Compression
	}{
		{nil, wire.CompressionNone},
		{[]int8{4, 3, 1, 2}, wire.CompressionZstd},
		{[]int8{9, 3}, wire.CompressionLZ4},
		{[]int8{0, 4}, wire.CompressionNone},
	} {
		if got := pickCodec(c.accepted); got != c.want {
			t.Errorf("pickCodec(%v) = %v, want %v", c.accepted, got, c.want)
		}
	}
}
