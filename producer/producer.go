package producer

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/txnhook"
	"github.com/gregor-kafka/gregor/wire"
)

// kafkaClient is the part of *client.Client the producer uses; tests
// substitute a scripted fake broker.
type kafkaClient interface {
	Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error)
	StartCall(ctx context.Context, broker int32, req wire.Request) (client.Call, error)
	Metadata(ctx context.Context, topics []string) (*client.Metadata, error)
	CachedMetadata() *client.Metadata
	InvalidateMetadata()
	RegisterProducerMetrics(src func(*client.ProducerMetrics)) (unregister func())
}

// Producer is gregor's idempotent, acks=all producer: Send, TrySend and
// Produce hand it records, each reaching exactly one terminal Result;
// Flush waits for them and Close ends the producer. Safe for concurrent
// use.
type Producer struct {
	// Ownership (the database/sql convention): each field says who may
	// touch it. "set by New" fields are read-only afterwards; "mu" fields,
	// and the topicState, partState, batch and waiter values they reach,
	// need p.mu (a batch being encoded excepted: its sender owns it, see
	// batch); "sender" fields are moreover written only by the sender
	// goroutine (run, collect). Methods ending in Locked need p.mu held
	// (INTERNALS.md, section 3).
	cfg   settings           // set by New
	cl    kafkaClient        // set by New
	enc   *wire.BatchEncoder // set by New; used by the sender goroutine only (encode)
	hooks *client.Hooks      // set by New: the client's; nil with a test client
	log   *slog.Logger       // set by New: the client's; nil with a test client (see logger)

	ctx        context.Context    // set by New; cancelled when Close gives up
	stop       context.CancelFunc // set by New
	wake       chan struct{}      // set by New; capacity 1: wakes the sender (wakeup)
	quit       chan struct{}      // set by New; closed by Close to stop the sender
	done       chan struct{}      // set by New; closed when the sender goroutine exits
	unregister func()             // set by New; called once by Close
	// clientDone is the client's Closed channel (nil with a test client
	// without one); the sender goroutine watches it (clientClosed).
	clientDone <-chan struct{} // set by New

	// unregisterParts removes partitionMetrics from the client's snapshot
	// (nil when the client has no per-partition metrics, as a test fake).
	unregisterParts func() // set by New; called once by Close

	mu sync.Mutex // guards the fields below up to m, except where noted

	slab      deliverySlab           // mu: Delivery handles are cut from it
	topics    map[string]*topicState // mu
	lastTopic *topicState            // mu: the last topic admitted to (saves a map lookup)
	parts     []*partState           // mu: every partition with state, for the sender's scan
	free      []*batch               // mu: recycled batches
	pools     batchPools             // mu: recycled batch buffers
	clk       admitClock             // mu (its goroutine: state only): admission time (clock.go)

	activeRecords int       // mu: admitted, not terminal (InFlightRecords)
	activeBytes   int64     // mu: their reserved bytes (RetainedBytes)
	waiting       waitQueue // mu: Send calls waiting for room (FIFO)

	closing, closed bool // mu
	// gone: the client was closed before the producer; every record left
	// has failed or fails as its request completes (clientClosed).
	gone     bool // mu
	flushing int  // mu: Flush calls in progress (linger ignored)

	ident    identity       // mu: producer ID and epoch (KIP-98, KIP-360); deadline: sender
	meta     metaSync       // mu: metadata applied, set aside, being refreshed
	next     time.Time      // mu, sender: when the sender must look again (collect, soon)
	freeReqs []*inflightReq // mu: recycled requests
	// encoding counts the requests collect handed to the sender whose
	// batches send has not encoded yet; with BorrowSlices, Close waits for
	// it to reach 0 (encodedCh) before failing in-flight records, so no
	// caller slice is read after its record is terminal.
	encoding  int           // mu, sender
	encodedCh chan struct{} // mu: made by a waiting Close, closed by send at encoding 0

	// Readiness (ready.go): each broker's queue of partitions with an
	// unsent batch (brokers, in creation order brokerOrder), the
	// partitions the next pass must look at (look), whether it must walk
	// every partition (walk; txnWoken: package txn's Wake, atomic) and
	// when at the latest (walkAt: the earliest delivery deadline or backoff
	// seen); ready is collect's scratch (reused): the brokers to drain.
	brokers     map[int32]*brokerReady // mu
	brokerOrder []*brokerReady         // mu
	look        []*partState           // mu
	walk        bool                   // mu
	walkAt      time.Time              // mu
	txnWoken    atomic.Bool
	ready       []*brokerReady // mu, sender

	inflight      map[int32]int               // mu: outstanding ProduceRequests per broker
	totalInflight int                         // mu
	brokerQ       map[int32]chan *inflightReq // mu: each broker's enqueueLoop input (created by send)

	// Transactional mode (Config.Transactional): txn is the hooks (nil for
	// the idempotent producer); draining is set while FailHeld or Drain
	// fails records (failures of batches handed to a request before, the
	// aborted transaction's, are then not reported through txn.Failed);
	// idle is closed
	// and cleared when the last outstanding ProduceRequest completes.
	txn      *txnhook.Hooks // set by New
	draining bool           // mu
	idle     chan struct{}  // mu

	// held are the batches held for an automatic resolution
	// (Config.ResolvePossiblySent); resolving counts their goroutines.
	held      map[*heldBatch]struct{} // mu
	resolving sync.WaitGroup          // waited for by Close

	m client.ProducerMetrics // mu: counters; gauges are filled on read

	// backlog counts terminals decided but not yet read by the caller
	// (Delivery.Result or Wait): the UnreadResults gauge. Atomic.
	backlog atomic.Int64

	// watch holds the channel of each non-terminal Delivery whose Done was
	// called (rare: most callers poll Result or Wait once terminal).
	// Lock order: mu, then watchMu.
	watchMu sync.Mutex
	watch   map[*Delivery]chan struct{} // watchMu
}

