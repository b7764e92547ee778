package consumer

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// fakeLog is one partition's log on the fake broker.
type fakeLog struct {
	batches []tBatch
	start   int64
	// encs caches each batch's encoding, made by append (encoding 20 MB
	// of LZ4 for every Fetch made a test under -race slower than its own
	// deadlines).
	encs [][]byte
}

// encoded returns batch i's encoding.
func (l *fakeLog) encoded(t *testing.T, i int) []byte {
	for len(l.encs) < len(l.batches) {
		l.encs = append(l.encs, nil)
	}
	if l.encs[i] == nil {
		l.encs[i] = l.batches[i].encode(t, nil)
	}
	return l.encs[i]
}

func (l *fakeLog) end() int64 {
	if len(l.batches) == 0 {
		return l.start
	}
	b := l.batches[len(l.batches)-1]
	return b.base + int64(b.lastDelta) + 1
}

// fakeBroker scripts the consumer's transport and cluster: leaders from a
// table, logs of golden batches, a server-side fetch session that must
// always equal what the client wanted (checked on every request), and
// queued errors.
type fakeBroker struct {
	t  *testing.T
	mu sync.Mutex
	// changed is closed and replaced when a log changes.
	changed chan struct{}
	logs    map[gregor.TopicPartition]*fakeLog
	leaders map[gregor.TopicPartition]int32
	partErr map[gregor.TopicPartition][]error
	diverge map[gregor.TopicPartition]*divergingEpoch
	// rtt is what roundTrip reports (0: unknown).
	rtt    time.Duration
	topErr []error
	// epochs overrides the leader epoch metadata names (default 5);
	// epochEnds scripts OffsetForLeaderEpoch answers (default: the
	// asked epoch ends at the log end).
	epochs      map[gregor.TopicPartition]int32
	epochEnds   map[gregor.TopicPartition]epochResp
	validations int

	sessions      map[int32]map[gregor.TopicPartition]sessionPart
	nextSession   int32
	fetches       []fetchReq
	invalidations int
	onFetch       func(*fetchReq)
	// closed lists the sessions the consumer closed, as [node, id].
	closed [][2]int32
	// sessionless counts Fetches without a session (side lane).
	sessionless int
	// holds, per API ("ListOffsets", "OffsetForLeaderEpoch"), holds every
	// such request until the channel is closed (or the request's context
	// ends); held gets the API's name as each one is held.
	holds map[string]chan struct{}
	held  chan string
	// stale makes Metadata report an older {leader, epoch} for a
	// partition than leaders and epochs (which fetches see).
	stale map[gregor.TopicPartition][2]int32
	// noTopicIDs makes Metadata name no topic ID (Azure Event Hubs).
	noTopicIDs bool
}

func newFakeBroker(t *testing.T) *fakeBroker {
	return &fakeBroker{t: t, changed: make(chan struct{}), logs: map[gregor.TopicPartition]*fakeLog{},
		leaders: map[gregor.TopicPartition]int32{}, partErr: map[gregor.TopicPartition][]error{},
		diverge: map[gregor.TopicPartition]*divergingEpoch{}, epochs: map[gregor.TopicPartition]int32{}, epochEnds: map[gregor.TopicPartition]epochResp{}, sessions: map[int32]map[gregor.TopicPartition]sessionPart{}, nextSession: 100}
}

func (f *fakeBroker) append(tp gregor.TopicPartition, bs ...tBatch) {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := f.logs[tp]
	if l == nil {
		l = &fakeLog{}
		f.logs[tp] = l
		if _, ok := f.leaders[tp]; !ok {
			f.leaders[tp] = 1
		}
	}
	l.batches = append(l.batches, bs...)
	for i := range l.batches {
		l.encoded(f.t, i) // now, not inside a test's wait for the first Fetch
	}
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *fakeBroker) setStart(tp gregor.TopicPartition, start int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logs[tp].start = start
}

// cluster interface.
func (f *fakeBroker) Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error) {
	return nil, errors.New("fake: no wire requests")
}

func (f *fakeBroker) Metadata(ctx context.Context, topics []string) (*client.Metadata, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	md := &client.Metadata{Topics: map[string]*client.TopicMetadata{},
		Brokers: []client.Broker{{NodeID: 1}, {NodeID: 2}, {NodeID: 3}}}
	for tp, leader := range f.leaders {
		tm := md.Topics[tp.Topic]
		if tm == nil {
			tm = &client.TopicMetadata{Name: tp.Topic, ID: wire.UUID{byte(len(tp.Topic))}}
			if f.noTopicIDs {
				tm.ID = wire.UUID{}
			}
			md.Topics[tp.Topic] = tm
		}
		epoch, ok := f.epochs[tp]
		if !ok {
			epoch = 5
		}
		if old, ok := f.stale[tp]; ok {
			leader, epoch = old[0], old[1]
		}
		tm.Partitions = append(tm.Partitions, client.PartitionMetadata{Partition: tp.Partition, Leader: leader, LeaderEpoch: epoch})
	}
	return md, nil
}

