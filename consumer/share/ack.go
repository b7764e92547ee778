package share

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// Acknowledge records how r (a record Receive returned) is acknowledged; the
// acknowledgement is sent with the next Receive (piggy-backed on ShareFetch),
// Commit or Close. Acknowledging a record again before it is sent replaces
// the type. It fails with ErrNotDelivered when r is not held as delivered,
// ErrClosed after Close.
func (c *Consumer) Acknowledge(r *Record, t AcknowledgeType) error {
	if t < Accept || t > Renew {
		return fmt.Errorf("share: invalid acknowledge type %d", t)
	}
	c.opMu.Lock()
	defer c.opMu.Unlock()
	if c.closed {
		return ErrClosed
	}
	tp := r.TopicPartition()
	h, ok := c.held[tp][r.Offset]
	if !ok || !h.delivered {
		return fmt.Errorf("%w: %s offset %d", ErrNotDelivered, tp, r.Offset)
	}
	if h.acked {
		for i := range c.pending {
			if a := &c.pending[i]; a.tp == tp && a.offset == r.Offset && a.report {
				a.typ = int8(t)
				return nil
			}
		}
		return fmt.Errorf("%w: %s offset %d is being acknowledged", ErrNotDelivered, tp, r.Offset)
	}
	h.acked = true
	c.held[tp][r.Offset] = h
	c.pending = append(c.pending, ack{tp: tp, offset: r.Offset, node: h.node, typ: int8(t), report: true})
	return nil
}

// Commit sends every pending acknowledgement now with ShareAcknowledge, one
// request per broker (with AckImplicit, accepting every delivered record not
// acknowledged otherwise first), and returns the outcome of every
// acknowledgement not yet reported, these included (see TakeAckResults).
// Outcomes are per record; ctx bounds the requests.
func (c *Consumer) Commit(ctx context.Context) ([]AckResult, error) {
	c.opMu.Lock()
	defer c.opMu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	if c.cfg.AckMode == AckImplicit {
		c.acceptDeliveredLocked()
	}
	c.commitLocked(ctx)
	return c.results.take(), nil
}

// acceptDeliveredLocked queues Accept for every delivered record without an
// acknowledgement (implicit mode).
func (c *Consumer) acceptDeliveredLocked() {
	for tp, offs := range c.held {
		for off, h := range offs {
			if h.delivered && !h.acked {
				h.acked = true
				offs[off] = h
				c.pending = append(c.pending, ack{tp: tp, offset: off, node: h.node, typ: wire.AckAccept, report: true})
			}
		}
	}
}

func (c *Consumer) hasRenewLocked() bool {
	for _, a := range c.pending {
		if a.typ == wire.AckRenew {
			return true
		}
	}
	return false
}

// commitLocked sends the pending acknowledgements with ShareAcknowledge at
// each broker's next session epoch; failures are in the results.
func (c *Consumer) commitLocked(ctx context.Context) {
	_ = c.sendAcksLocked(ctx, false)
}

