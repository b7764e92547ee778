package producer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// kafkaClient is the part of *client.Client the producer uses; tests
// substitute a scripted fake broker.
type kafkaClient interface {
	Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error)
	Enqueue(ctx context.Context, broker int32, req wire.Request) (client.Pending, error)
	Metadata(ctx context.Context, topics []string) (*client.Metadata, error)
	CachedMetadata() *client.Metadata
	InvalidateMetadata()
	RegisterProducerMetrics(src func(*client.ProducerMetrics)) (unregister func())
}

// Message is a record offered to the producer. The producer copies Key,
// Value and Headers at admission; the caller may reuse them once TrySend or
// Send returns.
type Message struct {
	// Topic is the destination topic. Required.
	Topic string
	// Partition is an explicit partition, or -1 to let the partitioner pick:
	// murmur2 of a non-nil Key (Java-compatible), uniform sticky (KIP-794)
	// for a nil Key.
	Partition int32
	// Key and Value: nil is null, distinct from empty.
	Key, Value []byte
	// Headers are kept in order, duplicates included.
	Headers []wire.Header
	// Timestamp is the record's create time; zero means time of admission.
	Timestamp time.Time
}

// Producer is gregor's idempotent, acks=all producer. Safe for concurrent use.
type Producer struct {
	cfg settings
	cl  kafkaClient
	enc *wire.BatchEncoder

	ctx  context.Context // cancelled when Close gives up
	stop context.CancelFunc
	wake chan struct{}
	quit chan struct{}
	done chan struct{} // closed when the sender goroutine exits

	unregister func()

	mu        sync.Mutex
	slab      deliverySlab
	topics    map[string]*topicState
	lastTopic *topicState  // the last topic admitted to (saves a map lookup)
	parts     []*partState // every partition with state, for the sender's scan
	free      []*batch
	pools     batchPools
	sc        encodeScratch // sender goroutine only

	activeRecords int
	activeBytes   int64
	waiters       []*waiter
	waitHead      int
	waitingBytes  int64

	closing, closed bool
	flushing        int

	// Producer identity (KIP-98) and local epoch bumps (KIP-360).
	haveID      bool
	pid         int64
	epoch       int16
	idErr       error
	idBackoff   time.Time
	idDeadline  time.Time // earliest deadline of a batch waiting for an ID (sender goroutine)
	metaFetch   bool
	metaBackoff time.Time
	lastMeta    *client.Metadata
	staleMeta   *client.Metadata // snapshot invalidated by a broker error; not applied again

	inflight      map[int32]int // outstanding ProduceRequests per broker
	totalInflight int
	brokerQ       map[int32]chan *inflightReq

	m client.ProducerMetrics // counters; gauges are filled on read

	clockBase time.Time // see now
}

// now returns the current time for admission. It reads only the monotonic
// clock (time.Since) and derives the wall time from a base taken with
// time.Now at most a second earlier, which halves the clock cost of a
// record; the base is refreshed every second so wall-clock adjustments
// show up within a second. Called with p.mu held.
func (p *Producer) now() time.Time {
	el := time.Since(p.clockBase)
	if el >= time.Second || el < 0 || p.clockBase.IsZero() {
		p.clockBase = time.Now()
		return p.clockBase
	}
	return p.clockBase.Add(el)
}

// topicState is a topic's partitions and partitioner state.
type topicState struct {
	name       string
	id         wire.UUID    // topic ID from metadata (Produce v13+ names topics by ID)
	parts      []*partState // by partition number (grows as needed)
	numParts   int32        // from metadata; 0 unknown
	avail      []int32      // partitions with a leader
	sticky     stickyState
	unassigned *batch // records waiting for the topic's metadata
	metaErr    error  // last per-topic metadata error
}

