package consumer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// cluster is what the consumer needs of a *client.Client; tests substitute a
// scripted fake broker.
type cluster interface {
	Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error)
	Metadata(ctx context.Context, topics []string) (*client.Metadata, error)
	InvalidateMetadata()
}

// Consumer reads an explicitly assigned set of topic-partitions. It is safe
// for concurrent use. One background goroutine plans Fetch requests (at most
// one in flight per leader, each in a fetch session, KIP-227) while the
// application calls Receive.
type Consumer struct {
	// Ownership: fields marked "set by New" are read-only afterwards; "mu"
	// fields, and every partState they reach, need mu (methods ending in
	// Locked need it held). The fetch loop goroutine owns its fetch sessions
	// (local to fetchLoop), not any field here.
	cl    cluster       // set by New
	tr    transport     // set by New
	cfg   Config        // set by New
	hooks *client.Hooks // set by New: the client's; nil with a test cluster
	log   *slog.Logger  // set by New: the client's; nil with a test cluster (see logger)

	ctx    context.Context    // set by New: lifetime of background work; cancelled by Close
	cancel context.CancelFunc // set by New
	wg     sync.WaitGroup     // the fetch loop goroutine
	wake   chan struct{}      // set by New; capacity 1: pokes the fetch loop

	mu       sync.Mutex
	parts    map[gregor.TopicPartition]*partState // mu
	order    []gregor.TopicPartition              // mu: assignment order, for fair delivery
	rotate   int                                  // mu: where the next Receive starts in order
	gen      uint64                               // mu: last partState.gen handed out
	buffered int64                                // mu: bytes of chunks waiting for delivery
	reserved int64                                // mu: MaxBytes of Fetches in flight not yet charged
	waiters  []chan struct{}                      // mu: one per waiting Receive; signalLocked wakes and forgets them
	idleWait []chan struct{}                      // mu: waiters' channels (capacity 1) for reuse
	closed   bool                                 // mu
	closedCh chan struct{}                        // set by New; closed under mu by Close
	inflight map[fetchLane]*fetchReq              // mu: brokers' lanes with a Fetch in flight (not yet answered)
	notices  []error                              // mu: reported once each by Receive, before records (topic_id.go)

	dec    *wire.Decompressor // set by New; safe for concurrent use (the fetch goroutines share it)
	blocks blockPool          // blockPool.mu: recycled record blocks (Recycle)
	pins   pinRing            // mu: delivered slices not handed back yet
	take   []*partState       // mu: takeLocked's scratch
	m      Metrics            // mu: counters
	rr     readReplicas       // follower fetching (read_replica.go)

	// counts holds per-partition fetch counters, kept across Remove and
	// Assign; endCh is closed (and set nil) when a position or end moved,
	// made only while a WaitEnd waits. Both guarded by mu.
	counts map[gregor.TopicPartition]*partCounts
	endCh  chan struct{}
	// unregister removes the consumer's partition metrics from the
	// client's snapshot (nil with a test cluster).
	unregister func()
	// clientDone is the client's Closed channel (nil with a test
	// cluster): Receive ends at once when the client is closed first.
	clientDone <-chan struct{}
	// afterEarly (tests only; nil otherwise, set before the first Assign)
	// is called by a fetch worker once it handed an early answer, before
	// it decodes the response (fetch_early.go).
	afterEarly func()
}

// New returns a Consumer reading through c with cfg (zero fields take their
// defaults). It starts no I/O until a partition is assigned. The client is
// not owned: Close leaves it open. Errors: an invalid Config.
func New(c *client.Client, cfg Config) (*Consumer, error) {
	if c == nil {
		return nil, errors.New("consumer: nil client")
	}
	return newConsumer(c, wireTransport{c}, cfg)
}

func newConsumer(cl cluster, tr transport, cfg Config) (*Consumer, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Consumer{
		cl:       cl,
		tr:       tr,
		cfg:      cfg,
		ctx:      ctx,
		cancel:   cancel,
		wake:     make(chan struct{}, 1),
		parts:    map[gregor.TopicPartition]*partState{},
		closedCh: make(chan struct{}),
		inflight: map[fetchLane]*fetchReq{},
		dec:      wire.NewDecompressor(0),
	}
	c.blocks.limit = cfg.MaxBufferedBytes
	c.rr.ttl = metadataMaxAge(cl)
	if hc, ok := cl.(interface{ Hooks() *client.Hooks }); ok {
		c.hooks = hc.Hooks()
	}
	if cc, ok := cl.(interface{ Closed() <-chan struct{} }); ok {
		c.clientDone = cc.Closed()
	}
	if lc, ok := cl.(interface{ Logger() *slog.Logger }); ok {
		c.log = lc.Logger()
	}
	if rc, ok := cl.(interface {
		RegisterPartitionMetrics(func([]client.PartitionMetrics) []client.PartitionMetrics) func()
	}); ok {
		c.unregister = rc.RegisterPartitionMetrics(c.partitionMetrics)
	}
	c.wg.Add(1)
	go c.fetchLoop()
	return c, nil
}