func (f *fakeBroker) InvalidateMetadata() {
	f.mu.Lock()
	f.invalidations++
	f.mu.Unlock()
}

// hold makes the fake hold every api request until the returned function
// is called; held receives api each time one is held.
func (f *fakeBroker) hold(api string) (release func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holds == nil {
		f.holds, f.held = map[string]chan struct{}{}, make(chan string, 16)
	}
	ch := make(chan struct{})
	f.holds[api] = ch
	return sync.OnceFunc(func() { close(ch) })
}

// wait holds an api request while hold asks for it.
func (f *fakeBroker) wait(ctx context.Context, node int32, api string) error {
	f.mu.Lock()
	ch := f.holds[api]
	f.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case f.held <- api:
	default:
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return &client.RequestError{Broker: node, API: api, Certainty: client.PossiblySent, Err: client.ErrCancelled}
	}
}

// transport interface.
func (f *fakeBroker) listOffsets(ctx context.Context, node int32, iso IsolationLevel, reqs []listReq) (map[gregor.TopicPartition]listResp, error) {
	if err := f.wait(ctx, node, "ListOffsets"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[gregor.TopicPartition]listResp{}
	for _, r := range reqs {
		l := f.logs[r.TopicPartition]
		switch {
		case l == nil:
			out[r.TopicPartition] = listResp{Err: wire.ErrUnknownTopicOrPartition}
		case r.Timestamp == timestampEarliest:
			out[r.TopicPartition] = listResp{Offset: l.start}
		default:
			out[r.TopicPartition] = listResp{Offset: l.end()}
		}
	}
	return out, nil
}

func (f *fakeBroker) offsetsForLeaderEpoch(ctx context.Context, node int32, reqs []epochReq) (map[gregor.TopicPartition]epochResp, error) {
	if err := f.wait(ctx, node, "OffsetForLeaderEpoch"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[gregor.TopicPartition]epochResp{}
	for _, r := range reqs {
		f.validations++
		if er, ok := f.epochEnds[r.TopicPartition]; ok {
			out[r.TopicPartition] = er
			continue
		}
		out[r.TopicPartition] = epochResp{LeaderEpoch: r.LeaderEpoch, EndOffset: f.logs[r.TopicPartition].end()}
	}
	return out, nil
}

// roundTrip: a fake broker's round trip is unknown (0), unless set.
func (f *fakeBroker) roundTrip(int32) time.Duration { return f.rtt }

func (f *fakeBroker) closeSession(ctx context.Context, node, id int32) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = append(f.closed, [2]int32{node, id})
	if _, ok := f.sessions[id]; !ok {
		return wire.ErrFetchSessionIDNotFound
	}
	delete(f.sessions, id)
	return nil
}

func (f *fakeBroker) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	deadline := time.Now().Add(req.maxWait)
	f.mu.Lock()
	f.fetches = append(f.fetches, snapshotReq(req))
	if f.onFetch != nil {
		f.onFetch(req)
	}
	if len(f.topErr) > 0 {
		err := f.topErr[0]
		f.topErr = f.topErr[1:]
		delete(f.sessions, req.plan.SessionID)
		f.mu.Unlock()
		return &fetchResp{Err: err}, nil
	}
	// Server side of KIP-227.
	var sess map[gregor.TopicPartition]sessionPart
	id := req.plan.SessionID
	if req.plan.Full && req.plan.SessionEpoch == finalSessionEpoch {
		// Sessionless (the side lane's Fetch of moved partitions): no
		// session is made or touched.
		sess, id = map[gregor.TopicPartition]sessionPart{}, 0
		f.sessionless++
	} else if req.plan.Full {
		sess = map[gregor.TopicPartition]sessionPart{}
		f.nextSession++
		id = f.nextSession
		f.sessions[id] = sess
	} else if sess = f.sessions[id]; sess == nil {
		f.mu.Unlock()
		return &fetchResp{Err: wire.ErrFetchSessionIDNotFound}, nil
	}
	for _, tp := range req.plan.Parts {
		sess[tp] = req.want[tp]
	}
	for j, tp := range req.plan.Forgotten {
		// Kafka keys a session's partitions by topic ID too: forgetting
		// the old ID of a recreated topic keeps the new one just added.
		if j < len(req.plan.ForgottenIDs) && sess[tp].TopicID != req.plan.ForgottenIDs[j] {
			continue
		}
		delete(sess, tp)
	}
	if !maps.Equal(sess, req.want) {
		f.t.Errorf("broker session %v differs from the client's want %v", sess, req.want)
	}
	f.mu.Unlock()

	for {
		f.mu.Lock()
		resp := &fetchResp{SessionID: id}
		for tp, p := range sess {
			l := f.logs[tp]
			if errs := f.partErr[tp]; len(errs) > 0 {
				f.partErr[tp] = errs[1:]
				resp.Parts = append(resp.Parts, fetchRespPart{TopicPartition: tp, Err: errs[0]})
				continue
			}
			// A fetch naming an older leader epoch than the partition's is
			// fenced, as Kafka's Partition.checkCurrentLeaderEpoch does
			// (also for a fetch already waiting when the leader changed).
			if epoch, ok := f.epochs[tp]; ok && p.CurrentLeaderEpoch >= 0 && p.CurrentLeaderEpoch != epoch {
				err := wire.ErrFencedLeaderEpoch
				if p.CurrentLeaderEpoch > epoch {
					err = wire.ErrUnknownLeaderEpoch
				}
				resp.Parts = append(resp.Parts, fetchRespPart{TopicPartition: tp, Err: err})
				continue
			}
			if d := f.diverge[tp]; d != nil {
				delete(f.diverge, tp)
				resp.Parts = append(resp.Parts, fetchRespPart{TopicPartition: tp, Diverging: d})
				continue
			}
			if l == nil || p.FetchOffset < l.start || p.FetchOffset > l.end() {
				resp.Parts = append(resp.Parts, fetchRespPart{TopicPartition: tp, Err: wire.ErrOffsetOutOfRange})
				continue
			}
			var raw []byte
			for i, b := range l.batches {
				if b.base+int64(b.lastDelta) >= p.FetchOffset && len(raw) < int(p.MaxBytes) {
					raw = append(raw, l.encoded(f.t, i)...)
				}
			}
			if len(raw) > 0 || req.plan.Full {
				resp.Parts = append(resp.Parts, fetchRespPart{TopicPartition: tp, Records: raw, LogStartOffset: l.start, HighWatermark: l.end()})
			}
		}
		changed := f.changed
		f.mu.Unlock()
		if len(resp.Parts) > 0 || !time.Now().Before(deadline) {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, &client.RequestError{Broker: req.node, API: "Fetch", Certainty: client.PossiblySent, Err: client.ErrCancelled}
		case <-changed:
		case <-time.After(time.Until(deadline)):
		}
	}
}