// sendAcksLocked sends one ShareAcknowledge per broker with pending
// acknowledgements (final: per broker with a session, at epoch -1, closing
// it). It returns the first request that failed as a whole (transport or
// top-level error); per-record outcomes go to the results.
func (c *Consumer) sendAcksLocked(ctx context.Context, final bool) error {
	byNode := map[int32][]ack{}
	for _, a := range c.pending {
		byNode[a.node] = append(byNode[a.node], a)
	}
	c.pending = c.pending[:0]
	if final {
		for n, s := range c.sessions {
			if s.epoch != 0 {
				if _, ok := byNode[n]; !ok {
					byNode[n] = nil
				}
			}
		}
	}
	md := c.topicIDsLocked()
	type call struct {
		node int32
		acks []ack
		req  *wire.ShareAcknowledgeRequest
		resp *wire.ShareAcknowledgeResponse
		err  error
	}
	var calls []*call
	for n, acks := range byNode {
		s := c.sessions[n]
		if s == nil || s.epoch == 0 {
			c.failAcksLocked(acks, &client.RequestError{Broker: n, API: "ShareAcknowledge", Certainty: client.NotSent, Err: wire.ErrShareSessionNotFound})
			continue
		}
		epoch := s.epoch
		if final {
			epoch = -1
		}
		group, member := c.cfg.GroupID, c.memberID
		req := &wire.ShareAcknowledgeRequest{GroupID: &group, MemberID: &member, ShareSessionEpoch: epoch}
		order, by := groupAcks(acks)
		tIdx := map[string]int{}
		for _, tp := range order {
			i, ok := tIdx[tp.Topic]
			if !ok {
				i = len(req.Topics)
				tIdx[tp.Topic] = i
				req.Topics = append(req.Topics, wire.ShareAcknowledgeTopic{TopicID: md[tp.Topic]})
			}
			req.Topics[i].Partitions = append(req.Topics[i].Partitions, wire.ShareAcknowledgePartition{PartitionIndex: tp.Partition, AcknowledgementBatches: ackBatches(by[tp])})
		}
		for _, a := range acks {
			req.IsRenewAck = req.IsRenewAck || a.typ == wire.AckRenew
		}
		calls = append(calls, &call{node: n, acks: acks, req: req})
	}
	var wg sync.WaitGroup
	for _, cl := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.t.request(ctx, cl.node, cl.req)
			if err == nil {
				cl.resp = resp.(*wire.ShareAcknowledgeResponse)
			}
			cl.err = err
		}()
	}
	wg.Wait()
	names := c.idNames()
	var first error
	for _, cl := range calls {
		s := c.sessions[cl.node]
		if final || cl.err != nil {
			s.reset()
		}
		if cl.err != nil {
			c.failAcksLocked(cl.acks, cl.err)
			first = cmp.Or(first, cl.err)
			continue
		}
		if kerr := wire.ErrorForCode(cl.resp.ErrorCode); kerr != nil {
			s.reset()
			c.failAcksLocked(cl.acks, kerr)
			first = cmp.Or(first, kerr)
			continue
		}
		if !final {
			s.epoch = nextEpoch(s.epoch)
		}
		_, by := groupAcks(cl.acks)
		for _, t := range cl.resp.Responses {
			name := names[t.TopicID]
			for _, pr := range t.Partitions {
				tp := gregor.TopicPartition{Topic: name, Partition: pr.PartitionIndex}
				if acks, ok := by[tp]; ok {
					c.ackResultsLocked(acks, wire.ErrorForCode(pr.ErrorCode))
					delete(by, tp)
				}
			}
		}
		for tp, acks := range by {
			c.failAcksLocked(acks, fmt.Errorf("%w: no acknowledgement result for %s", client.ErrProtocol, tp))
		}
	}
	return first
}

// topicIDsLocked returns the subscribed topics' IDs.
func (c *Consumer) topicIDsLocked() map[string]wire.UUID {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]wire.UUID, len(c.topicIDs))
	for n, id := range c.topicIDs {
		out[n] = id
	}
	return out
}

// failAcksLocked reports acks as failed with err.
func (c *Consumer) failAcksLocked(acks []ack, err error) {
	if err == nil {
		err = errors.New("share: acknowledgement failed")
	}
	c.ackResultsLocked(acks, err)
}

// ackResultsLocked records the outcome of acks: a finished acknowledgement
// (any outcome but a successful Renew) ends the consumer's hold on the
// record; a failed Renew leaves it held and acknowledgeable.
func (c *Consumer) ackResultsLocked(acks []ack, err error) {
	for _, a := range acks {
		if offs := c.held[a.tp]; offs != nil {
			if h, ok := offs[a.offset]; ok && h.node == a.node {
				if a.typ == wire.AckRenew {
					h.acked = false
					offs[a.offset] = h
				} else {
					delete(offs, a.offset)
				}
			}
		}
		if a.report {
			c.keepResultLocked(AckResult{TopicPartition: a.tp, Offset: a.offset, Type: AcknowledgeType(a.typ), Err: err})
		}
	}
}

// keepResultLocked keeps r for the application within MaxAckResults
// (ackResults: past it a success is dropped, a failure replaces the oldest
// kept success).
func (c *Consumer) keepResultLocked(r AckResult) { c.results.keep(r, c.cfg.MaxAckResults) }