// Close stops fetching, fails a waiting Receive with client.ErrClosed and
// drops every buffered record. It waits for the background goroutines,
// which first ask each broker to drop the consumer's fetch session (KIP-227:
// the request is written, at most 2s for that, not retried and its answer
// not awaited; failures are ignored, the broker evicts idle sessions itself),
// and is safe to call more than once. The client stays open. When ctx ends
// before the goroutines are done it returns ctx's error (they finish on
// their own, within those 2s); else nil.
func (c *Consumer) Close(ctx context.Context) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.closedCh)
	c.parts, c.order = map[gregor.TopicPartition]*partState{}, nil
	c.buffered = 0
	c.notices = nil
	c.pins = pinRing{}
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
	c.blocks.drop()
	if c.unregister != nil {
		c.unregister()
	}
	return nil
}

// poke wakes the fetch loop without blocking.
func (c *Consumer) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// signalLocked wakes every Receive waiting for data. c.mu must be held.
func (c *Consumer) signalLocked() {
	for i, w := range c.waiters {
		select {
		case w <- struct{}{}:
		default:
		}
		c.waiters[i] = nil
	}
	c.waiters = c.waiters[:0]
}

func validateTP(tp gregor.TopicPartition) error {
	if tp.Topic == "" {
		return errors.New("consumer: empty topic name")
	}
	if tp.Partition < 0 {
		return fmt.Errorf("consumer: negative partition %d of %q", tp.Partition, tp.Topic)
	}
	return nil
}

func validatePositions(ps []PartitionPosition) error {
	seen := make(map[gregor.TopicPartition]struct{}, len(ps))
	for _, p := range ps {
		if err := validateTP(p.TopicPartition); err != nil {
			return err
		}
		if err := p.Position.validate(); err != nil {
			return fmt.Errorf("%w (%s)", err, p.TopicPartition)
		}
		if _, dup := seen[p.TopicPartition]; dup {
			return fmt.Errorf("consumer: %s listed twice", p.TopicPartition)
		}
		seen[p.TopicPartition] = struct{}{}
	}
	return nil
}

// Assign replaces the whole assignment with ps, atomically: Beginning and
// End positions are first resolved to exact offsets (ListOffsets, within
// ctx); only when all resolve is the old set dropped (with its buffered
// records) and the new one installed, so on error the assignment is
// unchanged. An empty ps unassigns everything. Errors: invalid or duplicate
// partitions, resolution failures (typed broker errors, client errors),
// client.ErrClosed.
func (c *Consumer) Assign(ctx context.Context, ps []PartitionPosition) error {
	return c.install(ctx, ps, true)
}

// Add adds partitions ps with their positions, leaving the others (the
// survivors) undisturbed: their positions, buffered records and pause
// state are kept. A listed partition that is already assigned is
// repositioned as by Seek. Positions resolve as in Assign; on error nothing
// changes.
func (c *Consumer) Add(ctx context.Context, ps []PartitionPosition) error {
	return c.install(ctx, ps, false)
}

func (c *Consumer) install(ctx context.Context, ps []PartitionPosition, replace bool) error {
	if err := validatePositions(ps); err != nil {
		return err
	}
	if err := c.checkOpen(); err != nil {
		return err
	}
	offsets, err := c.resolve(ctx, ps)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return client.ErrClosed
	}
	if replace {
		for tp := range c.parts {
			c.dropLocked(tp)
		}
	}
	for _, p := range ps {
		if old, ok := c.parts[p.TopicPartition]; ok {
			c.repositionLocked(old, offsets[p.TopicPartition])
			continue
		}
		c.gen++
		c.parts[p.TopicPartition] = &partState{tp: p.TopicPartition, offset: offsets[p.TopicPartition], lastEpoch: -1, leaderEpoch: -1, gen: c.gen, hwm: -1, lso: -1, readCommitted: c.cfg.Isolation == ReadCommitted, moved: true, twin: len(c.order)%2 == 1}
		c.order = append(c.order, p.TopicPartition)
	}
	c.poke()
	return nil
}