// topicState is a topic's partitions and partitioner state. Guarded by
// Producer.mu.
type topicState struct {
	name       string
	id         wire.UUID    // topic ID from metadata (Produce v13+ names topics by ID)
	parts      []*partState // by partition number (grows as needed)
	numParts   int32        // from metadata; 0 unknown
	avail      []int32      // partitions with a leader
	availRack  []int32      // avail led by a broker in Config.Rack (RackAwarePartitioning)
	sticky     stickyState
	unassigned *batch // records waiting for the topic's metadata
	metaErr    error  // last per-topic metadata error
	// metaErrAt is when metaErr was observed: the Fetched time of the
	// snapshot carrying it, or the failure time of a lookup. A fatal metaErr
	// dooms only batches whose records were all admitted by then; a newer
	// record first needs a fresh lookup (fatalForLocked).
	metaErrAt time.Time
	// unknown counts metadata snapshots in a row, fetched after the topic
	// was first used, that reported it UNKNOWN_TOPIC_OR_PARTITION; 0 once
	// one names it (Config.UnknownTopicRetries). unknownAt is the Fetched
	// time of the last one counted (at first, when the topic was first
	// used): older snapshots are not counted.
	unknown   int
	unknownAt time.Time
}

// partState is one partition's queue and sequence bookkeeping. Guarded by
// Producer.mu.
type partState struct {
	topic     *topicState
	partition int32
	batches   []*batch // unacknowledged, in order; the last may be open
	inflight  int      // batches in outstanding requests
	leader    int32    // -1 unknown

	// Sequence identity in use (adopted from the producer when idle).
	hasID   bool
	pid     int64
	epoch   int16
	nextSeq int32
	// seqID is the topic ID the sequence identity belongs to (zero: not
	// known); another ID means the topic was recreated (restartSequenceLocked).
	seqID wire.UUID
	// confirmed: a batch under the current identity was acknowledged. Until
	// then only one batch is in flight: a broker holding no state for this
	// producer accepts any sequence number (ProducerAppendInfo.checkSequence),
	// so a pipelined second batch could be written before a failed first one.
	confirmed bool
	// byName: the last acknowledgement came from a Produce that names
	// topics (before v13, Kafka 4.0 and earlier), so the partition's log
	// under this name, whichever topic ID it belongs to, holds the
	// sequences (restartSequenceLocked continues them).
	byName bool
	// continued: the sequences continued into a recreated topic's log
	// (byName) and it has acknowledged nothing yet (restartContinuedLocked).
	continued bool

	retry        bool      // a batch must be resent: drain in-flight first, then resend in order
	backoffUntil time.Time // no sends before
	gap          bool      // a sequenced batch failed; reset once earlier ones resolve
	gapSeq       int32
	gapUnknown   bool     // the failed batch may have been written
	listed       bool     // in Producer.parts
	lastRecs     int      // records, stream bytes and compressed bytes of the last
	lastStream   int      // acknowledged batch, to size the next one's buffers
	lastEncoded  int      // (lastEncoded 0: uncompressed or none yet)
	acked        *outcome // the shared part of this partition's acknowledgements
	// ackedEnd is the offset after the last record acknowledged here (0:
	// none): where Resolve starts reading for a batch sent after it.
	ackedEnd int64
	// producedRecords and producedBytes count the records and encoded
	// batch bytes acknowledged here (client.PartitionMetrics).
	producedRecords, producedBytes uint64

	// Readiness (ready.go): the broker queue part is in (nil: none), its
	// neighbours there and when it joined; looking: it is in Producer.look.
	qb           *brokerReady
	qPrev, qNext *partState
	waitSince    time.Time
	looking      bool
}

