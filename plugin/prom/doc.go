// Package prom is a Prometheus collector for gregor clients.
//
// # Quick start
//
//	col := prom.New()
//	cl, err := client.New(client.Config{Bootstrap: []string{"127.0.0.1:9092"}, Hooks: []client.Hook{col}})
//	col.Attach(cl)
//	reg := prometheus.NewRegistry()
//	reg.MustRegister(col)
//	http.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
//
// The package Example has the whole program. It is a nested module, so
// gregor's own module depends on no Prometheus code.
//
// # Collected series
//
// A Collector is both a client.Hook (give it in client.Config.Hooks) and a
// prometheus.Collector (register it; call Attach with the client). At each
// scrape it reads the client's Metrics snapshot: per topic and partition the
// records and bytes produced (acknowledged) and fetched, the high watermark
// and last stable offset of the last Fetch response, the consumer's position,
// buffered records and bytes and its lag (the end offset minus the position;
// the end is the last stable offset under read_committed); the producers'
// buffered records and bytes; request latency histograms per broker and
// lane, calls by outcome and connections. From the hooks it counts record
// failures by certainty and throttle time.
//
// Series (namespace "gregor"; every name below is prefixed "gregor_"):
//
//	produced_records_total{topic,partition}       counter
//	produced_bytes_total{topic,partition}         counter (encoded batch bytes)
//	produce_failed_records_total{topic,certainty} counter (certainty: not_sent, possibly_sent)
//	fetched_records_total{topic,partition}        counter
//	fetched_bytes_total{topic,partition}          counter
//	high_watermark_offset{topic,partition}        gauge
//	last_stable_offset{topic,partition}           gauge
//	consumer_position_offset{topic,partition}     gauge
//	consumer_lag_records{topic,partition}         gauge
//	consumer_buffered_records{topic,partition}    gauge
//	consumer_buffered_bytes{topic,partition}      gauge
//	producer_buffered_records                     gauge
//	producer_buffered_bytes                       gauge
//	request_latency_seconds{broker,lane}          histogram (client.LatencyBuckets)
//	request_bytes_written_total{broker,lane}      counter
//	response_bytes_read_total{broker,lane}        counter
//	calls_total{outcome}                          counter (succeeded, failed)
//	connections_open{lane}                        gauge
//	throttle_seconds_total{broker}                counter
//
// A partition's counters appear once they count something; its offsets
// once a Fetch reported them; position, buffered and lag while a consumer
// reads it. Per-partition counters live as long as the producer or
// consumer that counted them (they start over when one is closed and a
// new one made, which Prometheus treats as a counter reset).
//
// Hooks run on the client's goroutines; the collector's take a mutex and
// update a map entry only for failed records and throttles, no I/O. A record
// costs one hook call (see BenchmarkHookOverheadPerRecord). Scrapes copy
// under the same mutex.
package prom
