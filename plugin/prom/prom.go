package prom

import (
	"strconv"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
	"github.com/prometheus/client_golang/prometheus"
)

// Collector collects a client's metrics and hook events for Prometheus.
// Create it with New, pass it in client.Config.Hooks, then call Attach
// with the client and register it.
type Collector struct {
	mu     sync.Mutex
	failed map[failKey]uint64          // guarded by mu
	thr    map[int32]time.Duration     // guarded by mu
	cl     *client.Client              // guarded by mu; set by Attach
	descs  map[string]*prometheus.Desc // read-only after New
}

type failKey struct {
	topic     string
	certainty client.Certainty
}

// New returns a Collector with no client attached.
func New() *Collector {
	c := &Collector{failed: map[failKey]uint64{}, thr: map[int32]time.Duration{}, descs: map[string]*prometheus.Desc{}}
	tp := []string{"topic", "partition"}
	bl := []string{"broker", "lane"}
	for name, spec := range map[string]struct {
		help   string
		labels []string
	}{
		"produced_records_total":       {"Records acknowledged by the broker.", tp},
		"produced_bytes_total":         {"Encoded record batch bytes acknowledged.", tp},
		"produce_failed_records_total": {"Records that failed, by whether they may have been written.", []string{"topic", "certainty"}},
		"fetched_records_total":        {"Records fetched and delivered to the consumer.", tp},
		"fetched_bytes_total":          {"Bytes fetched (compressed batches plus decompressed records).", tp},
		"consumer_lag_records":         {"End offset (high watermark, or last stable offset under read_committed) minus the consumer's position.", tp},
		"consumer_position_offset":     {"Next offset the consumer's Receive returns.", tp},
		"high_watermark_offset":        {"High watermark the last Fetch response reported.", tp},
		"last_stable_offset":           {"Last stable offset the last Fetch response reported.", tp},
		"consumer_buffered_records":    {"Fetched records waiting for Receive.", tp},
		"consumer_buffered_bytes":      {"Bytes of fetched records waiting for Receive.", tp},
		"producer_buffered_records":    {"Records admitted by the producers and not yet terminal.", nil},
		"producer_buffered_bytes":      {"Bytes of records admitted by the producers and not yet terminal.", nil},
		"request_latency_seconds":      {"Request latency from write to response read.", bl},
		"request_bytes_written_total":  {"Request frame bytes written.", bl},
		"response_bytes_read_total":    {"Response frame bytes read.", bl},
		"calls_total":                  {"Client calls by outcome.", []string{"outcome"}},
		"connections_open":             {"Open connections per lane.", []string{"lane"}},
		"throttle_seconds_total":       {"Time the broker throttled the client.", []string{"broker"}},
	} {
		c.descs[name] = prometheus.NewDesc("gregor_"+name, spec.help, spec.labels, nil)
	}
	return c
}

// Attach makes scrapes include cl's Metrics snapshot.
func (c *Collector) Attach(cl *client.Client) {
	c.mu.Lock()
	c.cl = cl
	c.mu.Unlock()
}

// OnRecordOutcome implements client.RecordOutcomeHook.
func (c *Collector) OnRecordOutcome(ev client.RecordEvent) {
	if ev.Err == nil {
		return
	}
	c.mu.Lock()
	c.failed[failKey{ev.Topic, ev.Certainty}]++
	c.mu.Unlock()
}

// OnThrottle implements client.ThrottleHook.
func (c *Collector) OnThrottle(broker int32, _ wire.APIKey, d time.Duration) {
	c.mu.Lock()
	c.thr[broker] += d
	c.mu.Unlock()
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	counter := func(name string, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(c.descs[name], prometheus.CounterValue, v, labels...)
	}
	gauge := func(name string, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(c.descs[name], prometheus.GaugeValue, v, labels...)
	}
	c.mu.Lock()
	cl := c.cl
	for k, n := range c.failed {
		counter("produce_failed_records_total", float64(n), k.topic, k.certainty.String())
	}
	for b, d := range c.thr {
		counter("throttle_seconds_total", d.Seconds(), strconv.Itoa(int(b)))
	}
	c.mu.Unlock()
	if cl == nil {
		return
	}
	m := cl.Metrics()
	for _, pm := range m.Partitions {
		collectPartition(pm, counter, gauge)
	}
	gauge("producer_buffered_records", float64(m.Producer.BufferedRecords))
	gauge("producer_buffered_bytes", float64(m.Producer.BufferedBytes))
	counter("calls_total", float64(m.Calls.Succeeded), "succeeded")
	counter("calls_total", float64(m.Calls.Failed), "failed")
	for l := range client.NumLanes {
		gauge("connections_open", float64(m.Lanes[l].Connections), l.String())
	}
	for k, r := range m.Requests {
		labels := []string{strconv.Itoa(int(k.Broker)), k.Lane.String()}
		buckets := make(map[float64]uint64, len(client.LatencyBuckets))
		var cum uint64
		for i, ub := range client.LatencyBuckets {
			cum += r.Counts[i]
			buckets[ub.Seconds()] = cum
		}
		ch <- prometheus.MustNewConstHistogram(c.descs["request_latency_seconds"], r.Count, float64(r.SumNs)/1e9, buckets, labels...)
		counter("request_bytes_written_total", float64(r.BytesWritten), labels...)
		counter("response_bytes_read_total", float64(r.BytesRead), labels...)
	}
}

// collectPartition emits one partition's series: produce and fetch
// counters once they count something, offsets and lag once known, the
// consumer's buffered records while it reads the partition.
func collectPartition(pm client.PartitionMetrics, counter, gauge func(string, float64, ...string)) {
	t, p := pm.Topic, strconv.Itoa(int(pm.Partition))
	if pm.ProducedRecords > 0 {
		counter("produced_records_total", float64(pm.ProducedRecords), t, p)
		counter("produced_bytes_total", float64(pm.ProducedBytes), t, p)
	}
	if pm.FetchedRecords > 0 {
		counter("fetched_records_total", float64(pm.FetchedRecords), t, p)
		counter("fetched_bytes_total", float64(pm.FetchedBytes), t, p)
	}
	if pm.HighWatermark >= 0 {
		gauge("high_watermark_offset", float64(pm.HighWatermark), t, p)
	}
	if pm.LastStableOffset >= 0 {
		gauge("last_stable_offset", float64(pm.LastStableOffset), t, p)
	}
	if pm.Position >= 0 {
		gauge("consumer_position_offset", float64(pm.Position), t, p)
		gauge("consumer_buffered_records", float64(pm.BufferedRecords), t, p)
		gauge("consumer_buffered_bytes", float64(pm.BufferedBytes), t, p)
	}
	if pm.Lag >= 0 {
		gauge("consumer_lag_records", float64(pm.Lag), t, p)
	}
}

var (
	_ prometheus.Collector     = (*Collector)(nil)
	_ client.RecordOutcomeHook = (*Collector)(nil)
	_ client.ThrottleHook      = (*Collector)(nil)
)