// snapshotReq copies what the fake keeps of a request: the consumer reuses
// a leader's fetchReq (its maps and slices) for the next Fetch.
func snapshotReq(req *fetchReq) fetchReq {
	return fetchReq{node: req.node, want: maps.Clone(req.want), gens: maps.Clone(req.gens), order: slices.Clone(req.order),
		maxBytes: req.maxBytes, askBytes: req.askBytes, isolation: req.isolation, maxWait: req.maxWait, minBytes: req.minBytes, partMax: req.partMax,
		plan: fetchPlan{SessionID: req.plan.SessionID, SessionEpoch: req.plan.SessionEpoch, Full: req.plan.Full,
			Parts: slices.Clone(req.plan.Parts), Forgotten: slices.Clone(req.plan.Forgotten), ForgottenIDs: slices.Clone(req.plan.ForgottenIDs)}}
}

func (f *fakeBroker) fetchCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.fetches)
}

func newTestConsumer(t *testing.T, f interface {
	cluster
	transport
}, cfg Config) *Consumer {
	t.Helper()
	if cfg.MaxWait == 0 {
		cfg.MaxWait = 50 * time.Millisecond
	}
	c, err := newConsumer(f, f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// receiveN receives until n records arrived (or fails at the deadline).
func receiveN(t *testing.T, c *Consumer, n int) []Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out []Record
	for len(out) < n {
		rs, err := c.Receive(ctx)
		if err != nil {
			t.Fatalf("Receive after %d of %d records: %v", len(out), n, err)
		}
		out = append(out, rs...)
	}
	if len(out) != n {
		t.Fatalf("received %d records, want %d: %v", len(out), n, offsetsOf(out))
	}
	return out
}

// expectNothing asserts that Receive times out (nothing deliverable).
func expectNothing(t *testing.T, c *Consumer, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	rs, err := c.Receive(ctx)
	if !errors.Is(err, client.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Receive = %v, %v; want a timeout", offsetsOf(rs), err)
	}
}

func wantOffsets(t *testing.T, rs []Record, tp gregor.TopicPartition, from, to int64) {
	t.Helper()
	var got []int64
	for _, r := range rs {
		if r.Topic == tp.Topic && r.Partition == tp.Partition {
			got = append(got, r.Offset)
		}
	}
	if int64(len(got)) != to-from {
		t.Fatalf("%s offsets %v, want [%d, %d)", tp, got, from, to)
	}
	for i, o := range got {
		if o != from+int64(i) {
			t.Fatalf("%s offsets %v, want [%d, %d)", tp, got, from, to)
		}
	}
}
