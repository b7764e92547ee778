package consumer

import (
	"cmp"
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

// fetchShare: one Fetch reserves (and asks for) at most 1/fetchShare of
// MaxBufferedBytes, so that while the application processes one response
// and another waits, the next is in flight, with room left for other
// leaders; and a consumer's blocks stay small enough to be reused rather
// than freshly allocated (page faults) for every response.
const fetchShare = 4

// firstChargePerByte is the charge per records-field byte a Fetch assumes
// before any response with records told the real one (noteCharge): that of
// 100-byte records (about 110 wire bytes and recordSize each), so that the
// first response of such records is decoded whole rather than half decoded
// and fetched again (at 1, the first Fetch of a 256-partition consumer
// brought 16.8 MB and decoded 8.3 MB of it); with larger records the first
// response is only smaller than the next.
const firstChargePerByte = 2

// fetchReq is one planned FetchRequest to a leader, and the memory a
// Fetch reuses from one request to that leader to the next: the fetch loop
// keeps two per lane (fetchState.reqs: one decoded while the other is in
// flight after an early answer, fetch_early.go) and plans the next Fetch
// into one whose last result was applied. One whose transport call failed
// is dropped, since an abandoned response may still be read into it.
type fetchReq struct {
	node      int32
	side      bool // a sessionless Fetch of moved partitions (fetch_moved.go)
	twin      bool // in the broker's second session's lanes (fetch_twin.go)
	slot      int  // which of its lane's two fetchReqs it is
	plan      fetchPlan
	want      map[gregor.TopicPartition]sessionPart
	gens      map[gregor.TopicPartition]uint64 // partition generations when planned
	order     []gregor.TopicPartition          // want's partitions in planning order
	maxBytes  int32                            // the decode budget: buffer room reserved (charged bytes)
	askBytes  int32                            // max_bytes: maxBytes in records-field bytes (chargePerByte)
	isolation IsolationLevel
	maxWait   time.Duration
	minBytes  int32
	partMax   int32
	rack      string // Config.Rack (client.rack), for follower fetching (KIP-392)
	ord       *laneOrder
	seq       uint64 // the lane's count of Fetches sent, at this one (ord)
	// busy and sessionDone are the fetch loop's: sent and its result not
	// applied yet; the early answer did the session's bookkeeping.
	busy, sessionDone bool
	// twinVote is the worker's vote from the response on splitting the
	// broker between two sessions (twinVote), read by the fetch loop with
	// the early answer or the result.
	twinVote int8
	// reserved is what the Fetch holds of Consumer.reserved (mu): maxBytes,
	// then from its early answer the charge its headers show.
	reserved int64

	// Owned by the fetch worker while the Fetch is in flight.
	ends        map[gregor.TopicPartition]earlyEnd // earlyEnds; the loop's once the early answer is handed
	earlyCharge float64                            // earlyEnds: the headers' charge per records-field byte (0: no records)
	earlyTotal  int64                              // earlyEnds: what decoding will charge, at most
	earlyRes    fetchResult                        // the early answer handed to the fetch loop
	blk         *recBlock                          // the block the response is read and decoded into
	call        fetchCall                          // the wire transport's request and response
	resp        fetchResp                          // the wire transport's mapped response
	res         fetchResult                        // the result handed to the fetch loop
	scratch     batchScratch                       // decodeBatches' reader
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
	// Preferred is PreferredReadReplica (v11+, KIP-392; read_replica.go).
	Preferred preferredReplica
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
	req  *fetchReq
	resp *fetchResp
	err  error
	// early: an early answer (fetch_early.go), only resp's header and
	// req.ends to be read; the result follows.
	early  bool
	chunks map[gregor.TopicPartition]*chunk
	errs   map[gregor.TopicPartition]error // decode failures
	// spare is the response's block when no chunk was cut from it: the
	// fetch loop pools it once it applied the result.
	spare *recBlock
}

// fetchLane names one of a broker's fetch lanes: the session's (side
// false: the broker's fetch session, KIP-227, one Fetch in flight) and the
// moved partitions' (side true: sessionless Fetches on a connection of
// their own, fetch_moved.go); twin true names the lanes of the broker's
// second session, while its partitions are split between two
// (fetch_twin.go).
type fetchLane struct {
	node int32
	side bool
	twin bool
}

// reqSlot names one of a lane's two reusable fetchReqs.
type reqSlot struct {
	lane fetchLane
	slot int
}

// fetchState is what the fetch loop owns: the fetch sessions, the two
// reusable requests of each broker's lane, a worker goroutine per request
// that sends its Fetches, the channels results and job outcomes come back
// on, and the planner's scratch slices.
type fetchState struct {
	sessions map[fetchLane]*fetchSession // by session lane (fetchReq.sessionLane)
	// twins is each broker's split between two sessions (fetch_twin.go):
	// +1 split, -1 not; absent before a vote or twinPrior.
	twins   map[int32]int8
	reqs    map[reqSlot]*fetchReq
	workers map[reqSlot]chan *fetchReq
	orders  map[fetchLane]*laneOrder
	results chan *fetchResult
	// outstanding counts the Fetches sent whose result the loop has not
	// received (early answers aside).
	outstanding int
	// jobs carries the finished reset and validation jobs' results
	// (jobs.go), applied by the loop.
	jobs chan func()

	cands       []candidate
	topics      []string
	busy        map[fetchLane]bool
	byBroker    map[int32][]candidate
	noLeader    []candidate
	caughtUp    []candidate
	fatal       []candidate
	fatalErr    []error
	brokers     []int32
	twinFirst   []candidate // splitTwins' scratch
	twinSecond  []candidate
	resets      []jobPart // collected this round (jobs.go)
	validations []jobPart
	// chargePerByte is the charge against MaxBufferedBytes per byte of
	// records field of the last response with records (0 before one:
	// firstChargePerByte is assumed; more than 1 with small records:
	// recordSize per Record value).
	chargePerByte float64
	idChange      []candidate // partitions whose topic metadata shows deleted or recreated (topic_id.go)
	// answers is a side-lane response's partitions by name while
	// handleResult applies it (indexAnswers), empty otherwise.
	answers map[gregor.TopicPartition]*fetchRespPart
}

// resultSlots is the capacity of the results channel: a worker hands its
// result over and is free for its lane's next Fetch without waiting for
// the loop to pick it up.
const resultSlots = 4

func newFetchState() *fetchState {
	return &fetchState{
		sessions: map[fetchLane]*fetchSession{},
		twins:    map[int32]int8{},
		reqs:     map[reqSlot]*fetchReq{},
		workers:  map[reqSlot]chan *fetchReq{},
		orders:   map[fetchLane]*laneOrder{},
		results:  make(chan *fetchResult, resultSlots),
		jobs:     make(chan func()),
		busy:     map[fetchLane]bool{},
		byBroker: map[int32][]candidate{},
	}
}

// send hands req to its worker, starting one for a new request slot. A
// request is sent again only after its result was applied, so the
// worker's channel (one slot) never blocks.
func (c *Consumer) send(fs *fetchState, req *fetchReq) {
	key := reqSlot{req.lane(), req.slot}
	w := fs.workers[key]
	if w == nil {
		w = make(chan *fetchReq, 1)
		fs.workers[key] = w
		c.wg.Add(1)
		go c.fetchWorker(w, fs.results)
	}
	req.busy, req.seq = true, req.ord.next()
	fs.outstanding++
	w <- req
}

// freeReq returns a request of lane whose last result was applied,
// making the lane's requests as needed; nil when both are busy.
func (fs *fetchState) freeReq(lane fetchLane) *fetchReq {
	for slot := range 2 {
		key := reqSlot{lane, slot}
		req := fs.reqs[key]
		if req == nil {
			ord := fs.orders[lane]
			if ord == nil {
				ord = newLaneOrder()
				fs.orders[lane] = ord
			}
			req = &fetchReq{node: lane.node, side: lane.side, twin: lane.twin, slot: slot, ord: ord, want: map[gregor.TopicPartition]sessionPart{}, gens: map[gregor.TopicPartition]uint64{}}
			fs.reqs[key] = req
		}
		if !req.busy {
			return req
		}
	}
	return nil
}

// lane is the broker lane req is sent in.
func (req *fetchReq) lane() fetchLane { return fetchLane{req.node, req.side, req.twin} }

// sessionLane is the session lane of req's lane: the one whose fetch
// session (fetchState.sessions) req's partitions belong to.
func (req *fetchReq) sessionLane() fetchLane { return fetchLane{node: req.node, twin: req.twin} }

// fetchWorker sends one lane's Fetches, one at a time, until the fetch
// loop closes in (after it drained every result).
func (c *Consumer) fetchWorker(in <-chan *fetchReq, results chan<- *fetchResult) {
	defer c.wg.Done()
	for req := range in {
		c.doFetch(req, results)
	}
}

// fetchLoop runs fetch rounds (fetchRound) until Close, and applies what
// comes back: Fetch results and reset and validation jobs' outcomes. It owns
// the fetch sessions.
func (c *Consumer) fetchLoop() {
	defer c.wg.Done()
	fs := newFetchState()
	var timer *time.Timer
	for {
		next := c.fetchRound(fs)
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
			c.stopFetching(fs)
			return
		case <-c.wake:
		case <-timerC:
		case r := <-fs.results:
			if !r.early {
				fs.outstanding--
			}
			if c.ctx.Err() != nil {
				// Closing: a Fetch that Close cancelled fails, which must
				// not end its session before closeSessions does.
				c.stopFetching(fs)
				return
			}
			c.noteTwinVote(fs, r.req)
			if r.early {
				c.handleEarly(fs, r)
				break
			}
			fs.noteCharge(r)
			c.handleResult(fs, r)
		case apply := <-fs.jobs:
			apply()
		}
		if timer != nil && !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// stopFetching ends the fetch loop once c.ctx ended: Fetches end with
// c.ctx; it drains them, stops the workers and closes the fetch sessions.
func (c *Consumer) stopFetching(fs *fetchState) {
	for fs.outstanding > 0 {
		if r := <-fs.results; !r.early {
			fs.outstanding--
		}
	}
	for _, w := range fs.workers {
		close(w)
	}
	c.mu.Lock()
	clear(c.inflight)
	c.reserved = 0
	c.mu.Unlock()
	c.closeSessions(fs.sessions)
}

// candidate is a partition the planner may fetch.
type candidate struct {
	tp        gregor.TopicPartition
	offset    int64
	lastEpoch int32
	gen       uint64
	hint      *leaderHint
	known     wire.UUID // the topic ID the position belongs to (zero: none yet)
	retired   wire.UUID // the topic ID the partition left on a recreation (zero: none)
	moved     bool      // partState.moved when collected
	twin      bool      // partState.twin
	// From metadata (or the hint), set while grouping by broker.
	epoch int32
	id    wire.UUID
}

// fetchRound is one turn of the fetch loop, in explicit steps:
//
//  1. collect: the fetchable partitions, and those due a reset or a
//     validation (collect);
//  2. jobs: start the resets and validations as asynchronous jobs whose
//     results come back through the loop (startJobs, jobs.go);
//  3. group: each fetchable partition under the broker its Fetch goes to
//     (groupByBroker, fetchBrokerFor);
//  4. send: a Fetch to every broker whose session has none in flight, and
//     a sessionless one for moved partitions of a broker that holds one
//     (sendGrouped).
//
// It returns the earliest time a backed-off partition becomes fetchable
// (zero: none). It reuses fs's slices and maps and each lane's fetchReq, so
// a round allocates nothing in steady state.
func (c *Consumer) fetchRound(fs *fetchState) time.Time {
	now := time.Now()
	earliest, room := c.collect(fs, now)
	c.startJobs(fs)
	if len(fs.cands) == 0 || room <= 0 {
		return earliest
	}
	slices.Sort(fs.topics)
	md, err := c.cl.Metadata(c.ctx, fs.topics)
	if err != nil {
		if c.ctx.Err() != nil {
			return time.Time{}
		}
		c.backoffAll(fs.cands, now.Add(retryBackoff))
		return now.Add(retryBackoff)
	}
	earliest = earlier(earliest, c.groupByBroker(fs, md, now))
	return earlier(earliest, c.sendGrouped(fs, now))
}

// earlier returns the earlier of two times, zero meaning none.
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// collect snapshots the fetchable partitions into fs.cands (their topics
// into fs.topics), the partitions due a reset or validation into the
// round's jobs, and which lanes have a Fetch in flight into fs.busy. It
// returns the earliest backoff end and the buffer room left (none once
// closed).
func (c *Consumer) collect(fs *fetchState, now time.Time) (earliest time.Time, room int64) {
	cands, topics := fs.cands[:0], fs.topics[:0]
	defer func() { fs.cands, fs.topics = cands, topics }()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return time.Time{}, 0
	}
	room = c.cfg.MaxBufferedBytes - c.buffered - c.reserved
	if cap(cands) < len(c.order) { // sized once, not grown by append
		cands = make([]candidate, 0, len(c.order))
	}
	for _, tp := range c.order {
		st := c.parts[tp]
		if !st.fetchable(now) {
			if st.backingOff(now) && (earliest.IsZero() || st.backoff.Before(earliest)) {
				earliest = st.backoff
			}
			fs.collectJobLocked(st, now)
			continue
		}
		offset, lastEpoch := st.fetchPos()
		cands = append(cands, candidate{tp: tp, offset: offset, lastEpoch: lastEpoch, gen: st.gen, hint: st.hint, known: st.topicID, retired: st.retiredID, moved: st.moved, twin: st.twin})
		if !slices.Contains(topics, tp.Topic) {
			topics = append(topics, tp.Topic)
		}
	}
	clear(fs.busy)
	for l := range c.inflight {
		fs.busy[l] = true
	}
	return earliest, room
}

// groupByBroker sorts the round's candidates under the broker each one's
// Fetch goes to (fs.byBroker), and deals with the rest: partitions without
// a leader back off while metadata is refreshed, partitions of a topic that
// cannot be fetched stop, and partitions whose topic was deleted or
// recreated go to topicIDsChanged. It returns when the next of those is due
// (zero: none).
func (c *Consumer) groupByBroker(fs *fetchState, md *client.Metadata, now time.Time) time.Time {
	var earliest time.Time
	byBroker := fs.byBroker
	for n, l := range byBroker {
		byBroker[n] = l[:0]
	}
	noLeader, caughtUp := fs.noLeader[:0], fs.caughtUp[:0]
	fatal, fatalErr := fs.fatal[:0], fs.fatalErr[:0]
	idChange := fs.idChange[:0]
	for _, cd := range fs.cands {
		tm := md.Topics[cd.tp.Topic]
		if topicIDChanged(cd, tm) {
			idChange = append(idChange, cd)
			continue
		}
		if tm == nil || tm.Err != nil {
			if tm != nil && isFatalTopicErr(tm.Err) {
				fatal, fatalErr = append(fatal, cd), append(fatalErr, tm.Err)
				continue
			}
			noLeader = append(noLeader, cd)
			continue
		}
		pm := findPartition(tm, cd.tp.Partition)
		broker, epoch, ok := fetchBrokerFor(md, pm, cd.hint)
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
		cd.epoch, cd.id = epoch, tm.ID
		byBroker[broker] = append(byBroker[broker], cd)
	}
	fs.noLeader, fs.caughtUp, fs.fatal, fs.fatalErr, fs.idChange = noLeader, caughtUp, fatal, fatalErr, idChange
	defer clear(fatalErr) // keep no errors alive
	// KIP-392: from the leader to the preferred read replica
	c.routeReadReplicas(byBroker, md, now)
	if len(idChange) > 0 {
		earliest = earlier(earliest, c.topicIDsChanged(idChange, md, now))
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
		earliest = earlier(earliest, now.Add(retryBackoff))
	}
	for i, cd := range fatal {
		c.stopPartition(cd, &PartitionError{cd.tp, fatalErr[i]})
	}
	return earliest
}

// fetchBrokerFor returns the broker a partition's Fetch goes to and the
// leader epoch to send with it (CurrentLeaderEpoch): today always the
// leader (leaderOf: metadata's, or a Fetch response's newer hint, KIP-951).
// groupByBroker then moves a partition with a live preferred read replica
// (KIP-392) to that follower's list (routeReadReplicas, read_replica.go).
// ok is false when there is no broker to fetch from.
func fetchBrokerFor(md *client.Metadata, pm *client.PartitionMetadata, hint *leaderHint) (broker, epoch int32, ok bool) {
	return leaderOf(md, pm, hint)
}

// sendGrouped sends a Fetch to every broker of fs.byBroker whose session
// has none in flight (in broker order, while buffer room lasts), and a
// sessionless Fetch of the moved partitions of a broker whose session's
// Fetch is in flight (sendMoved). It returns when a throttled broker may be
// sent one again (zero: none).
func (c *Consumer) sendGrouped(fs *fetchState, now time.Time) time.Time {
	var earliest time.Time
	brokers := fs.brokers[:0]
	for n, l := range fs.byBroker {
		c.dropTwin(fs, n)
		if len(l) == 0 {
			continue
		}
		brokers = append(brokers, n)
	}
	slices.Sort(brokers)
	fs.brokers = brokers
	for _, node := range brokers {
		first, second := c.splitTwins(fs, node, fs.byBroker[node])
		for _, part := range [2]struct {
			twin  bool
			cands []candidate
		}{{false, first}, {true, second}} {
			if len(part.cands) == 0 {
				continue
			}
			session := fetchLane{node: node, twin: part.twin}
			// KIP-219: a throttled broker gets no request until its
			// throttle time has passed.
			if s := fs.sessions[session]; s != nil && now.Before(s.throttledUntil) {
				earliest = earlier(earliest, s.throttledUntil)
				continue
			}
			lane := fetchLane{node: node, side: fs.busy[session], twin: part.twin}
			if lane.side && (fs.busy[lane] || !anyMoved(part.cands)) {
				continue
			}
			if !c.planFetch(fs, lane, part.cands, now) {
				return earliest
			}
		}
	}
	return earliest
}

// planFetch plans the Fetch of lane for its candidates into the lane's
// reusable fetchReq and hands it to the lane's worker: in the session's
// lane every candidate, in the side lane the moved ones (fetch_moved.go).
// It returns false when no buffer room is left (or the consumer closed):
// plan no more.
func (c *Consumer) planFetch(fs *fetchState, lane fetchLane, cands []candidate, now time.Time) bool {
	req := fs.freeReq(lane)
	if req == nil {
		return true // both decoding: an early answer's result comes first
	}
	c.mu.Lock()
	room := c.cfg.MaxBufferedBytes - c.buffered - c.reserved
	if room <= 0 || c.closed {
		c.mu.Unlock()
		return false
	}
	maxBytes := min(room, c.shareBytes())
	req.maxBytes = int32(maxBytes)
	req.askBytes = fs.askBytes(maxBytes)
	req.isolation, req.maxWait, req.minBytes, req.partMax = c.cfg.Isolation, c.cfg.MaxWait, c.cfg.MinBytes, c.cfg.PartitionMaxBytes
	req.rack = c.cfg.Rack
	if lane.side {
		req.maxWait = 0 // never held: a caught-up partition goes back to the session
	}
	clear(req.want)
	clear(req.gens)
	order := req.order[:0]
	if cap(order) < len(cands) {
		order = make([]gregor.TopicPartition, 0, len(cands))
	}
	for _, cd := range cands {
		st := c.parts[cd.tp]
		if st == nil || st.gen != cd.gen || !st.fetchable(now) || (lane.side && !st.moved) {
			continue // changed since the snapshot, or not moved (side lane)
		}
		if st.decoding != nil && st.decoding.twin != lane.twin {
			// Its response is decoded in the other session (a split or
			// join since its early answer): results are ordered within
			// a session only, so it waits for that result.
			continue
		}
		if cd.epoch > st.leaderEpoch {
			if st.buf != nil || st.decoding != nil {
				// A new leader: no fetch ahead; the position is
				// validated once the buffered records are delivered.
				continue
			}
			changed := st.leaderEpoch >= 0
			st.leaderEpoch = cd.epoch
			if changed && st.lastEpoch >= 0 {
				// New leader: validate the position first (KIP-320).
				st.startValidation()
				c.poke()
				continue
			}
		}
		if st.topicID.IsZero() {
			st.topicID = cd.id // the position belongs to this topic ID from now on
		}
		st.gone = false
		if !lane.side {
			st.moved = false // listed in its broker's session again
		}
		st.send(req)
		order = append(order, cd.tp)
		req.gens[cd.tp] = cd.gen
		req.want[cd.tp] = sessionPart{
			TopicID:            cd.id,
			FetchOffset:        cd.offset,
			CurrentLeaderEpoch: cd.epoch,
			LastFetchedEpoch:   cd.lastEpoch,
			MaxBytes:           c.cfg.PartitionMaxBytes,
		}
	}
	req.order = order
	if len(order) == 0 {
		c.mu.Unlock()
		return true
	}
	c.inflight[lane] = req
	c.reserved += maxBytes
	req.reserved = maxBytes
	req.sessionDone = false
	c.m.FetchRequests++
	if lane.side {
		c.m.MovedFetches++
	} else if lane.twin {
		c.m.TwinFetches++
	}
	c.mu.Unlock()

	if lane.side {
		req.plan = sessionlessPlan(req.plan, order)
	} else {
		c.planSession(fs, req, order)
	}
	c.send(fs, req)
	return true
}

// shareBytes is the most one Fetch reserves of the buffer: MaxBytes, and at
// most 1/fetchShare of MaxBufferedBytes.
func (c *Consumer) shareBytes() int64 {
	return min(int64(c.cfg.MaxBytes), max(c.cfg.MaxBufferedBytes/fetchShare, 1))
}

// askBytes is a Fetch's max_bytes for a decode budget of maxBytes: the
// budget over the charge per records-field byte of the last response with
// records (firstChargePerByte before one).
func (fs *fetchState) askBytes(maxBytes int64) int32 {
	perByte := fs.chargePerByte
	if perByte == 0 {
		perByte = firstChargePerByte // no response with records yet
	}
	return int32(max(float64(maxBytes)/max(perByte, 1), 1))
}

// planSession plans req's session fields and partitions in its broker's
// fetch session (KIP-227), creating the session for a new broker.
func (c *Consumer) planSession(fs *fetchState, req *fetchReq, order []gregor.TopicPartition) {
	s := fs.sessions[req.sessionLane()]
	if s == nil {
		s = newFetchSession()
		fs.sessions[req.sessionLane()] = s
	}
	s.buildInto(&req.plan, order, req.want)
	if req.plan.Full {
		c.mu.Lock()
		c.m.FullFetches++
		c.mu.Unlock()
	}
}

// noteCharge updates chargePerByte from a finished Fetch's chunks.
func (fs *fetchState) noteCharge(r *fetchResult) {
	var charge, bytes int64
	for _, ch := range r.chunks {
		if len(ch.records) > 0 {
			charge, bytes = charge+ch.charge(), bytes+ch.bytes
		}
	}
	if bytes > 0 {
		fs.chargePerByte = float64(charge) / float64(bytes)
	}
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

// isFatalTopicErr reports topic errors that retrying cannot fix
// (wire.Fatal; UNKNOWN_TOPIC_OR_PARTITION is retriable, so a topic not
// created yet is waited for).
func isFatalTopicErr(err error) bool { return wire.Fatal(err) }

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
		st.stop(err)
		c.signalLocked()
	}
}
