package share

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
)

// ErrClosed: the Consumer was closed. errors.Is(ErrClosed,
// client.ErrClosed) holds.
var ErrClosed error = closedError("share: consumer closed")

// errClientClosed: Receive found the client closed before the Consumer; it
// matches ErrClosed and client.ErrClosed.
var errClientClosed = fmt.Errorf("%w: the client was closed first", ErrClosed)

// closedError is a closed error of this package that also matches
// client.ErrClosed.
type closedError string

func (e closedError) Error() string        { return string(e) }
func (e closedError) Is(target error) bool { return target == client.ErrClosed }

// ErrNotDelivered: Acknowledge named a record this consumer does not hold
// as delivered (never delivered, already acknowledged, or delivered again
// since).
var ErrNotDelivered = errors.New("share: record not held as delivered")

// Record is one delivered record with the broker's delivery count (1 on the
// first delivery, higher after a release or an expired lock).
type Record struct {
	consumer.Record
	// DeliveryCount is how many times the record has been delivered,
	// this delivery included.
	DeliveryCount int16
}

// AckResult is the outcome of one record's acknowledgement.
type AckResult struct {
	// TopicPartition and Offset name the record.
	gregor.TopicPartition
	Offset int64
	// Type is how the record was acknowledged.
	Type AcknowledgeType
	// Err is nil when the broker applied the acknowledgement; otherwise
	// the broker's per-partition code (*wire.KafkaError, e.g.
	// wire.ErrInvalidRecordState when the lock had expired) or the
	// client's failure; client.CertaintyOf(Err) says whether the request
	// may have reached the broker.
	Err error
}

// Consumer is a share-group member. Its methods are safe for concurrent use
// and run one at a time (a Receive long-polling for MaxWait delays others).
type Consumer struct {
	t        transport
	cfg      Config
	hooks    *client.Hooks // the client's; nil with a test transport
	memberID string
	dec      *wire.Decompressor // shared by every decode (safe for concurrent use)

	mu sync.Mutex // guards the membership fields below
	// memberEpoch is the epoch of the last heartbeat response (heartbeat goroutine writes).
	memberEpoch int32
	// assigned are the assigned partitions (heartbeat goroutine writes).
	assigned map[gregor.TopicPartition]struct{}
	// topicIDs maps subscribed topic names to IDs (heartbeat goroutine writes).
	topicIDs map[string]wire.UUID
	// assignChanged is closed and replaced when assigned changes.
	assignChanged chan struct{}
	// fatal is a heartbeat error that ends membership.
	fatal error
	// joined is closed by the heartbeat goroutine at the first successful
	// heartbeat, or when membership fails (fatal set).
	joined   chan struct{}
	joinOnce sync.Once

	hbCancel context.CancelFunc
	hbDone   chan struct{}
	// clientDone is the client's Closed channel (nil with a test
	// transport): Receive ends at once when the client is closed first.
	clientDone <-chan struct{}
	// unresolved is the last assignment with a topic ID metadata could
	// not name (heartbeat goroutine only).
	unresolved *wire.ShareGroupHeartbeatAssignment

	// closing is closed when Close is called, before Close takes opMu:
	// a Receive holding opMu sees it and returns ErrClosed (closeOnce
	// closes it once).
	closing   chan struct{}
	closeOnce sync.Once

	opMu sync.Mutex // serializes Receive, Acknowledge, Commit, Close; guards the fields below
	// closed is set by Close.
	closed bool
	// sessions are the share sessions by broker.
	sessions map[int32]*session
	// held are the acquired records by partition and offset (a
	// partition's map is kept when it empties, so refilling it allocates
	// nothing).
	held map[gregor.TopicPartition]map[int64]heldRecord
	// buffered are acquired records not yet delivered, in arrival order:
	// the rest of cur's records.
	buffered []Record
	// cur is the block buffered is cut from (nil when nothing is
	// buffered).
	cur *recBlock
	// bufferedBytes counts key, value and header bytes of buffered.
	bufferedBytes int
	// pending are acknowledgements not yet sent; sending are those the
	// ShareFetch requests in flight carry (planLocked swaps the two, so
	// their memory is reused).
	pending, sending []ack
	// results are acknowledgement outcomes not yet taken, at most
	// cfg.MaxAckResults, and the count of those not kept.
	results ackResults
	// br and batch are the record-batch decoder and its reused batch;
	// decoded holds one partition's decoded records (reused), inflated the
	// bytes decompressed in the current fetch round.
	br       *wire.BatchReader
	batch    wire.RecordBatch
	decoded  []consumer.Record
	inflated int

	// pool keeps the memory of delivered records for reuse (Recycle).
	pool recPool
}