// partState is one partition's queue and sequence bookkeeping.
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
	// confirmed: a batch under the current identity was acknowledged. Until
	// then only one batch is in flight: a broker holding no state for this
	// producer accepts any sequence number (ProducerAppendInfo.checkSequence),
	// so a pipelined second batch could be written before a failed first one.
	confirmed bool

	retry        bool      // a batch must be resent: drain in-flight first, then resend in order
	backoffUntil time.Time // no sends before
	gap          bool      // a sequenced batch failed; reset once earlier ones resolve
	gapSeq       int32
	gapUnknown   bool // the failed batch may have been written
	listed       bool // in Producer.parts
	lastRecs     int  // records of the last acknowledged batch, to size the next one's tables
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
	p.unregister = c.RegisterProducerMetrics(p.fillMetrics)
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
		brokerQ:  make(map[int32]chan *inflightReq),
	}
	p.ctx, p.stop = context.WithCancel(context.Background())
	p.pools.bytes = slicePool[byte]{maxBytes: s.RetainedBytes, elemSize: 1, noClear: true}
	p.pools.recs = slicePool[rec]{maxBytes: s.RetainedBytes / 4, elemSize: int64(unsafe.Sizeof(rec{}))}
	p.pools.wrecs = slicePool[wire.Record]{maxBytes: s.RetainedBytes / 4, elemSize: int64(unsafe.Sizeof(wire.Record{}))}
	p.pools.hdrs = slicePool[wire.Header]{maxBytes: s.RetainedBytes / 8, elemSize: int64(unsafe.Sizeof(wire.Header{}))}
	return p, nil
}

// wakeup nudges the sender goroutine without blocking.
func (p *Producer) wakeup() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// topic returns the state of a topic, creating it.
func (p *Producer) topic(name string) *topicState {
	if t := p.lastTopic; t != nil && t.name == name {
		return t
	}
	t := p.topics[name]
	if t == nil {
		t = &topicState{name: name, sticky: stickyState{partition: -1}}
		p.topics[name] = t
	}
	p.lastTopic = t
	return t
}

// part returns the state of a partition, creating it.
func (p *Producer) part(t *topicState, partition int32) *partState {
	if int(partition) >= len(t.parts) {
		n := make([]*partState, partition+1)
		copy(n, t.parts)
		t.parts = n
	}
	ps := t.parts[partition]
	if ps == nil {
		// A partition first used after the last metadata sync takes its
		// leader from that snapshot at once.
		ps = &partState{topic: t, partition: partition, leader: -1}
		if p.lastMeta != nil {
			ps.leader = leaderIn(p.lastMeta.Topics[t.name], partition)
		}
		t.parts[partition] = ps
	}
	if !ps.listed {
		ps.listed = true
		p.parts = append(p.parts, ps)
	}
	return ps
}

func (p *Producer) newBatch(t *topicState, part *partState, now time.Time) *batch {
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
	return b
}

func (p *Producer) recycle(b *batch) {
	b.reset(&p.pools)
	if len(p.free) < 256 {
		p.free = append(p.free, b)
	}
}

// openBatch returns the partition's open batch with room for a record of
// size bytes, sealing a full one and opening a new one as needed.
func (p *Producer) openBatch(part *partState, size int, now time.Time) *batch {
	if n := len(part.batches); n > 0 {
		b := part.batches[n-1]
		if b.state == batchOpen {
			if len(b.recs) < p.cfg.BatchMaxRecords && (b.est+size <= p.cfg.BatchMaxBytes || len(b.recs) == 0) {
				return b
			}
			b.state = batchReady
			p.wakeup()
		}
	}
	b := p.newBatch(part.topic, part, now)
	if part.lastRecs > 0 {
		b.recs = p.pools.recs.get(part.lastRecs)
		b.wrecs = p.pools.wrecs.get(part.lastRecs)
	}
	part.batches = append(part.batches, b)
	p.wakeup()
	return b
}

// full reports whether an open batch should be sent without lingering.
func (p *Producer) full(b *batch) bool {
	return len(b.recs) >= p.cfg.BatchMaxRecords || b.est >= p.cfg.BatchMaxBytes
}

