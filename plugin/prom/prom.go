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
	parts  map[tpKey]*partStats        // guarded by mu
	failed map[failKey]uint64          // guarded by mu
	thr    map[int32]time.Duration     // guarded by mu
	cl     *client.Client              // guarded by mu; set by Attach
	descs  map[string]*prometheus.Desc // read-only after New
}

type tpKey struct {
	topic     string
	partition int32
}

type failKey struct {
	topic     string
	certainty client.Certainty
}

type partStats struct {
	prodRecs, prodBytes, fetchRecs, fetchBytes uint64
	lag                                        int64
	hasLag                                     bool
}

// New returns a Collector with no client attached.
func New() *Collector {
	c := &Collector{parts: map[tpKey]*partStats{}, failed: map[failKey]uint64{}, thr: map[int32]time.Duration{}, descs: map[string]*prometheus.Desc{}}
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
		"consumer_lag_records":         {"High watermark of the last Fetch minus the next offset.", tp},
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

func (c *Collector) part(topic string, partition int32) *partStats {
	k := tpKey{topic, partition}
	s := c.parts[k]
	if s == nil {
		s = &partStats{}
		c.parts[k] = s
	}
	return s
}

// OnProduceBatchAcked implements client.ProduceBatchAckedHook.
func (c *Collector) OnProduceBatchAcked(ev client.BatchEvent) {
	if ev.Err != nil {
		return // counted per record by OnRecordOutcome
	}
	c.mu.Lock()
	s := c.part(ev.Topic, ev.Partition)
	s.prodRecs += uint64(ev.Records)
	s.prodBytes += uint64(ev.Bytes)
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

// OnFetchBatch implements client.FetchBatchHook.
func (c *Collector) OnFetchBatch(ev client.BatchEvent) {
	c.mu.Lock()
	s := c.part(ev.Topic, ev.Partition)
	s.fetchRecs += uint64(ev.Records)
	s.fetchBytes += uint64(ev.Bytes)
	if ev.HighWatermark >= 0 && ev.LastOffset >= 0 {
		s.lag, s.hasLag = max(ev.HighWatermark-ev.LastOffset-1, 0), true
	}
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
	for k, s := range c.parts {
		p := strconv.Itoa(int(k.partition))
		if s.prodRecs > 0 {
			counter("produced_records_total", float64(s.prodRecs), k.topic, p)
			counter("produced_bytes_total", float64(s.prodBytes), k.topic, p)
		}
		if s.fetchRecs > 0 {
			counter("fetched_records_total", float64(s.fetchRecs), k.topic, p)
			counter("fetched_bytes_total", float64(s.fetchBytes), k.topic, p)
		}
		if s.hasLag {
			gauge("consumer_lag_records", float64(s.lag), k.topic, p)
		}
	}
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

var (
	_ prometheus.Collector         = (*Collector)(nil)
	_ client.ProduceBatchAckedHook = (*Collector)(nil)
	_ client.RecordOutcomeHook     = (*Collector)(nil)
	_ client.FetchBatchHook        = (*Collector)(nil)
	_ client.ThrottleHook          = (*Collector)(nil)
)