// New returns a producer sending through c. It validates cfg (errors wrap
// ErrConfig) and starts the producer's sender goroutine; it does no I/O
// until the first record. Close stops it; the client stays the caller's.
func New(c *client.Client, cfg Config) (*Producer, error) {
	if c == nil {
		return nil, configError("nil client")
	}
	return newProducer(c, cfg)
}

func newProducer(c kafkaClient, cfg Config) (*Producer, error) {
	p, err := buildProducer(c, cfg)
	if err != nil {
		return nil, err
	}
	if hc, ok := c.(interface{ Hooks() *client.Hooks }); ok {
		p.hooks = hc.Hooks()
	}
	if lc, ok := c.(interface{ Logger() *slog.Logger }); ok {
		p.log = lc.Logger()
	}
	if cc, ok := c.(interface{ Closed() <-chan struct{} }); ok {
		p.clientDone = cc.Closed()
	}
	p.unregister = c.RegisterProducerMetrics(p.fillMetrics)
	if rc, ok := c.(interface {
		RegisterPartitionMetrics(func([]client.PartitionMetrics) []client.PartitionMetrics) func()
	}); ok {
		p.unregisterParts = rc.RegisterPartitionMetrics(p.partitionMetrics)
	}
	go p.run()
	return p, nil
}

// buildProducer validates cfg and builds a producer without starting it.
func buildProducer(c kafkaClient, cfg Config) (*Producer, error) {
	s, err := validate(cfg)
	if err != nil {
		return nil, err
	}
	var levels wire.CompressionLevels
	switch s.Compression {
	case wire.CompressionGzip:
		levels.Gzip = s.CompressionLevel
	case wire.CompressionLZ4:
		levels.LZ4 = s.CompressionLevel
	case wire.CompressionZstd:
		levels.Zstd = s.CompressionLevel
	}
	comp, err := wire.NewCompressor(levels)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	p := &Producer{
		cfg:      s,
		cl:       c,
		enc:      wire.NewBatchEncoder(comp),
		wake:     make(chan struct{}, 1),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
		topics:   make(map[string]*topicState),
		inflight: make(map[int32]int),
		brokers:  make(map[int32]*brokerReady),
		brokerQ:  make(map[int32]chan *inflightReq),
	}
	p.ctx, p.stop = context.WithCancel(context.Background())
	p.clk.init(nil, nil, nil)
	if h := cfg.Transactional; h != nil {
		p.txn = h
		h.SetIdentity = p.setIdentity
		h.Wake = p.txnWake
		h.FailHeld = p.failHeld
		h.Drain = p.drain
	}
	p.pools.bytes = slicePool[byte]{maxBytes: s.RetainedBytes, elemSize: 1, noClear: true}
	p.pools.runningCRC = s.Compression == wire.CompressionNone
	p.pools.streams = streamPool{comp: comp, codec: s.Compression, on: wire.StreamSupported(s.Compression)}
	// Record tables start at recTableMin entries: with thousands of
	// partitions a batch holds a few records, and 64-entry tables (1.5 KiB
	// each, 20,000 alive at 4,096 partitions) overflowed the pool's bound.
	p.pools.recs = slicePool[rec]{maxBytes: s.RetainedBytes / 4, elemSize: int64(unsafe.Sizeof(rec{})), minElems: recTableMin}
	p.pools.borrow = s.BorrowSlices
	if s.BorrowSlices {
		p.pools.refs = slicePool[recRef]{maxBytes: s.RetainedBytes / 4, elemSize: int64(unsafe.Sizeof(recRef{})), minElems: recTableMin}
	}
	return p, nil
}