// TrySend admits m at once or fails without waiting: with a backpressure
// error (errors.Is(err, client.ErrBackpressure)) when a limit is reached or
// earlier Send calls are waiting, ErrRecordTooLarge, ErrInvalidRecord or
// ErrProducerClosed. A refused message is untouched and nothing is lost.
func (p *Producer) TrySend(m *Message) (*Delivery, error) {
	size, err := p.check(m)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing {
		return nil, ErrProducerClosed
	}
	if p.waitHead < len(p.waiters) {
		return nil, errWaiters
	}
	if err := p.room(size); err != nil {
		return nil, err
	}
	return p.admit(m, size, p.now()), nil
}

// Send admits m, waiting in FIFO order for room until ctx ends. It fails at
// once with a backpressure error when WaitingRecords/WaitingBytes are
// reached, and with an error matching both client.ErrBackpressure and ctx's
// error when ctx ends first (m is then not admitted).
func (p *Producer) Send(ctx context.Context, m *Message) (*Delivery, error) {
	size, err := p.check(m)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.closing {
		p.mu.Unlock()
		return nil, ErrProducerClosed
	}
	if p.waitHead == len(p.waiters) && p.room(size) == nil {
		d := p.admit(m, size, p.now())
		p.mu.Unlock()
		return d, nil
	}
	if len(p.waiters)-p.waitHead+1 > p.cfg.WaitingRecords || p.waitingBytes+int64(size) > p.cfg.WaitingBytes {
		p.mu.Unlock()
		return nil, errWaitFull
	}
	w := &waiter{m: m, size: size, ready: make(chan struct{})}
	p.waiters = append(p.waiters, w)
	p.waitingBytes += int64(size)
	p.mu.Unlock()

	select {
	case <-w.ready:
		return w.d, w.err
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-w.ready: // admitted (or failed) meanwhile
		return w.d, w.err
	default:
	}
	w.gone = true
	p.waitingBytes -= int64(size)
	p.compactWaiters()
	return nil, fmt.Errorf("%w: %w", errWaitAbandoned, ctx.Err())
}

var errWaitAbandoned = &backpressureError{"waiting for room ended"}

// waiter is a Send call waiting for room.
type waiter struct {
	m     *Message
	size  int
	ready chan struct{}
	d     *Delivery
	err   error
	gone  bool // its caller stopped waiting
}

// check validates m and returns its reserved size.
func (p *Producer) check(m *Message) (int, error) {
	if m == nil || m.Topic == "" {
		return 0, fmt.Errorf("%w: empty topic", ErrInvalidRecord)
	}
	if m.Partition < -1 {
		return 0, fmt.Errorf("%w: partition %d", ErrInvalidRecord, m.Partition)
	}
	size := messageSize(m)
	if size+batchOverhead > p.cfg.RequestMaxBytes || int64(size) > p.cfg.RetainedBytes {
		return 0, fmt.Errorf("%w: about %d bytes, RequestMaxBytes %d", ErrRecordTooLarge, size, p.cfg.RequestMaxBytes)
	}
	return size, nil
}

// room reports whether a record of size bytes fits the active limits.
func (p *Producer) room(size int) error {
	if p.activeRecords+1 > p.cfg.InFlightRecords {
		return errFullRecords
	}
	if p.activeBytes+int64(size) > p.cfg.RetainedBytes {
		return errFullBytes
	}
	return nil
}

// admit copies m into its partition's open batch (or its topic's unassigned
// batch) and returns its Delivery. Called with p.mu held and room checked.
func (p *Producer) admit(m *Message, size int, now time.Time) *Delivery {
	d := p.slab.get()
	d.p = p
	ts := now.UnixMilli()
	if !m.Timestamp.IsZero() {
		ts = m.Timestamp.UnixMilli()
	}
	t := p.topic(m.Topic)
	partition := m.Partition
	if partition < 0 && t.numParts > 0 {
		partition = p.choose(t, m.Key, size)
	}
	var b *batch
	if partition >= 0 {
		part := p.part(t, partition)
		b = p.openBatch(part, size, now)
		b.add(&p.pools, m, d, ts, size, m.Partition)
		if p.full(b) {
			p.wakeup()
		}
	} else {
		if t.unassigned == nil {
			t.unassigned = p.newBatch(t, nil, now)
			p.wakeup()
		}
		b = t.unassigned
		b.add(&p.pools, m, d, ts, size, -1)
	}
	p.activeRecords++
	p.activeBytes += int64(size)
	return d
}

