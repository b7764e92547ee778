package faultcheck

import "time"

// FaultEvent is one chaos action in the evidence: what, where, when it
// began and was undone, and how the acknowledgements recovered.
type FaultEvent struct {
	// Kind is sigkill, sigterm, sigstop (a broker), controller_sigstop,
	// or net:<faultproxy kind>.
	Kind string `json:"kind"`
	// Broker is the broker disrupted or whose proxy faulted (-1: every
	// proxy; the controller's node ID for controller_sigstop).
	Broker int32 `json:"broker"`
	// API is the Kafka API key a frame-targeted fault matched (-1: none).
	API    int16     `json:"api"`
	At     time.Time `json:"at"`
	Undone time.Time `json:"undone"`
	// FirstAckMs is the time from At to the next acknowledged
	// non-transactional record of any partition; AllPartitionsMs until
	// every partition that had an acknowledgement after At had its first
	// (a failover shows here); -1 when none came.
	FirstAckMs      int64 `json:"first_ack_ms"`
	AllPartitionsMs int64 `json:"all_partitions_ack_ms"`
}
