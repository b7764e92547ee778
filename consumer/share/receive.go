package share

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/wire"
)

// Receive returns between 1 and Config.MaxRecords acquired records, waiting
// for the first until ctx ends (then it returns ctx's error, wrapped as
// client.ErrTimeout or client.ErrCancelled). With AckImplicit it first
// accepts every record delivered before. Pending acknowledgements ride on
// the ShareFetch requests it sends. A fatal membership error (e.g.
// GROUP_AUTHORIZATION_FAILED) is returned as it is. A Close called while
// it waits makes it return ErrClosed (see Close).
func (c *Consumer) Receive(ctx context.Context) ([]Record, error) {
	c.opMu.Lock()
	defer c.opMu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	if c.cfg.AckMode == AckImplicit {
		c.acceptDeliveredLocked()
	}
	if c.hasRenewLocked() {
		c.commitLocked(ctx)
	}
	for {
		select {
		case <-c.closing: // Close waits for opMu: leave what is buffered to it
			return nil, ErrClosed
		default:
		}
		if len(c.buffered) > 0 {
			return c.deliverLocked(), nil
		}
		c.mu.Lock()
		fatal, changed := c.fatal, c.assignChanged
		c.mu.Unlock()
		if fatal != nil {
			return nil, fatal
		}
		if err := ctxErr(ctx); err != nil {
			return nil, err
		}
		select {
		case <-c.clientDone:
			return nil, errClientClosed
		default:
		}
		plans, err := c.planLocked(ctx)
		if err != nil {
			if cerr := ctxErr(ctx); cerr != nil {
				return nil, cerr
			}
			c.t.invalidateMetadata()
			plans = nil
		}
		if len(plans) == 0 {
			// nothing assigned (yet): wait for an assignment, at most MaxWait
			tm := time.NewTimer(c.cfg.MaxWait)
			select {
			case <-ctx.Done():
			case <-changed:
			case <-c.clientDone:
			case <-c.closing:
			case <-tm.C:
			}
			tm.Stop()
			continue
		}
		if err := c.fetchLocked(ctx, plans); err != nil {
			return nil, err
		}
	}
}

// ctxErr maps a finished context to the client's error values.
func ctxErr(ctx context.Context) error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%w: %w", client.ErrTimeout, err)
	default:
		return fmt.Errorf("%w: %w", client.ErrCancelled, err)
	}
}

// deliverLocked returns up to MaxRecords buffered records, marking them
// delivered: a chunk cut from the current block, no copy (see Recycle).
func (c *Consumer) deliverLocked() []Record {
	n := min(len(c.buffered), c.cfg.MaxRecords)
	out := c.buffered[:n:n]
	c.buffered = c.buffered[n:]
	last := len(c.buffered) == 0
	c.pool.deliver(c.cur, out, last)
	if last {
		c.buffered, c.cur = nil, nil
	}
	for i := range out {
		c.bufferedBytes -= recordBytes(&out[i].Record)
		tp := out[i].TopicPartition()
		if h, ok := c.held[tp][out[i].Offset]; ok {
			h.delivered = true
			c.held[tp][out[i].Offset] = h
		}
	}
	return out
}

// TopicPartition returns the record's topic and partition.
func (r *Record) TopicPartition() gregor.TopicPartition {
	return gregor.TopicPartition{Topic: r.Topic, Partition: r.Partition}
}

func recordBytes(r *consumer.Record) int {
	n := len(r.Key) + len(r.Value)
	for _, h := range r.Headers {
		n += len(h.Key) + len(h.Value)
	}
	return n
}

// fetchPlan is one broker's ShareFetch.
type fetchPlan struct {
	node   int32
	epoch  int32
	add    []gregor.TopicPartition
	addIDs []wire.UUID // add's topic IDs, as the request names them
	forget []gregor.TopicPartition
	acks   []ack
	req    *wire.ShareFetchRequest
	resp   *wire.ShareFetchResponse
	err    error
}

