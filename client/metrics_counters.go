package client

import (
	"sync"
	"sync/atomic"
	"time"
)

// failClass is the failure class a terminal request failure is counted under.
type failClass uint8

const (
	classNone failClass = iota
	classDNS
	classConnect
	classTransport
	classNegotiation
	classAuthentication
	classDeadline
	classRejected
	classResponseTooLarge
	classUnknownBroker
)

// latency stages, indexes into counters.lat.
const (
	stageSlotWait = iota
	stageRoute
	stageEncode
	stageWriterWait
	stageInFlight
	stageCall
	stageDeadlineOverrun
	numStages
)

type latencyCounter struct {
	samples, totalNs, maxNs atomic.Uint64
}

func (l *latencyCounter) observe(d time.Duration) {
	if d < 0 {
		d = 0
	}
	ns := uint64(d)
	l.samples.Add(1)
	l.totalNs.Add(ns)
	for {
		m := l.maxNs.Load()
		if ns <= m || l.maxNs.CompareAndSwap(m, ns) {
			return
		}
	}
}

func (l *latencyCounter) snapshot() DurationStats {
	return DurationStats{Count: l.samples.Load(), Total: time.Duration(l.totalNs.Load()), Max: time.Duration(l.maxNs.Load())}
}

// counters are the client's live metrics; every field is updated with atomics
// as work happens so Metrics can read them at any time.
type counters struct {
	admitted, succeeded, failed, abandoned, notSent, possiblySent atomic.Uint64

	fail [classUnknownBroker + 1]atomic.Uint64

	queuedWork                 atomic.Int64
	workFull, closedRejections atomic.Uint64

	lat [numStages]latencyCounter

	connsOpened, connsClosed, reauths atomic.Uint64
	rebootstraps                      atomic.Uint64
	laneOpened, laneClosed            [NumLanes]atomic.Uint64

	prodMu  sync.Mutex
	prodSrc map[uint64]func(*ProducerMetrics)                      // guarded by prodMu
	partSrc map[uint64]func([]PartitionMetrics) []PartitionMetrics // guarded by prodMu
	prodSeq uint64                                                 // guarded by prodMu
}

// terminal records the one terminal outcome of a call.
func (m *counters) terminal(err error, admitted time.Time) {
	m.lat[stageCall].observe(time.Since(admitted))
	if err == nil {
		m.succeeded.Add(1)
		return
	}
	m.failed.Add(1)
	if CertaintyOf(err) == NotSent {
		m.notSent.Add(1)
	} else {
		m.possiblySent.Add(1)
	}
	if c := classOf(err); c != classNone {
		m.fail[c].Add(1)
	}
}

// Metrics returns a snapshot of the client's counters and gauges, with the
// registered producers' metrics summed into Producer (peaks take the max).
// It does no I/O and may be called at any time, also after Close.
func (c *Client) Metrics() MetricsSnapshot {
	m := &c.m
	var s MetricsSnapshot
	s.Calls = CallMetrics{
		Started:        m.admitted.Load(),
		Succeeded:      m.succeeded.Load(),
		Failed:         m.failed.Load(),
		Abandoned:      m.abandoned.Load(),
		NotSent:        m.notSent.Load(),
		PossiblySent:   m.possiblySent.Load(),
		RejectedClosed: m.closedRejections.Load(),
	}
	s.Failures = FailureMetrics{
		DNS:              m.fail[classDNS].Load(),
		Connect:          m.fail[classConnect].Load(),
		Transport:        m.fail[classTransport].Load(),
		Negotiation:      m.fail[classNegotiation].Load(),
		Authentication:   m.fail[classAuthentication].Load(),
		Deadline:         m.fail[classDeadline].Load(),
		Rejected:         m.fail[classRejected].Load(),
		ResponseTooLarge: m.fail[classResponseTooLarge].Load(),
		UnknownBroker:    m.fail[classUnknownBroker].Load(),
	}
	s.Conns = ConnMetrics{Opened: m.connsOpened.Load(), Closed: m.connsClosed.Load(), Reauthentications: m.reauths.Load(), Rebootstraps: m.rebootstraps.Load()}
	for l := range NumLanes {
		s.Lanes[l].Opened, s.Lanes[l].Closed = m.laneOpened[l].Load(), m.laneClosed[l].Load()
	}
	s.Requests = c.hists.snapshot()
	for _, cn := range c.pool.live() {
		s.Lanes[cn.lane].Connections++
		s.Lanes[cn.lane].InFlight += cn.inFlight()
	}
	s.Slots = SlotMetrics{
		MaxInFlight: c.cfg.MaxInFlightPerBroker,
		Waiting:     int(max(m.queuedWork.Load(), 0)),
		Waited:      m.workFull.Load(),
	}
	s.Stages = StageLatencies{
		Route:           m.lat[stageRoute].snapshot(),
		SlotWait:        m.lat[stageSlotWait].snapshot(),
		WriterWait:      m.lat[stageWriterWait].snapshot(),
		Encode:          m.lat[stageEncode].snapshot(),
		InFlight:        m.lat[stageInFlight].snapshot(),
		Call:            m.lat[stageCall].snapshot(),
		DeadlineOverrun: m.lat[stageDeadlineOverrun].snapshot(),
	}
	m.prodMu.Lock()
	srcs := make([]func(*ProducerMetrics), 0, len(m.prodSrc))
	for _, f := range m.prodSrc {
		srcs = append(srcs, f)
	}
	psrcs := make([]func([]PartitionMetrics) []PartitionMetrics, 0, len(m.partSrc))
	for _, f := range m.partSrc {
		psrcs = append(psrcs, f)
	}
	m.prodMu.Unlock()
	for i, f := range srcs {
		var p ProducerMetrics
		f(&p)
		sumProducer(&s.Producer, &p, i == 0)
	}
	var parts []PartitionMetrics
	for _, f := range psrcs {
		parts = f(parts)
	}
	s.Partitions = mergePartitions(parts)
	return s
}