// choose partitions an unkeyed or keyed record of a topic with known metadata.
func (p *Producer) choose(t *topicState, key []byte, size int) int32 {
	if key != nil {
		return KeyPartition(key, t.numParts)
	}
	return t.sticky.next(size, p.cfg.BatchMaxBytes, t.numParts, t.avail)
}

// admitWaiters admits waiting Send calls in FIFO order while they fit.
func (p *Producer) admitWaiters() {
	for p.waitHead < len(p.waiters) {
		w := p.waiters[p.waitHead]
		if !w.gone {
			if p.room(w.size) != nil {
				return
			}
			w.d = p.admit(w.m, w.size, p.now())
			p.waitingBytes -= int64(w.size)
			close(w.ready)
		}
		p.waiters[p.waitHead] = nil
		p.waitHead++
	}
	p.compactWaiters()
}

func (p *Producer) compactWaiters() {
	for p.waitHead < len(p.waiters) && p.waiters[p.waitHead].gone {
		p.waiters[p.waitHead] = nil
		p.waitHead++
	}
	if p.waitHead == len(p.waiters) {
		p.waiters = p.waiters[:0]
		p.waitHead = 0
	}
}

// failWaiters ends every waiting Send with err.
func (p *Producer) failWaiters(err error) {
	for _, w := range p.waiters[p.waitHead:] {
		if !w.gone {
			w.err = err
			p.waitingBytes -= int64(w.size)
			close(w.ready)
		}
	}
	clear(p.waiters)
	p.waiters = p.waiters[:0]
	p.waitHead = 0
}

// waitingRecords counts Send calls waiting.
func (p *Producer) waitingRecords() int {
	n := 0
	for _, w := range p.waiters[p.waitHead:] {
		if !w.gone {
			n++
		}
	}
	return n
}

// finishRecord gives record r of batch b its terminal and releases what it
// reserved. Called with p.mu held.
func (p *Producer) finishRecord(b *batch, r *rec, res Result) {
	d := r.d
	if d == nil {
		return
	}
	r.d = nil
	d.b = nil
	if d.finish(res) {
		p.activeRecords--
		p.activeBytes -= int64(r.size)
	}
}

// cancel implements Delivery.Cancel.
func (p *Producer) cancel(d *Delivery) CancelOutcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d.terminal.Load() {
		return AlreadyTerminal
	}
	b := d.b
	if b == nil {
		return AlreadyTerminal
	}
	if b.handed || b.state == batchInFlight {
		return TooLate
	}
	r := &b.recs[d.idx]
	r.cancelled = true
	b.cancelled++
	b.live--
	b.est -= r.size
	partition := r.partition
	if b.part != nil {
		partition = b.part.partition
	}
	p.finishRecord(b, r, Result{Topic: b.topic.name, Partition: partition, Offset: -1, Timestamp: b.wrecs[d.idx].Timestamp, Err: ErrRecordCancelled, Certainty: client.NotSent})
	p.admitWaiters()
	return CancelledNotSent
}

// Flush waits until every record admitted before the call is terminal, or
// ctx ends (then it returns an error matching client.ErrTimeout or
// client.ErrCancelled and ctx's error). Lingering batches are sent at once.
// It never hangs on a dead broker beyond the records' DeliveryTimeout.
func (p *Producer) Flush(ctx context.Context) error {
	p.mu.Lock()
	p.flushing++
	var wait []*Delivery
	for _, part := range p.parts {
		for _, b := range part.batches {
			if d := b.anyLive(); d != nil {
				wait = append(wait, d)
			}
		}
	}
	for _, t := range p.topics {
		if t.unassigned != nil {
			for i := range t.unassigned.recs {
				if d := t.unassigned.recs[i].d; d != nil {
					wait = append(wait, d)
				}
			}
		}
	}
	p.mu.Unlock()
	p.wakeup()
	defer func() {
		p.mu.Lock()
		p.flushing--
		p.mu.Unlock()
	}()
	for _, d := range wait {
		select {
		case <-d.Done():
		case <-ctx.Done():
			return ctxError(ctx)
		}
	}
	return nil
}