// planLocked builds one ShareFetch per broker that leads an assigned
// partition, holds a session with partitions to forget, or has pending
// acknowledgements.
func (c *Consumer) planLocked(ctx context.Context) ([]*fetchPlan, error) {
	c.mu.Lock()
	assigned := make([]gregor.TopicPartition, 0, len(c.assigned))
	for tp := range c.assigned {
		assigned = append(assigned, tp)
	}
	c.mu.Unlock()
	md, err := c.t.metadata(ctx, c.cfg.Topics)
	if err != nil {
		return nil, err
	}
	want := map[int32]map[gregor.TopicPartition]struct{}{}
	for _, tp := range assigned {
		leader, ok := md[tp.Topic].leaders[tp.Partition]
		if !ok || leader < 0 {
			continue
		}
		if want[leader] == nil {
			want[leader] = map[gregor.TopicPartition]struct{}{}
		}
		want[leader][tp] = struct{}{}
	}
	// The plans' acknowledgements are runs of c.sending by node: c.pending
	// collects the round's gaps and releases meanwhile.
	c.sending, c.pending = c.pending, c.sending[:0]
	slices.SortStableFunc(c.sending, func(a, b ack) int { return cmp.Compare(a.node, b.node) })
	acksByNode := map[int32][]ack{}
	for i := 0; i < len(c.sending); {
		j := i + 1
		for j < len(c.sending) && c.sending[j].node == c.sending[i].node {
			j++
		}
		acksByNode[c.sending[i].node] = c.sending[i:j:j]
		i = j
	}
	nodes := map[int32]bool{}
	for n := range want {
		nodes[n] = true
	}
	for n := range acksByNode {
		nodes[n] = true
	}
	for n, s := range c.sessions {
		if len(s.parts) > 0 {
			nodes[n] = true
		}
	}
	room := c.cfg.MaxBufferedBytes - c.bufferedBytes
	budget := c.cfg.MaxRecords
	if len(want) > 1 {
		budget = max(1, budget/len(want))
	}
	var plans []*fetchPlan
	for n := range nodes {
		s := c.sessions[n]
		if s == nil {
			s = &session{}
			s.reset()
			c.sessions[n] = s
		}
		if s.epoch != 0 && s.recreated(md) {
			// A topic was recreated: open a new session under the new
			// IDs (acknowledgements of this session fail NotSent below;
			// their records are delivered again).
			s.reset()
		}
		p := &fetchPlan{node: n, epoch: s.epoch}
		acks := acksByNode[n]
		if s.epoch == 0 && len(acks) > 0 {
			// acknowledgements need the session that acquired the records
			c.failAcksLocked(acks, &client.RequestError{Broker: n, API: "ShareFetch", Certainty: client.NotSent, Err: wire.ErrShareSessionNotFound})
			acks = nil
		}
		p.acks = acks
		for tp := range want[n] {
			if _, in := s.parts[tp]; !in || s.epoch == 0 {
				p.add = append(p.add, tp)
				p.addIDs = append(p.addIDs, md[tp.Topic].id)
			}
		}
		if s.epoch != 0 {
			for tp := range s.parts {
				if _, ok := want[n][tp]; !ok {
					p.forget = append(p.forget, tp)
				}
			}
		}
		if len(want[n]) == 0 && len(p.acks) == 0 && len(p.forget) == 0 {
			continue
		}
		p.req = c.shareFetchRequest(p, md, room, budget, len(want[n]) > 0)
		plans = append(plans, p)
	}
	return plans, nil
}

