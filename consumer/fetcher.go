package consumer

import (
	"cmp"
	"errors"
	"slices"
	"sort"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// retryBackoff is how long a partition waits after a retriable error (leader
// moved, no leader yet, transport failure) before it is fetched again; the
// metadata is refreshed meanwhile.
const retryBackoff = 100 * time.Millisecond

// fetchReq is one planned FetchRequest to a leader.
type fetchReq struct {
	node      int32
	plan      fetchPlan
	want      map[gregor.TopicPartition]sessionPart
	gens      map[gregor.TopicPartition]uint64 // partition generations when planned
	maxBytes  int32
	isolation IsolationLevel
	maxWait   time.Duration
	minBytes  int32
	partMax   int32
}

// divergingEpoch is a FetchResponse partition's diverging_epoch (KIP-320).
type divergingEpoch struct {
	Epoch     int32
	EndOffset int64
}

// fetchRespPart is what the consumer uses of one partition of a
// FetchResponse.
type fetchRespPart struct {
	gregor.TopicPartition
	Err              error
	HighWatermark    int64
	LastStableOffset int64
	LogStartOffset   int64
	Aborted          []abortedTxn
	Records          []byte
	Diverging        *divergingEpoch
	Leader           *leaderHint // CurrentLeader with an error (v12+, KIP-951), nil for none
}

// fetchResp is what the consumer uses of a FetchResponse.
type fetchResp struct {
	Err        error // top-level error code
	ThrottleMs int32 // quota throttle the client must honor (KIP-219)
	SessionID  int32
	Parts      []fetchRespPart
}

// fetchResult is a finished Fetch with its partitions decoded.
type fetchResult struct {
	req    *fetchReq
	resp   *fetchResp
	err    error
	chunks map[gregor.TopicPartition]*chunk
	errs   map[gregor.TopicPartition]error // decode failures
}

// fetchLoop plans Fetch requests until Close. It owns the fetch sessions.
func (c *Consumer) fetchLoop() {
	defer c.wg.Done()
	sessions := map[int32]*fetchSession{}
	results := make(chan *fetchResult)
	var timer *time.Timer
	for {
		next := c.planAndSend(sessions, results)
		var timerC <-chan time.Time
		if !next.IsZero() {
			d := time.Until(next)
			if d < time.Millisecond {
				d = time.Millisecond
			}
			if timer == nil {
				timer = time.NewTimer(d)
			} else {
				timer.Reset(d)
			}
			timerC = timer.C
		}
		select {
		case <-c.ctx.Done():
			// Request goroutines end with c.ctx; drain them.
			c.mu.Lock()
			n := len(c.inflight)
			c.mu.Unlock()
			for range n {
				<-results
			}
			c.mu.Lock()
			clear(c.inflight)
			c.reserved = 0
			c.mu.Unlock()
			c.closeSessions(sessions)
			return
		case <-c.wake:
		case <-timerC:
		case r := <-results:
			c.handleResult(sessions, r)
		}
		if timer != nil && !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// candidate is a partition the planner may fetch.
type candidate struct {
	tp        gregor.TopicPartition
	offset    int64
	lastEpoch int32
	gen       uint64
	hint      *leaderHint
}

// planAndSend resets partitions that need it, then sends a Fetch to every
// leader without one in flight. It returns the earliest time a backed-off
// partition becomes fetchable (zero: none).
func (c *Consumer) planAndSend(sessions map[int32]*fetchSession, results chan<- *fetchResult) time.Time {
	c.runResets()
	c.runValidations()

	now := time.Now()
	var earliest time.Time
	var cands []candidate
	topicSet := map[string]struct{}{}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return time.Time{}
	}
	room := c.cfg.MaxBufferedBytes - c.buffered - c.reserved
	for _, tp := range c.order {
		st := c.parts[tp]
		if !st.fetchable(now) {
			if !st.paused && !st.inflight && !st.stopped && st.buf == nil && (earliest.IsZero() || st.backoff.Before(earliest)) && st.backoff.After(now) {
				earliest = st.backoff
			}
			continue
		}
		cands = append(cands, candidate{tp, st.offset, st.lastEpoch, st.gen, st.hint})
		topicSet[tp.Topic] = struct{}{}
	}
	busy := make(map[int32]bool, len(c.inflight))
	for n := range c.inflight {
		busy[n] = true
	}
	c.mu.Unlock()
	if len(cands) == 0 || room <= 0 {
		return earliest
	}

	topics := make([]string, 0, len(topicSet))
	for t := range topicSet {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	md, err := c.cl.Metadata(c.ctx, topics)
	if err != nil {
		if c.ctx.Err() != nil {
			return time.Time{}
		}
		c.backoffAll(cands, now.Add(retryBackoff))
		return now.Add(retryBackoff)
	}

	// Group by leader.
	byLeader := map[int32][]candidate{}
	var noLeader, caughtUp []candidate
	var fatal []candidate
	var fatalErr []error
	epochs := map[gregor.TopicPartition]int32{}
	ids := map[gregor.TopicPartition]wire.UUID{}
	for _, cd := range cands {
		tm := md.Topics[cd.tp.Topic]
		if tm == nil || tm.Err != nil {
			if tm != nil && isFatalTopicErr(tm.Err) {
				fatal, fatalErr = append(fatal, cd), append(fatalErr, tm.Err)
				continue
			}
			noLeader = append(noLeader, cd)
			continue
		}
		pm := findPartition(tm, cd.tp.Partition)
		leader, epoch, ok := leaderOf(md, pm, cd.hint)
		if cd.hint != nil && epoch != cd.hint.Epoch {
			// Metadata shows the hinted epoch or a newer one (drop the
			// hint), or the hint names a broker the client cannot reach
			// yet: that one waits for a metadata refresh, as without a
			// hint, rather than fetch again from the old leader.
			caughtUp = append(caughtUp, cd)
			if pm == nil || pm.LeaderEpoch < cd.hint.Epoch {
				noLeader = append(noLeader, cd)
				continue
			}
		}
		if !ok {
			noLeader = append(noLeader, cd)
			continue
		}
		epochs[cd.tp] = epoch
		ids[cd.tp] = tm.ID
		byLeader[leader] = append(byLeader[leader], cd)
	}
	if len(caughtUp) > 0 {
		c.mu.Lock()
		for _, cd := range caughtUp {
			if st := c.parts[cd.tp]; st != nil && st.hint == cd.hint {
				st.hint = nil // metadata caught up, or the hinted broker is unknown
			}
		}
		c.mu.Unlock()
	}
	if len(noLeader) > 0 {
		c.mu.Lock()
		c.m.MetadataRefreshes++
		c.mu.Unlock()
		c.cl.InvalidateMetadata()
		c.backoffAll(noLeader, now.Add(retryBackoff))
		if earliest.IsZero() || now.Add(retryBackoff).Before(earliest) {
			earliest = now.Add(retryBackoff)
		}
	}
	for i, cd := range fatal {
		c.stopPartition(cd, &PartitionError{cd.tp, fatalErr[i]})
	}

	leaders := make([]int32, 0, len(byLeader))
	for n := range byLeader {
		if busy[n] {
			continue
		}
		// KIP-219: a throttled broker gets no request until its throttle
		// time has passed.
		if s := sessions[n]; s != nil && now.Before(s.throttledUntil) {
			if earliest.IsZero() || s.throttledUntil.Before(earliest) {
				earliest = s.throttledUntil
			}
			continue
		}
		leaders = append(leaders, n)
	}
	sort.Slice(leaders, func(i, j int) bool { return leaders[i] < leaders[j] })
	for _, node := range leaders {
		c.mu.Lock()
		room := c.cfg.MaxBufferedBytes - c.buffered - c.reserved
		if room <= 0 || c.closed {
			c.mu.Unlock()
			break
		}
		maxBytes := int64(c.cfg.MaxBytes)
		if room < maxBytes {
			maxBytes = room
		}
		req := &fetchReq{
			node:      node,
			want:      map[gregor.TopicPartition]sessionPart{},
			gens:      map[gregor.TopicPartition]uint64{},
			maxBytes:  int32(maxBytes),
			isolation: c.cfg.Isolation,
			maxWait:   c.cfg.MaxWait,
			minBytes:  c.cfg.MinBytes,
			partMax:   c.cfg.PartitionMaxBytes,
		}
		var order []gregor.TopicPartition
		for _, cd := range byLeader[node] {
			st := c.parts[cd.tp]
			if st == nil || st.gen != cd.gen || !st.fetchable(now) {
				continue // changed since the snapshot
			}
			if e := epochs[cd.tp]; e > st.leaderEpoch {
				changed := st.leaderEpoch >= 0
				st.leaderEpoch = e
				if changed && st.lastEpoch >= 0 {
					// New leader: validate the position first (KIP-320).
					st.validate = true
					c.poke()
					continue
				}
			}
			st.inflight = true
			order = append(order, cd.tp)
			req.gens[cd.tp] = cd.gen
			req.want[cd.tp] = sessionPart{
				TopicID:            ids[cd.tp],
				FetchOffset:        cd.offset,
				CurrentLeaderEpoch: epochs[cd.tp],
				LastFetchedEpoch:   cd.lastEpoch,
				MaxBytes:           c.cfg.PartitionMaxBytes,
			}
		}
		if len(order) == 0 {
			c.mu.Unlock()
			continue
		}
		c.inflight[node] = true
		c.reserved += maxBytes
		c.m.FetchRequests++
		c.mu.Unlock()

		s := sessions[node]
		if s == nil {
			s = newFetchSession()
			sessions[node] = s
		}
		req.plan = s.build(order, req.want)
		if req.plan.Full {
			c.mu.Lock()
			c.m.FullFetches++
			c.mu.Unlock()
		}
		go c.doFetch(req, results)
	}
	return earliest
}

// leaderOf returns the leader and leader epoch to use for a partition:
// metadata's (pm; nil when metadata has none), or the newer ones a Fetch
// response named (hint, KIP-951) while metadata shows an older epoch and
// names the hinted broker (so the client can reach it). ok is false when
// neither gives a leader.
func leaderOf(md *client.Metadata, pm *client.PartitionMetadata, hint *leaderHint) (leader, epoch int32, ok bool) {
	if hint != nil && (pm == nil || pm.LeaderEpoch < hint.Epoch) {
		if _, known := slices.BinarySearchFunc(md.Brokers, hint.Leader, func(b client.Broker, id int32) int { return cmp.Compare(b.NodeID, id) }); known {
			return hint.Leader, hint.Epoch, true
		}
	}
	if pm == nil || pm.Leader < 0 {
		return -1, -1, false
	}
	return pm.Leader, pm.LeaderEpoch, true
}

func findPartition(tm *client.TopicMetadata, p int32) *client.PartitionMetadata {
	ps := tm.Partitions
	i := sort.Search(len(ps), func(i int) bool { return ps[i].Partition >= p })
	if i < len(ps) && ps[i].Partition == p {
		return &ps[i]
	}
	for i := range ps { // not sorted after all
		if ps[i].Partition == p {
			return &ps[i]
		}
	}
	return nil
}

// isFatalTopicErr reports topic errors that retrying cannot fix.
func isFatalTopicErr(err error) bool {
	var ke *wire.KafkaError
	return errors.As(err, &ke) && !ke.Retriable && !errors.Is(err, wire.ErrUnknownTopicOrPartition)
}

func (c *Consumer) backoffAll(cands []candidate, until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cd := range cands {
		if st := c.parts[cd.tp]; st != nil && st.gen == cd.gen {
			st.backoff = until
		}
	}
}

func (c *Consumer) stopPartition(cd candidate, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.parts[cd.tp]; st != nil && st.gen == cd.gen {
		st.stopped, st.err = true, err
		c.signalLocked()
	}
}