// wakeup nudges the sender goroutine without blocking.
func (p *Producer) wakeup() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// topicLocked returns the state of a topic, creating it.
func (p *Producer) topicLocked(name string) *topicState {
	if t := p.lastTopic; t != nil && t.name == name {
		return t
	}
	t := p.topics[name]
	if t == nil {
		t = &topicState{name: name, sticky: stickyState{partition: -1}, unknownAt: time.Now()}
		p.topics[name] = t
		if p.meta.last != nil {
			// A topic first used after the last metadata sync takes what
			// that snapshot says of it at once (as part does for leaders).
			p.applyTopicLocked(t, p.meta.last)
		}
	}
	p.lastTopic = t
	return t
}

// partLocked returns the state of a partition, creating it.
func (p *Producer) partLocked(t *topicState, partition int32) *partState {
	if int(partition) >= len(t.parts) {
		// To the topic's partition count at once: growing one partition at
		// a time copied the table for each, O(partitions²) over a topic.
		n := make([]*partState, max(partition+1, t.numParts))
		copy(n, t.parts)
		t.parts = n
	}
	ps := t.parts[partition]
	if ps == nil {
		// A partition first used after the last metadata sync takes its
		// leader from that snapshot at once.
		ps = &partState{topic: t, partition: partition, leader: -1}
		if p.meta.last != nil {
			ps.leader = leaderIn(p.meta.last.Topics[t.name], partition)
		}
		t.parts[partition] = ps
	}
	if !ps.listed {
		ps.listed = true
		p.parts = append(p.parts, ps)
	}
	return ps
}

func (p *Producer) newBatchLocked(t *topicState, part *partState, now time.Time) *batch {
	var b *batch
	if n := len(p.free); n > 0 {
		b = p.free[n-1]
		p.free = p.free[:n-1]
	} else {
		b = &batch{}
	}
	b.topic = t
	b.part = part
	b.created = now
	b.deadline = now.Add(p.cfg.DeliveryTimeout)
	b.unknownBase = t.unknown
	if part != nil && b.deadline.Before(p.walkAt) {
		p.walkAt = b.deadline
	}
	return b
}

// recTableMin is the smallest record table (and reference table) a batch
// gets from the pools.
const recTableMin = 8

func (p *Producer) recycleLocked(b *batch) {
	b.reset(&p.pools)
	// Kept up to a bound on the batches a steady producer has alive: one
	// open and one per request in flight, for every partition (sealed
	// batches queued behind them can be more; those are not kept).
	if len(p.free) < max(256, len(p.parts)*(p.cfg.MaxInFlightPerBroker+1)) {
		p.free = append(p.free, b)
	}
}

