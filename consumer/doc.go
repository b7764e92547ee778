// Package consumer is gregor's directly assigned consumer: it reads an
// explicit set of topic-partitions with Fetch sessions (KIP-227), follows
// leaders, filters aborted transactions under read_committed, detects
// truncation with leader epochs (KIP-320), and bounds buffered bytes.
package consumer
