// Package admin is gregor's admin surface: topics, partitions, offsets,
// records, configs, cluster and consumer-group administration, each with typed
// per-resource results in request order.
package admin