// openBatchLocked returns the partition's open batch with room for a record of
// size bytes, sealing a full one and opening a new one as needed.
func (p *Producer) openBatchLocked(part *partState, size int, now time.Time) *batch {
	if n := len(part.batches); n > 0 {
		b := part.batches[n-1]
		if b.phase == batchOpen {
			if len(b.recs) < p.cfg.BatchMaxRecords && (b.est+size <= p.cfg.BatchMaxBytes || len(b.recs) == 0) && p.pinAllowsLocked(b) {
				return b
			}
			b.seal()
			p.lookAtLocked(part)
			p.wakeup()
		}
	}
	b := p.newBatchLocked(part.topic, part, now)
	b.pinID = p.pinForLocked(part.topic)
	// Start with room for a full batch when the pool holds such buffers
	// (no new memory), else for as much as the last acknowledged batch
	// needed: regrowing the stream record by record copies it each time.
	wantStream := p.cfg.BatchMaxBytes + batchOverhead + 2*recordOverhead
	wantRecs := min(p.cfg.BatchMaxRecords, p.cfg.BatchMaxBytes/max(size, 1)+1)
	b.recs = p.pools.recs.getUpTo(part.lastRecs, wantRecs)
	if p.pools.borrow {
		// References until the batch is sent (reserve takes its stream then);
		// no lz4 streaming: encoding when sent already reads warm bytes.
		b.refs = p.pools.refs.getUpTo(part.lastRecs, wantRecs)
	} else if streamWorthIt(part, size) && b.startStream(&p.pools, part, wantStream) {
		// The stream holds the chunk being filled and the record that
		// completes it.
		b.stream = p.pools.bytes.get(batchOverhead + wire.StreamChunk + size + 32)
	} else {
		b.stream = p.pools.bytes.getUpTo(max(part.lastStream, batchOverhead+size+32), wantStream)
	}
	part.batches = append(part.batches, b)
	p.requeueLocked(part, false)
	// Wake the sender only when this batch is due before its next look:
	// with many partitions most new batches linger behind an older one.
	if part.qb == nil || part.qb.id < 0 || b.deadline.Before(p.next) || !b.created.Add(p.cfg.linger).After(p.next) ||
		p.flushing > 0 || p.closing {
		p.lookAtLocked(part)
		p.wakeup()
	}
	return b
}

// txnWake implements txnhook.Hooks.Wake: the next pass walks every
// partition (MaySend may have changed for any).
func (p *Producer) txnWake() {
	p.txnWoken.Store(true)
	p.wakeup()
}

// pinForLocked is the topic ID a new batch of t is pinned to: its current ID
// with Config.PinTopicIDs, else none.
func (p *Producer) pinForLocked(t *topicState) wire.UUID {
	if !p.cfg.PinTopicIDs {
		return wire.UUID{}
	}
	return t.id
}

// pinAllowsLocked reports whether open batch b may take another record: it is
// not pinned to a topic ID other than the topic's current one. A batch
// opened before the topic's ID was known is pinned when it is next
// considered for sending (pinUnpinnedLocked).
func (p *Producer) pinAllowsLocked(b *batch) bool {
	return b.pinID == (wire.UUID{}) || b.pinID == p.pinForLocked(b.topic)
}

// pinUnpinnedLocked pins b to its topic's ID once metadata shows one (records for
// an explicit partition join a batch before the topic's metadata is known).
func (p *Producer) pinUnpinnedLocked(b *batch) {
	if b.pinID == (wire.UUID{}) {
		b.pinID = p.pinForLocked(b.topic)
	}
}

// idChanged returns ErrTopicIDChanged (naming both IDs) when b is pinned to
// a topic ID that metadata no longer shows for its topic. Metadata without
// an ID for the topic (it is being recreated, or the brokers predate topic
// IDs) changes nothing.
func idChanged(b *batch) error {
	if b.pinID == (wire.UUID{}) || b.topic.id == (wire.UUID{}) || b.topic.id == b.pinID {
		return nil
	}
	return fmt.Errorf("%w: %s was %v, now %v", ErrTopicIDChanged, b.topic.name, b.pinID, b.topic.id)
}

// fullLocked reports whether an open batch should be sent without lingering.
func (p *Producer) fullLocked(b *batch) bool {
	return len(b.recs) >= p.cfg.BatchMaxRecords || b.est >= p.cfg.BatchMaxBytes
}
