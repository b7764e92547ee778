// Package client owns every socket gregor opens: one *Client per program,
// shared by its producers, consumers and admin calls.
//
// # Quick start
//
//	cl, err := client.New(client.Config{
//		Bootstrap: []string{"127.0.0.1:9092"},
//		// TLS: &tls.Config{...}, SASL: &client.SASL{Mechanism: client.SASLScramSHA512, Username: u, Password: pw},
//	})
//	// ... handle err
//	defer cl.Close(context.Background()) // last: the producers' and consumers' Close leave it open
//	if err := cl.Ready(ctx); err != nil { // optional: fail early if no broker answers
//		return err
//	}
//	p, err := producer.New(cl, producer.Config{}) // consumer.New, admin.New, txn.New alike
//
// A Client connects to brokers over TCP or TLS (optionally with client
// certificates), authenticates with SASL PLAIN, SCRAM-SHA-256/512,
// OAUTHBEARER or a caller's Mechanism, negotiates API versions, keeps the
// cluster's metadata and routes each request to a broker, a partition
// leader, the controller or a coordinator. Every call takes a
// context.Context whose deadline bounds the whole operation, retries
// included. Higher layers (producer, consumer, admin) use a *Client and
// never see a net.Conn. Failures are typed: broker error codes are
// *wire.KafkaError values, client-side failures are the Err values of this
// package wrapped in *RequestError with a Certainty (NotSent or
// PossiblySent).
//
// The contract follows (deadlines and certainty, security, observability);
// how connections, lanes and allocation work comes last.
//
// # Deadlines and certainty
//
// A call's deadline is its context's, or RequestTimeout from the call when
// that is earlier or the context has none. A request that never reached the
// socket fails NotSent; once written it is PossiblySent. When a written
// request's caller gives up (deadline or cancellation), the request keeps
// its place on the connection and its response is discarded; if no response
// arrives within RequestTimeout of the write, the connection is closed as
// stalled (Kafka answers in order, so everything behind it waits too).
// Request retries, with exponential backoff and jitter within the deadline,
// failures where nothing was sent, and transport failures of read-only APIs
// (Metadata, FindCoordinator, describes and lists); Enqueue and StartCall
// never retry.
// Errors from a context are ErrTimeout or ErrCancelled and also match
// context.DeadlineExceeded or context.Canceled.
//
// # Security
//
// Mutual TLS: put the client certificate in Config.TLS.Certificates; the
// broker's principal is then the certificate's (subject DN as mapped by
// ssl.principal.mapping.rules). A broker that refuses the certificate
// (ssl.client.auth=required: none given, or another CA's) fails the
// connection with ErrAuthentication, as do refused SASL exchanges and
// certificates the client cannot verify; these are not retried.
// Credentials (passwords, tokens) are never logged or put in errors: SASL,
// Token and the provided Mechanisms print themselves redacted for every fmt
// verb, and Config holds them behind pointers and interfaces.
//
// # Observability
//
// Config.Hooks takes values implementing any of the Hook* interfaces
// (ConnOpenedHook, ConnClosedHook, RequestWrittenHook, ResponseReadHook,
// ThrottleHook, ProduceBatchWrittenHook, ProduceBatchAckedHook,
// FetchBatchHook, RecordOutcomeHook, AssignmentHook, TxnOutcomeHook); the
// producer and consumers built on the client report through the same
// hooks (Client.Hooks). Hooks run synchronously on the client's goroutines
// and must return quickly (see Hook). With no hook registered a call site
// costs a nil or length check and allocates nothing.
// Config.Logger receives the lines listed in logs.go's comment (Warn
// "gregor: connection lost", Info "gregor: retrying", "gregor: leader
// moved", ...): Info is quiet in steady state, every line is guarded by
// Logger.Enabled, and no line carries credentials. MetricsSnapshot.Requests
// holds request latency histograms (LatencyBuckets) and byte counts per
// broker and lane; MetricsSnapshot.Partitions the produce and fetch counts,
// end offsets, consumer positions, lag and buffered records per topic and
// partition of the producers and consumers built on the client. The nested modules plugin/prom and plugin/otel turn
// hooks and snapshots into Prometheus and OpenTelemetry signals.
//
// # Connections
//
// Each broker address has at most one connection per workload lane (Lane):
// produce (Produce), fetch (Fetch, ShareFetch, ShareAcknowledge), group
// (group and transaction coordination: JoinGroup, SyncGroup, Heartbeat,
// LeaveGroup, ConsumerGroupHeartbeat, ShareGroupHeartbeat, OffsetCommit,
// OffsetFetch, FindCoordinator, AddPartitionsToTxn, AddOffsetsToTxn, EndTxn,
// TxnOffsetCommit) and control (everything else: Metadata, ApiVersions,
// admin). LaneOf gives a request's lane from its API key. A broker reads one
// request per connection at a time, so a Fetch it holds for MaxWait, or a
// JoinGroup held for a rebalance, delays only requests of its own lane: one
// Client shared by a producer and consumers stays as fast as separate
// clients, with at most four connections per broker, each dialed only when
// its lane is first used. A request for AnyBroker goes to the least loaded
// live connection of its lane, else to a broker already reached in another
// lane. Each lane's connection negotiates, authenticates and re-authenticates
// on its own and bounds its own in-flight requests (MaxInFlightPerBroker);
// a failed connection fails only the requests of its lane. A context from
// WithGroupConnection or WithFetchConnection gives its group-lane or
// fetch-lane requests connections of their own.
// MetricsSnapshot.Lanes reports connections and in-flight requests per lane.
//
// Bootstrap addresses are dialed until metadata names the brokers; from then
// on requests for AnyBroker (Metadata among them) go to the known brokers.
// When none of them can be reached for RebootstrapTrigger (default 5m), or a
// broker answers Metadata with REBOOTSTRAP_REQUIRED, the client rebootstraps
// (KIP-899, KIP-1102; MetadataRecoveryStrategy, on by default): it dials the
// bootstrap addresses again, resolving their names anew, and rebuilds
// metadata from there. The cluster ID is checked every time (against
// ExpectedClusterID, or else the first one seen), so the client never mixes
// two clusters. ConnMetrics.Rebootstraps counts the episodes. Before the
// client has reached any broker, a try in which every bootstrap address
// refuses the connection is retried only a few times (about 0.7s with the
// default RetryBackoff), then the call fails NotSent saying so, rather
// than at its deadline; once metadata is loaded, refused connections are
// retried within the deadline like any transport failure.
//
// Close the client last. Closed first, it fails what is in flight with
// ErrClosed (PossiblySent for written requests), and the producers and
// consumers built on it (they watch Closed) fail their pending and later
// calls at once with errors matching ErrClosed and their true certainty.
//
// On connect the client runs ApiVersions (retrying at the broker's
// advertised ApiVersions version, or v0, when the broker answers
// UNSUPPORTED_VERSION, KIP-511) and then SASL (SaslHandshake v1 and
// SaslAuthenticate, KIP-152). A connection has at most MaxInFlightPerBroker
// requests outstanding, written in correlation-ID order; each response
// frame must answer the oldest outstanding request. A frame above MaxResponseBytes
// (checked before allocating), a correlation ID other than the oldest
// outstanding one, a short read or an undecodable response closes the
// connection and fails every request on it (ErrProtocol or ErrTransport,
// PossiblySent); the next request dials a new connection.
//
// When the broker limits a SASL session's lifetime (connections.max.reauth.ms;
// SaslAuthenticate v1+ reports it), the connection re-authenticates in band
// before it ends (KIP-368): the first request due after a random 85–95% of
// the lifetime waits, holding the writer path, until every written request
// is answered, then SaslHandshake and SaslAuthenticate run again and the
// request follows, on the same connection and in order. A broker closes a
// connection used after its session ended, failing what was in flight on it
// as PossiblySent; re-authenticating keeps that from happening. The wait
// for in-flight requests is bounded by the waiting request's own deadline
// (it then fails NotSent with it, and the next request tries again). A
// failed re-authentication closes the connection (nothing is in flight
// then) and fails the waiting request NotSent. MetricsSnapshot.Conns counts
// connections opened, closed and re-authenticated. A Mechanism whose
// session has credentials that expire (OAUTHBEARER tokens: SessionExpirer)
// also re-authenticates at 85–95% of their remaining life, when that comes
// first, taking a fresh token from its TokenSource.
//
// # Allocation
//
// Sending a request on a live connection allocates nothing per request but
// its response (the response frame and the decoded message), plus, for
// Enqueue, the Pending returned to the caller (and its Done channel when
// Done is called before the response). StartCall is Enqueue without the
// Pending: the caller releases its Call after Wait. A request type may also
// avoid the response's allocations: a ProduceRequest decodes into a
// response the caller set (SetResponseInto, reusing its arrays), and a
// response that keeps nothing of its frame (wire.FrameFreeResponder) is
// read into a reused buffer, so the producer's Produce round trips
// allocate nothing; a request that supplies its frame's memory
// (wire.FrameBufferer: the consumer's Fetch, into its record block) has its
// response read there.
//
// # Metrics push (KIP-714)
//
// Like the Java client (enable.metrics.push, default true), a Client
// pushes its metrics to the cluster when the cluster asks for them:
// Config.EnableMetricsPush nil or true is on, a pointer to false is off.
// A broker asks only when it runs a client telemetry receiver (a
// metric.reporters plugin implementing ClientTelemetryExporterProvider);
// without one it does not advertise GetTelemetrySubscriptions and
// PushTelemetry, and the client sends nothing, dials nothing and logs
// nothing for it. With one, the client takes a broker it is already
// connected to, gets its subscription (GetTelemetrySubscriptions: client
// instance id, push interval, metric name prefixes, accepted compression,
// size limit, delta or cumulative counters) and pushes the subscribed
// metrics (PushTelemetry, OTLP protobuf, compressed with the first
// accepted codec) first after a random 0.5–1.5 intervals, then at the
// interval. An operator subscribes clients with kafka-configs
// --entity-type client-metrics (metrics=prefixes, interval.ms). Close
// sends a last, terminating push, waiting for it at most 2s and never past
// its ctx. ClientInstanceID returns the id the broker assigned, as the
// broker reports it. The metric names are KIP-714's standard ones under
// org.apache.kafka.producer. (for a client with a producer) and
// org.apache.kafka.consumer. (for a client that fetches): connection
// creation rate and total and per-node request latency (avg, max), plus
// the consumer's fetch latency (avg, max); those gregor does not measure
// (record queue time, produce throttle time, poll idle ratio, commit and
// rebalance latencies) are not sent.
package client