// shareFetchRequest encodes a plan.
func (c *Consumer) shareFetchRequest(p *fetchPlan, md map[string]topicMeta, room, budget int, fetch bool) *wire.ShareFetchRequest {
	group, member := c.cfg.GroupID, c.memberID
	req := &wire.ShareFetchRequest{
		GroupID: &group, MemberID: &member, ShareSessionEpoch: p.epoch,
		MaxWaitMs: int32(c.cfg.MaxWait / time.Millisecond), MinBytes: 1, MaxBytes: int32(max(1, min(room, 1<<30))),
		MaxRecords: int32(budget), BatchSize: int32(c.cfg.BatchSize), ShareAcquireMode: wire.ShareAcquireRecordLimit,
	}
	if !fetch || room <= 0 {
		// acknowledge (and forget) only: no partition is fetched
		req.MaxWaitMs, req.MaxRecords = 0, 1
	}
	topicIdx := map[string]int{}
	partIdx := map[gregor.TopicPartition]int{}
	slot := func(tp gregor.TopicPartition) *wire.ShareFetchPartition {
		i, ok := topicIdx[tp.Topic]
		if !ok {
			i = len(req.Topics)
			topicIdx[tp.Topic] = i
			req.Topics = append(req.Topics, wire.ShareFetchTopic{TopicID: md[tp.Topic].id})
		}
		t := &req.Topics[i]
		j, ok := partIdx[tp]
		if !ok {
			j = len(t.Partitions)
			partIdx[tp] = j
			t.Partitions = append(t.Partitions, wire.ShareFetchPartition{PartitionIndex: tp.Partition})
		}
		return &t.Partitions[j]
	}
	for _, tp := range p.add {
		slot(tp)
	}
	order, by := groupAcks(p.acks)
	for _, tp := range order {
		slot(tp).AcknowledgementBatches = ackBatches(by[tp])
	}
	fIdx := map[string]int{}
	for _, tp := range p.forget {
		i, ok := fIdx[tp.Topic]
		if !ok {
			i = len(req.ForgottenTopicsData)
			fIdx[tp.Topic] = i
			req.ForgottenTopicsData = append(req.ForgottenTopicsData, wire.ShareForgottenTopic{TopicID: md[tp.Topic].id})
		}
		req.ForgottenTopicsData[i].Partitions = append(req.ForgottenTopicsData[i].Partitions, tp.Partition)
	}
	return req
}

// answerGrace bounds how long a ShareFetch's answer is awaited beyond its
// long-poll.
const answerGrace = 15 * time.Second

// fetchLocked sends the plans concurrently and applies the responses. The
// long-poll ends by ctx's deadline, but an answer is awaited even after ctx
// ends (at most MaxWait plus answerGrace): abandoning a ShareFetch would
// leave the session epoch unknown, and reopening the session would cost
// the records it holds.
func (c *Consumer) fetchLocked(ctx context.Context, plans []*fetchPlan) error {
	if dl, ok := ctx.Deadline(); ok {
		left := max(0, time.Until(dl)/time.Millisecond)
		for _, p := range plans {
			p.req.MaxWaitMs = min(p.req.MaxWaitMs, int32(min(left, 1<<30)))
		}
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.MaxWait+answerGrace)
	defer cancel()
	// Nothing is buffered: this round's records go to a fresh block.
	c.cur, c.inflated = c.pool.get(), 0
	c.buffered = c.cur.recs
	defer func() {
		c.cur.recs = c.buffered
		c.pool.filled(c.cur, c.inflated)
		if len(c.buffered) == 0 {
			c.buffered, c.cur = nil, nil
		}
	}()
	var wg sync.WaitGroup
	for _, p := range plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.t.request(fctx, p.node, p.req)
			if err == nil {
				p.resp = resp.(*wire.ShareFetchResponse)
			}
			p.err = err
		}()
	}
	wg.Wait()
	var fatal error
	for _, p := range plans {
		if err := c.applyFetchLocked(p); err != nil && fatal == nil {
			fatal = err
		}
	}
	return fatal
}