// sumProducer adds p into dst: counts and gauges add, peaks take the max,
// Accepting and Healthy hold when they hold for every producer (and are
// false when none is registered).
func sumProducer(dst, p *ProducerMetrics, first bool) {
	dst.BufferedRecords += p.BufferedRecords
	dst.BufferedBytes += p.BufferedBytes
	dst.WaitingRecords += p.WaitingRecords
	dst.WaitingBytes += p.WaitingBytes
	dst.SealedBatches += p.SealedBatches
	dst.SealedBatchBytes += p.SealedBatchBytes
	dst.UnreadResults += p.UnreadResults
	dst.Requests += p.Requests
	dst.Batches += p.Batches
	dst.Records += p.Records
	dst.Bytes += p.Bytes
	dst.PeakInFlight = max(dst.PeakInFlight, p.PeakInFlight)
	dst.PeakInFlightPerBroker = max(dst.PeakInFlightPerBroker, p.PeakInFlightPerBroker)
	if first {
		dst.Accepting, dst.Healthy = p.Accepting, p.Healthy
	} else {
		dst.Accepting = dst.Accepting && p.Accepting
		dst.Healthy = dst.Healthy && p.Healthy
	}
}

// RegisterProducerMetrics adds src, called on every Metrics snapshot to fill
// a zeroed ProducerMetrics that is then summed with the other sources. src
// must be safe to call from any goroutine and must not call Metrics. The
// returned function removes src; calling it twice is harmless.
func (c *Client) RegisterProducerMetrics(src func(*ProducerMetrics)) (unregister func()) {
	m := &c.m
	m.prodMu.Lock()
	defer m.prodMu.Unlock()
	if m.prodSrc == nil {
		m.prodSrc = make(map[uint64]func(*ProducerMetrics))
	}
	m.prodSeq++
	id := m.prodSeq
	m.prodSrc[id] = src
	return func() {
		m.prodMu.Lock()
		delete(m.prodSrc, id)
		m.prodMu.Unlock()
	}
}

// RegisterPartitionMetrics adds src, called on every Metrics snapshot to
// append its partitions' metrics to dst and return it; entries several
// sources give for one partition are merged as PartitionMetrics describes.
// src must be safe to call from any goroutine and must not call Metrics.
// The returned function removes src; calling it twice is harmless.
func (c *Client) RegisterPartitionMetrics(src func(dst []PartitionMetrics) []PartitionMetrics) (unregister func()) {
	m := &c.m
	m.prodMu.Lock()
	defer m.prodMu.Unlock()
	if m.partSrc == nil {
		m.partSrc = make(map[uint64]func([]PartitionMetrics) []PartitionMetrics)
	}
	m.prodSeq++
	id := m.prodSeq
	m.partSrc[id] = src
	return func() {
		m.prodMu.Lock()
		delete(m.partSrc, id)
		m.prodMu.Unlock()
	}
}