// Remove drops partitions tps from the assignment with their buffered
// records. Partitions not assigned are ignored. Errors: invalid partitions,
// client.ErrClosed.
func (c *Consumer) Remove(ctx context.Context, tps []gregor.TopicPartition) error {
	for _, tp := range tps {
		if err := validateTP(tp); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return ctxError(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return client.ErrClosed
	}
	for _, tp := range tps {
		c.dropLocked(tp)
	}
	c.poke()
	return nil
}

// Seek moves an assigned partition to p (Beginning and End resolved with
// ListOffsets within ctx before returning). Buffered records of the
// partition are dropped; its pause state is kept; a stopped partition
// (out of range under ResetNone) is fetched again. Errors: ErrNotAssigned,
// resolution failures, client.ErrClosed.
func (c *Consumer) Seek(ctx context.Context, tp gregor.TopicPartition, p Position) error {
	if err := validatePositions([]PartitionPosition{{tp, p}}); err != nil {
		return err
	}
	c.mu.Lock()
	_, ok := c.parts[tp]
	closed := c.closed
	c.mu.Unlock()
	switch {
	case closed:
		return client.ErrClosed
	case !ok:
		return fmt.Errorf("%w: %s", ErrNotAssigned, tp)
	}
	offsets, err := c.resolve(ctx, []PartitionPosition{{tp, p}})
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return client.ErrClosed
	}
	st, ok := c.parts[tp]
	if !ok {
		return fmt.Errorf("%w: %s", ErrNotAssigned, tp)
	}
	c.repositionLocked(st, offsets[tp])
	c.poke()
	return nil
}

// Pause stops fetching tp and withholds its buffered records from Receive
// until Resume. Errors: ErrNotAssigned, client.ErrClosed.
func (c *Consumer) Pause(tp gregor.TopicPartition) error { return c.setPaused(tp, true) }

// Resume undoes Pause: tp is fetched again and its buffered records become
// deliverable. Errors: ErrNotAssigned, client.ErrClosed.
func (c *Consumer) Resume(tp gregor.TopicPartition) error { return c.setPaused(tp, false) }

func (c *Consumer) setPaused(tp gregor.TopicPartition, paused bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return client.ErrClosed
	}
	st, ok := c.parts[tp]
	if !ok {
		return fmt.Errorf("%w: %s", ErrNotAssigned, tp)
	}
	if st.paused && !paused {
		st.moved = true // fetched at once, even while its broker holds a Fetch
	}
	st.paused = paused
	if !paused {
		c.signalLocked()
		c.poke()
	}
	return nil
}

// Assignment returns the assigned partitions with their current positions
// (the next offset Receive delivers), in assignment order.
func (c *Consumer) Assignment() []PartitionPosition {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]PartitionPosition, 0, len(c.order))
	for _, tp := range c.order {
		out = append(out, PartitionPosition{tp, AtOffset(c.parts[tp].offset)})
	}
	return out
}

// validPositions returns the positions of the partitions of want that hold
// a valid one (as the Java client's hasValidPosition): not those waiting
// for a reset or a validation, whose position is about to be replaced
// (after a topic recreation it is still the old topic's). The group commits
// only these.
func (c *Consumer) validPositions(want map[gregor.TopicPartition]bool) map[gregor.TopicPartition]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[gregor.TopicPartition]int64{}
	for _, tp := range c.order {
		st := c.parts[tp]
		if want[tp] && st.phase != phaseResetting && st.phase != phaseValidating {
			out[tp] = st.offset
		}
	}
	return out
}

// repositionLocked sets a partition's position from outside the fetch path.
func (c *Consumer) repositionLocked(st *partState, offset int64) {
	c.moveLocked(st, offset, -1, moveSeek)
}

// dropLocked removes a partition with its buffered records.
func (c *Consumer) dropLocked(tp gregor.TopicPartition) {
	st, ok := c.parts[tp]
	if !ok {
		return
	}
	c.buffered -= st.bufferedCharge()
	delete(c.parts, tp)
	for i, o := range c.order {
		if o == tp {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.progressedLocked()
}

func (c *Consumer) checkOpen() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return client.ErrClosed
	}
	return nil
}

// ctxError maps a context error to the client's error values, keeping the
// context error in the chain.
func ctxError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", client.ErrTimeout, err)
	}
	return fmt.Errorf("%w: %w", client.ErrCancelled, err)
}
