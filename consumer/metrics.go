package consumer

// Metrics is a point-in-time snapshot of a Consumer's counters (only grow)
// and gauges (current values).
type Metrics struct {
	// Gauges.
	AssignedPartitions int
	PausedPartitions   int
	BufferedBytes      int64 // charged against Config.MaxBufferedBytes
	BufferedRecords    int
	FetchesInFlight    int
	// Counters.
	FetchRequests uint64 // Fetch requests sent
	FetchFailures uint64 // Fetch requests that failed or carried a top-level error
	FullFetches   uint64 // Fetch requests that (re)created a fetch session (KIP-227)
	MovedFetches  uint64 // sessionless Fetch requests of partitions moved while their broker held a Fetch (Seek, Resume, Assign)
	// EarlyAnswers counts Fetch responses after which the broker's next
	// Fetch could be sent before the response was decoded (uncompressed
	// batches within the decode budget): the next round trip overlaps the
	// decoding.
	EarlyAnswers uint64
	// TwinFetches counts Fetch requests sent in a broker's second fetch
	// session: while a consumer reads faster than one Fetch per round trip
	// allows, a broker's partitions are split between two sessions, each
	// with a Fetch in flight.
	TwinFetches       uint64
	RecordsDelivered  uint64 // records returned by Receive
	BytesDelivered    uint64 // bytes charged for the records returned by Receive
	OffsetResets      uint64 // positions moved by OffsetReset or truncation
	Validations       uint64 // positions checked with OffsetForLeaderEpoch after a leader change (KIP-320)
	MetadataRefreshes uint64 // times the consumer invalidated metadata
	LeaderHints       uint64 // new leaders taken from Fetch responses without a metadata refresh (KIP-951)
	// ReadReplicaChanges counts preferred read replicas a leader named
	// that a partition was then fetched from (KIP-392, Config.Rack);
	// ReadReplicaFallbacks counts partitions that went back to their leader
	// before their choice expired (an error, a failed Fetch, a replica
	// metadata no longer lists online).
	ReadReplicaChanges, ReadReplicaFallbacks uint64
}

// Metrics returns a snapshot of the consumer's counters and gauges.
func (c *Consumer) Metrics() Metrics {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.m
	m.AssignedPartitions = len(c.parts)
	m.BufferedBytes = c.buffered
	m.FetchesInFlight = len(c.inflight)
	for _, st := range c.parts {
		if st.paused {
			m.PausedPartitions++
		}
		m.BufferedRecords += st.bufferedRecords()
	}
	return m
}