// anyLive returns the Delivery of a non-terminal record of b (records of a
// batch reach their terminal together, except cancelled ones).
func (b *batch) anyLive() *Delivery {
	for i := range b.recs {
		if d := b.recs[i].d; d != nil {
			return d
		}
	}
	return nil
}

func ctxError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", client.ErrTimeout, ctx.Err())
	}
	return fmt.Errorf("%w: %w", client.ErrCancelled, ctx.Err())
}

// Close stops admission (waiting Send calls fail with ErrProducerClosed),
// flushes until ctx ends, then stops the producer. When ctx ends first every
// record left fails with ErrProducerClosed and the certainty it really has
// (NotSent if no byte of it can have reached a broker, else PossiblySent),
// and Close returns ctx's error wrapped as in Flush. A second Close returns nil.
// The client is not closed.
func (p *Producer) Close(ctx context.Context) error {
	p.mu.Lock()
	if p.closing {
		p.mu.Unlock()
		<-p.done
		return nil
	}
	p.closing = true
	p.failWaiters(ErrProducerClosed)
	p.mu.Unlock()
	err := p.Flush(ctx)
	p.mu.Lock()
	p.closed = true
	if err != nil {
		p.failAll(ErrProducerClosed)
	}
	p.mu.Unlock()
	close(p.quit)
	p.stop()
	<-p.done
	p.unregister()
	return err
}

// failAll fails every record left, each with its true certainty.
func (p *Producer) failAll(err error) {
	for _, part := range p.parts {
		for _, b := range part.batches {
			cert := client.NotSent
			if b.state == batchInFlight || b.maybeWritten {
				cert = client.PossiblySent
			}
			p.failBatch(b, err, cert)
		}
		part.batches = part.batches[:0]
	}
	for _, t := range p.topics {
		if t.unassigned != nil {
			p.failBatch(t.unassigned, err, client.NotSent)
			t.unassigned = nil
		}
	}
}

// failBatch fails every live record of b. Called with p.mu held.
func (p *Producer) failBatch(b *batch, err error, cert client.Certainty) {
	topic := b.topic.name
	var partition int32 = -1
	if b.part != nil {
		partition = b.part.partition
		if !errors.Is(err, ErrProducerClosed) || b.attempts > 0 {
			err = &BatchError{Topic: topic, Partition: partition, Attempts: b.attempts, Err: err}
		}
	}
	for i := range b.recs {
		r := &b.recs[i]
		if r.d == nil {
			continue
		}
		pt := partition
		if b.part == nil {
			pt = r.partition
		}
		p.finishRecord(b, r, Result{Topic: topic, Partition: pt, Offset: -1, Err: err, Certainty: cert})
	}
	b.live = 0
	p.admitWaiters()
}

// fillMetrics adds the producer's gauges and counters to a snapshot.
func (p *Producer) fillMetrics(m *client.ProducerMetrics) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m.ActiveRecords += p.activeRecords
	m.ActiveBytes += int(p.activeBytes)
	m.WaitingRecords += p.waitingRecords()
	m.WaitingBytes += int(p.waitingBytes)
	for _, part := range p.parts {
		for _, b := range part.batches {
			if b.state != batchOpen {
				m.PreparedBatches++
				m.PreparedBatchBytes += b.est
			}
		}
	}
	m.ProduceRequests += p.m.ProduceRequests
	m.ProduceBatches += p.m.ProduceBatches
	m.ProduceRecords += p.m.ProduceRecords
	m.ProduceEncodedBytes += p.m.ProduceEncodedBytes
	m.PeakProduceInFlightRequests = max(m.PeakProduceInFlightRequests, p.m.PeakProduceInFlightRequests)
	m.PeakProduceInFlightPerBroker = max(m.PeakProduceInFlightPerBroker, p.m.PeakProduceInFlightPerBroker)
	m.Accepting = m.Accepting || !p.closing
	m.Healthy = m.Healthy || (!p.closed && p.idErr == nil)
}
