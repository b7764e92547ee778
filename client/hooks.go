package client

import (
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// Hook is any value given in Config.Hooks. A hook implements one or more of
// the Hook* interfaces below (ConnOpenedHook, RequestWrittenHook, ...); the
// client finds them by type assertion once, in New, so a hook implements only
// what it needs and a client without hooks pays nothing for them.
//
// Contract: hooks are called synchronously from the client's goroutines (the
// connection's writer path and reader, the producer's sender, the consumer's
// fetchers), often while the next request waits. A hook must return quickly
// (record a counter, append to a buffer, hand off to a channel that never
// blocks), must not call back into the client, and must be safe for
// concurrent use. The event values passed are copies; slices in them (none
// today) would be valid only during the call.
type Hook any

// ConnEvent describes a broker connection (ConnOpenedHook, ConnClosedHook).
type ConnEvent struct {
	// Addr is the "host:port" dialed; Broker its node ID (-1 for a
	// bootstrap address); Lane the workload lane it serves.
	Addr   string
	Broker int32
	Lane   Lane
	// Dur is, for an opened connection, the time to connect, negotiate and
	// authenticate; for a closed one, how long it was open (0 when it never
	// finished negotiation), counted from the socket's connect.
	Dur time.Duration
	// Err is why the connection failed to open or was closed (nil for an
	// opened connection). Errors never carry credentials.
	Err error
}

// ConnOpenedHook is called when a connection finished negotiation and
// authentication, or failed to (Err set).
type ConnOpenedHook interface {
	OnConnOpened(ConnEvent)
}

// ConnClosedHook is called once when an opened connection is closed, by the
// client (idle, Close) or by a failure (Err).
type ConnClosedHook interface {
	OnConnClosed(ConnEvent)
}

// RequestEvent describes one request on a connection (RequestWrittenHook,
// ResponseReadHook).
type RequestEvent struct {
	Broker  int32
	Lane    Lane
	Key     wire.APIKey
	Version int16
	// Bytes is the size of the frame written or read, its 4-byte size
	// prefix included (0 when a write failed before any byte left).
	Bytes int
	// Latency is, for a response, the time from the request's write to its
	// response being read; for a written request, how long writing the
	// frame to the socket took.
	Latency time.Duration
	// Err is the failure of the write, or of the read or decode of the
	// response; nil on success.
	Err error
}

// RequestWrittenHook is called after a request frame was written (or its
// write failed) on a connection. Connection-setup requests (ApiVersions,
// SASL) are included.
type RequestWrittenHook interface {
	OnRequestWritten(RequestEvent)
}

// ResponseReadHook is called after a response frame was read and decoded
// (Err set when decoding failed). Requests failed by a closing connection
// get no call; ConnClosedHook reports that.
type ResponseReadHook interface {
	OnResponseRead(RequestEvent)
}

// ThrottleHook is called when a response carries a nonzero throttle time
// (throttle_time_ms): the broker throttled the client for Throttle.
type ThrottleHook interface {
	OnThrottle(broker int32, key wire.APIKey, throttle time.Duration)
}

// BatchEvent describes record batches of a partition, produced or fetched
// (ProduceBatchWrittenHook, ProduceBatchAckedHook, FetchBatchHook).
type BatchEvent struct {
	Topic     string
	Partition int32
	Broker    int32
	// Records and Bytes are the batch's record count and encoded size.
	Records int
	Bytes   int
	// BaseOffset is the batch's first offset (-1 when unknown: not yet
	// acknowledged, or failed).
	BaseOffset int64
	// HighWatermark is the partition's high watermark the Fetch response
	// reported (FetchBatchHook of a Fetch; -1 otherwise): the consumer's
	// lag is HighWatermark minus the offset after the batch's last record.
	HighWatermark int64
	// LastOffset is the offset of the batch's last record (FetchBatchHook;
	// -1 otherwise).
	LastOffset int64
	// Err is the batch's failure (ProduceBatchAckedHook), nil on success;
	// Certainty then says whether its records may have been written.
	Err       error
	Certainty Certainty
}

// ProduceBatchWrittenHook is called when the producer wrote a batch in a
// Produce request.
type ProduceBatchWrittenHook interface {
	OnProduceBatchWritten(BatchEvent)
}

// ProduceBatchAckedHook is called when a produced batch reached its outcome:
// acknowledged (Err nil, BaseOffset set) or failed for good (Err, Certainty).
type ProduceBatchAckedHook interface {
	OnProduceBatchAcked(BatchEvent)
}

// FetchBatchHook is called for each partition's records a consumer
// (assigned, group or share) received in a Fetch or ShareFetch response:
// Records counts the records delivered (after filtering), Bytes the bytes
// charged for them (compressed batches plus decompressed records),
// BaseOffset is the first record's offset.
type FetchBatchHook interface {
	OnFetchBatch(BatchEvent)
}

// RecordEvent is the outcome of one produced record (RecordOutcomeHook).
type RecordEvent struct {
	Topic     string
	Partition int32
	// Offset is the record's offset, -1 when it failed.
	Offset int64
	// Err is nil for a delivered record; otherwise Certainty says whether
	// the record may have been written (NotSent: it was not).
	Err       error
	Certainty Certainty
}

// RecordOutcomeHook is called once per produced record when its outcome is
// known (delivered or failed). It runs before the record's Delivery is
// resolved.
type RecordOutcomeHook interface {
	OnRecordOutcome(RecordEvent)
}

// TopicPartitions maps a topic to partitions.
type TopicPartitions map[string][]int32

// AssignmentChange is a group member's assignment change (AssignmentHook):
// partitions Assigned, or Revoked (in a rebalance, or Lost: without one,
// after the member was fenced or its session expired). The map is the
// hook's to keep.
type AssignmentChange struct {
	Group    string
	MemberID string
	// Generation is the group generation (classic) or member epoch
	// (KIP-848, share groups) the change belongs to.
	Generation int32
	Assigned   bool // true: Partitions were assigned; false: revoked
	Lost       bool // revoked without a rebalance
	Partitions TopicPartitions
}

// AssignmentHook is called when a consumer group or share group member's
// assignment changes.
type AssignmentHook interface {
	OnAssignment(AssignmentChange)
}

// TxnEvent is a transaction's outcome (TxnOutcomeHook).
type TxnEvent struct {
	TransactionalID string
	ProducerID      int64
	ProducerEpoch   int16
	// Committed is true for a commit, false for an abort.
	Committed bool
	// Err is nil when the outcome took effect; otherwise the failure that
	// ended the attempt: for a commit, an error of txn's classes
	// (ErrAbortable: abort next; ErrFenced/ErrFatal; for a commit whose
	// EndTxn was retried in the background after Commit returned
	// ErrCommitOutcomeUnknown, the reason it did not commit), for an abort,
	// a fatal one or one matching ErrNeedsInit (its end could not complete).
	Err error
}

// TxnOutcomeHook is called by package txn once per Commit or Abort (Close
// aborting an open transaction included) that reached an outcome: the
// transaction ended, or failed in a way retrying the same call cannot
// cure. A call that fails only because its context ended is not reported
// then: a transaction still open is not, and an abort or commit that goes
// on in the background is reported when it ends.
type TxnOutcomeHook interface {
	OnTxnOutcome(TxnEvent)
}

// Hooks holds a client's hooks grouped by interface. Packages built on a
// client (producer, consumer) call them through Client.Hooks; every method
// is a no-op costing a length check when no hook of its kind is registered.
// A nil *Hooks has no hooks.
type Hooks struct {
	connOpened     []ConnOpenedHook
	connClosed     []ConnClosedHook
	reqWritten     []RequestWrittenHook
	respRead       []ResponseReadHook
	throttle       []ThrottleHook
	batchWritten   []ProduceBatchWrittenHook
	batchAcked     []ProduceBatchAckedHook
	fetchBatch     []FetchBatchHook
	recordOutcome  []RecordOutcomeHook
	assignment     []AssignmentHook
	txnOutcome     []TxnOutcomeHook
	requestAny     bool // reqWritten, respRead or throttle non-empty
	hasAnyProduced bool // batchWritten, batchAcked or recordOutcome non-empty
}

// newHooks sorts hs by the interfaces each implements.
func newHooks(hs []Hook) *Hooks {
	h := &Hooks{}
	for _, x := range hs {
		if v, ok := x.(ConnOpenedHook); ok {
			h.connOpened = append(h.connOpened, v)
		}
		if v, ok := x.(ConnClosedHook); ok {
			h.connClosed = append(h.connClosed, v)
		}
		if v, ok := x.(RequestWrittenHook); ok {
			h.reqWritten = append(h.reqWritten, v)
		}
		if v, ok := x.(ResponseReadHook); ok {
			h.respRead = append(h.respRead, v)
		}
		if v, ok := x.(ThrottleHook); ok {
			h.throttle = append(h.throttle, v)
		}
		if v, ok := x.(ProduceBatchWrittenHook); ok {
			h.batchWritten = append(h.batchWritten, v)
		}
		if v, ok := x.(ProduceBatchAckedHook); ok {
			h.batchAcked = append(h.batchAcked, v)
		}
		if v, ok := x.(FetchBatchHook); ok {
			h.fetchBatch = append(h.fetchBatch, v)
		}
		if v, ok := x.(RecordOutcomeHook); ok {
			h.recordOutcome = append(h.recordOutcome, v)
		}
		if v, ok := x.(AssignmentHook); ok {
			h.assignment = append(h.assignment, v)
		}
		if v, ok := x.(TxnOutcomeHook); ok {
			h.txnOutcome = append(h.txnOutcome, v)
		}
	}
	h.requestAny = len(h.reqWritten)+len(h.respRead)+len(h.throttle) > 0
	h.hasAnyProduced = len(h.batchWritten)+len(h.batchAcked)+len(h.recordOutcome) > 0
	return h
}

// Hooks returns the client's hooks (never nil), for the packages built on
// it to report their events.
func (c *Client) Hooks() *Hooks { return c.hooks }

// Produce reports whether any produce hook (batch written, batch acked,
// record outcome) is registered, so a caller can skip building events.
func (h *Hooks) Produce() bool { return h != nil && h.hasAnyProduced }

// Fetch reports whether any FetchBatchHook is registered.
func (h *Hooks) Fetch() bool { return h != nil && len(h.fetchBatch) > 0 }

// Assignments reports whether any AssignmentHook is registered.
func (h *Hooks) Assignments() bool { return h != nil && len(h.assignment) > 0 }

// ConnOpened calls every ConnOpenedHook.
func (h *Hooks) ConnOpened(ev ConnEvent) {
	if h == nil {
		return
	}
	for _, x := range h.connOpened {
		x.OnConnOpened(ev)
	}
}

// ConnClosed calls every ConnClosedHook.
func (h *Hooks) ConnClosed(ev ConnEvent) {
	if h == nil {
		return
	}
	for _, x := range h.connClosed {
		x.OnConnClosed(ev)
	}
}

// RequestWritten calls every RequestWrittenHook.
func (h *Hooks) RequestWritten(ev RequestEvent) {
	if h == nil {
		return
	}
	for _, x := range h.reqWritten {
		x.OnRequestWritten(ev)
	}
}

// ResponseRead calls every ResponseReadHook.
func (h *Hooks) ResponseRead(ev RequestEvent) {
	if h == nil {
		return
	}
	for _, x := range h.respRead {
		x.OnResponseRead(ev)
	}
}

// Throttle calls every ThrottleHook.
func (h *Hooks) Throttle(broker int32, key wire.APIKey, d time.Duration) {
	if h == nil {
		return
	}
	for _, x := range h.throttle {
		x.OnThrottle(broker, key, d)
	}
}

// ProduceBatchWritten calls every ProduceBatchWrittenHook.
func (h *Hooks) ProduceBatchWritten(ev BatchEvent) {
	if h == nil {
		return
	}
	for _, x := range h.batchWritten {
		x.OnProduceBatchWritten(ev)
	}
}

// ProduceBatchAcked calls every ProduceBatchAckedHook.
func (h *Hooks) ProduceBatchAcked(ev BatchEvent) {
	if h == nil {
		return
	}
	for _, x := range h.batchAcked {
		x.OnProduceBatchAcked(ev)
	}
}

// FetchBatch calls every FetchBatchHook.
func (h *Hooks) FetchBatch(ev BatchEvent) {
	if h == nil {
		return
	}
	for _, x := range h.fetchBatch {
		x.OnFetchBatch(ev)
	}
}

// RecordOutcome calls every RecordOutcomeHook.
func (h *Hooks) RecordOutcome(ev RecordEvent) {
	if h == nil {
		return
	}
	for _, x := range h.recordOutcome {
		x.OnRecordOutcome(ev)
	}
}

// Assignment calls every AssignmentHook.
func (h *Hooks) Assignment(ev AssignmentChange) {
	if h == nil {
		return
	}
	for _, x := range h.assignment {
		x.OnAssignment(ev)
	}
}

// TxnOutcome calls every TxnOutcomeHook.
func (h *Hooks) TxnOutcome(ev TxnEvent) {
	if h == nil {
		return
	}
	for _, x := range h.txnOutcome {
		x.OnTxnOutcome(ev)
	}
}
