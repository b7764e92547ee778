// Package prom is a Prometheus collector for gregor clients (a nested
// module, so gregor's own module depends on no Prometheus code).
//
// A Collector is both a client.Hook (give it in client.Config.Hooks) and a
// prometheus.Collector (register it). From the hooks it counts, per topic
// and partition, records and bytes produced and fetched, record failures by
// certainty, and keeps each fetched partition's consumer lag (the high
// watermark of the last Fetch response minus the next offset); at each
// scrape it reads the client's Metrics snapshot for request latency
// histograms per broker and lane, calls by outcome and connections.
//
// Series (namespace "gregor"; every name below is prefixed "gregor_"):
//
//	produced_records_total{topic,partition}       counter
//	produced_bytes_total{topic,partition}         counter (encoded batch bytes)
//	produce_failed_records_total{topic,certainty} counter (certainty: not_sent, possibly_sent)
//	fetched_records_total{topic,partition}        counter
//	fetched_bytes_total{topic,partition}          counter
//	consumer_lag_records{topic,partition}         gauge
//	request_latency_seconds{broker,lane}          histogram (client.LatencyBuckets)
//	request_bytes_written_total{broker,lane}      counter
//	response_bytes_read_total{broker,lane}        counter
//	calls_total{outcome}                          counter (succeeded, failed)
//	connections_open{lane}                        gauge
//	throttle_seconds_total{broker}                counter
//
// Hooks run on the client's goroutines; the collector's take a mutex and
// update a map entry, no I/O. Scrapes copy under the same mutex.
package prom