// applyFetchLocked applies one ShareFetch outcome: session epoch and
// partitions, acknowledgement results, acquired records. It returns a
// top-level error that Receive should report.
func (c *Consumer) applyFetchLocked(p *fetchPlan) error {
	s := c.sessions[p.node]
	if p.err != nil {
		s.reset()
		c.failAcksLocked(p.acks, p.err)
		return nil
	}
	if kerr := wire.ErrorForCode(p.resp.ErrorCode); kerr != nil {
		s.reset()
		c.failAcksLocked(p.acks, kerr)
		// SHARE_SESSION_NOT_FOUND, INVALID_SHARE_SESSION_EPOCH and the
		// stale-metadata codes are retriable too (TestActionTable).
		if wire.Retriable(kerr) {
			return nil
		}
		return kerr
	}
	s.epoch = nextEpoch(s.epoch)
	for i, tp := range p.add {
		s.parts[tp] = p.addIDs[i]
	}
	for _, tp := range p.forget {
		delete(s.parts, tp)
	}
	names := c.idNames()
	_, acksBy := groupAcks(p.acks)
	answered := map[gregor.TopicPartition]bool{}
	for _, t := range p.resp.Responses {
		name, ok := names[t.TopicID]
		if !ok {
			continue
		}
		for i := range t.Partitions {
			pr := &t.Partitions[i]
			tp := gregor.TopicPartition{Topic: name, Partition: pr.PartitionIndex}
			if acks, ok := acksBy[tp]; ok {
				answered[tp] = true
				c.ackResultsLocked(acks, wire.ErrorForCode(pr.AcknowledgeErrorCode))
			}
			if ferr := wire.ErrorForCode(pr.ErrorCode); ferr != nil {
				if client.StaleMetadata(ferr) {
					c.t.invalidateMetadata()
				}
				delete(s.parts, tp) // the next plan adds it where it is led
				continue
			}
			c.acquireLocked(p.node, tp, pr)
		}
	}
	for tp, acks := range acksBy {
		if !answered[tp] {
			c.failAcksLocked(acks, fmt.Errorf("%w: no acknowledgement result for %s", client.ErrProtocol, tp))
		}
	}
	return nil
}

// idNames maps subscribed topic IDs to names.
func (c *Consumer) idNames() map[wire.UUID]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[wire.UUID]string, len(c.topicIDs))
	for n, id := range c.topicIDs {
		out[id] = n
	}
	return out
}

// acquireLocked buffers the records of pr inside its acquired ranges, with
// their ranges' delivery counts, in offset order of the ranges as sent.
// Acquired offsets with no record in a complete fetched batch are
// acknowledged as gaps; acquired offsets past the last complete batch are
// released.
func (c *Consumer) acquireLocked(node int32, tp gregor.TopicPartition, pr *wire.ShareFetchPartitionResponse) {
	if len(pr.AcquiredRecords) == 0 {
		return
	}
	recs, next := c.decodeAcquiredLocked(tp, pr)
	if c.hooks.Fetch() && len(recs) > 0 {
		c.hooks.FetchBatch(client.BatchEvent{Topic: tp.Topic, Partition: tp.Partition, Broker: node, Records: len(recs), Bytes: len(pr.Records), BaseOffset: recs[0].Offset, LastOffset: recs[len(recs)-1].Offset, HighWatermark: -1})
	}
	at := func(off int64) (int, bool) {
		return slices.BinarySearchFunc(recs, off, func(r consumer.Record, o int64) int { return cmp.Compare(r.Offset, o) })
	}
	defer clear(recs) // c.decoded: drop what the records point to
	held := c.held[tp]
	if held == nil {
		held = map[int64]heldRecord{}
		c.held[tp] = held
	}
	for _, ar := range pr.AcquiredRecords {
		if ar.LastOffset < ar.FirstOffset {
			continue
		}
		for off := ar.FirstOffset; off <= ar.LastOffset; off++ {
			i, ok := at(off)
			switch {
			case ok:
				if old, ok := held[off]; ok && !old.delivered {
					old.deliveryCount, old.node = ar.DeliveryCount, node
					held[off] = old
					continue // still buffered from an earlier delivery
				}
				held[off] = heldRecord{node: node, deliveryCount: ar.DeliveryCount}
				c.buffered = append(c.buffered, Record{Record: recs[i], DeliveryCount: ar.DeliveryCount})
				c.bufferedBytes += recordBytes(&recs[i])
			case off < next:
				c.pending = append(c.pending, ack{tp: tp, offset: off, node: node, typ: wire.AckGap})
			default:
				c.pending = append(c.pending, ack{tp: tp, offset: off, node: node, typ: wire.AckRelease})
			}
		}
	}
}