// heldRecord is one acquired record.
type heldRecord struct {
	node          int32 // broker whose share session acquired it
	deliveryCount int16
	delivered     bool // returned by Receive
	acked         bool // an acknowledgement is pending or in flight
}

// ack is one acknowledgement to send.
type ack struct {
	tp     gregor.TopicPartition
	offset int64
	node   int32
	typ    int8
	report bool // false for gaps and releases the consumer makes itself
}

// New returns a share Consumer of cfg.GroupID subscribed to cfg.Topics and
// starts its membership (ShareGroupHeartbeat) in the background. It fails
// with an error wrapping ErrInvalidConfig for a bad cfg.
func New(cl *client.Client, cfg Config) (*Consumer, error) {
	return newConsumer(wireTransport{cl}, cfg)
}

func newConsumer(t transport, cfg Config) (*Consumer, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, err
	}
	c := &Consumer{
		t:             t,
		cfg:           cfg,
		memberID:      base64.RawURLEncoding.EncodeToString(id[:]),
		dec:           wire.NewDecompressor(0),
		assigned:      map[gregor.TopicPartition]struct{}{},
		assignChanged: make(chan struct{}),
		sessions:      map[int32]*session{},
		held:          map[gregor.TopicPartition]map[int64]heldRecord{},
		hbDone:        make(chan struct{}),
		joined:        make(chan struct{}),
		closing:       make(chan struct{}),
	}
	c.pool.maxArena = cfg.MaxBufferedBytes
	if w, ok := t.(wireTransport); ok {
		c.hooks = w.cl.Hooks()
		c.clientDone = w.cl.Closed()
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.hbCancel = cancel
	go c.heartbeatLoop(ctx)
	return c, nil
}

// MemberID returns the member ID this consumer generated (KIP-932 members
// name themselves).
func (c *Consumer) MemberID() string { return c.memberID }

// MemberEpoch returns the member epoch of the last heartbeat response, 0
// before the first.
func (c *Consumer) MemberEpoch() int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.memberEpoch
}

// Assignment returns the partitions currently assigned to this member.
func (c *Consumer) Assignment() []gregor.TopicPartition {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]gregor.TopicPartition, 0, len(c.assigned))
	for tp := range c.assigned {
		out = append(out, tp)
	}
	return out
}

// AwaitJoined waits until the coordinator has answered the member's join
// (a member epoch above 0), and returns a fatal membership error (e.g.
// GROUP_AUTHORIZATION_FAILED; one matching gregor.ErrUnsupportedFeature,
// at once, when the cluster has no share groups) or ctx's error.
func (c *Consumer) AwaitJoined(ctx context.Context) error {
	select {
	case <-c.joined:
	case <-ctx.Done():
		return ctxErr(ctx)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fatal
}

// markJoined closes joined once.
func (c *Consumer) markJoined() { c.joinOnce.Do(func() { close(c.joined) }) }

// TakeAckResults returns, and forgets, the outcomes of acknowledgements sent
// so far (piggy-backed on ShareFetch or sent by Commit) not yet returned.
func (c *Consumer) TakeAckResults() []AckResult {
	c.opMu.Lock()
	defer c.opMu.Unlock()
	return c.results.take()
}

// AckResultsDropped returns how many acknowledgement outcomes were not
// kept because MaxAckResults outcomes were waiting to be taken.
func (c *Consumer) AckResultsDropped() int64 {
	c.opMu.Lock()
	defer c.opMu.Unlock()
	return c.results.dropped
}

// AppendAckResults appends the outcomes TakeAckResults would return to dst,
// forgets them and returns the extended slice: with a dst reused across
// calls, taking results allocates nothing.
func (c *Consumer) AppendAckResults(dst []AckResult) []AckResult {
	c.opMu.Lock()
	defer c.opMu.Unlock()
	return c.results.appendTo(dst)
}
