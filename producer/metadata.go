package producer

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// applyTopicLocked applies md's entry for t, if it has one: error, topic ID,
// partition count, available partitions and leaders; a recreated topic's
// partitions restart their sequences (restartSequenceLocked).
func (p *Producer) applyTopicLocked(t *topicState, md *client.Metadata) {
	tm := md.Topics[t.name]
	if tm == nil {
		return
	}
	t.metaErr, t.metaErrAt = tm.Err, md.Fetched
	if errors.Is(tm.Err, wire.ErrUnknownTopicOrPartition) {
		if md.Fetched.After(t.unknownAt) {
			t.unknown++
			t.unknownAt = md.Fetched
		}
	} else {
		t.unknown = 0
	}
	t.id = tm.ID
	if tm.Err == nil && len(tm.Partitions) > 0 {
		t.numParts = int32(len(tm.Partitions))
		t.avail = t.avail[:0]
		for _, pm := range tm.Partitions {
			if pm.Leader >= 0 {
				t.avail = append(t.avail, pm.Partition)
			}
		}
		if p.cfg.RackAwarePartitioning {
			t.availRack = inRack(t.availRack[:0], tm, md, p.cfg.Rack)
		}
	}
	for _, ps := range t.parts {
		if ps == nil {
			continue
		}
		ps.leader = leaderIn(tm, ps.partition)
		p.restartSequenceLocked(ps)
	}
}

// metadataChangedLocked reports whether the client holds a metadata snapshot the
// producer has not applied (nor set aside as stale).
func (p *Producer) metadataChangedLocked() bool {
	return p.meta.changed(p.cl.CachedMetadata())
}

// syncMetadataLocked is the sender's metadata step of collect: apply the
// client's cached metadata (applyMetadataLocked), then partition, expire or
// fail the records that waited for their topic's partitions
// (placeUnassignedLocked), then ask the brokers about partitions without a
// leader (refreshLeaderlessLocked). Only the sender goroutine runs it: the
// last two schedule its next look (soonLocked writes p.next).
func (p *Producer) syncMetadataLocked(now time.Time) {
	p.applyMetadataLocked()
	for _, t := range p.topics {
		if t.unassigned != nil {
			p.placeUnassignedLocked(t, now)
		}
	}
	p.refreshLeaderlessLocked(now)
}

// applyMetadataLocked applies the client's cached metadata when it changed:
// partition leaders, partition counts and topic IDs (applyTopicLocked). It
// writes only fields guarded by p.mu, so any goroutine holding p.mu may
// run it: the sender (syncMetadataLocked) and, with Config.PinTopicIDs,
// admitLocked, which pins a record to the topic ID the client knows now.
// It leaves waiting records where they are: a topic's partitions may now
// be known while its unassigned batch still waits for the sender
// (admitLocked keeps later records behind it).
func (p *Producer) applyMetadataLocked() {
	if !p.metadataChangedLocked() {
		return
	}
	md := p.cl.CachedMetadata()
	p.meta.last = md
	for _, t := range p.topics {
		p.applyTopicLocked(t, md)
	}
	p.clk.invalidate() // records admitted from now on are dated after md.Fetched
	p.walk = true      // leaders and per-topic conditions changed: the sender looks at every partition
}

// placeUnassignedLocked settles t's unassigned batch (records that waited
// for the topic's partitions): partitioned into their batches once the
// topic has partitions, failed at their delivery deadline or by a fatal
// metadata error (fatalForLocked), else left waiting with a refresh
// started and the sender's next look at their deadline. Sender only.
func (p *Producer) placeUnassignedLocked(t *topicState, now time.Time) {
	u := t.unassigned
	switch {
	case u.live == 0:
	case t.numParts > 0:
		p.partitionUnassignedLocked(t, u, now)
	case !now.Before(u.deadline):
		p.failBatchLocked(u, p.timeoutErrLocked(u), client.NotSent)
	default:
		if err := p.fatalForLocked(u, now); err != nil {
			p.failBatchLocked(u, err, client.NotSent)
			break
		}
		p.soonLocked(u.deadline)
		p.needMetadataLocked(now)
		return
	}
	t.unassigned = nil
	p.recycleLocked(u)
}

// partitionUnassignedLocked moves each live record of u, in order, to the
// open batch of the partition the partitioner chooses for it; a batch
// opened for them keeps u's creation time and delivery deadline.
func (p *Producer) partitionUnassignedLocked(t *topicState, u *batch, now time.Time) {
	for i := range u.recs {
		r := &u.recs[i]
		if r.d == nil || r.cancelled {
			continue
		}
		part := p.partLocked(t, p.chooseLocked(t, u.key(i), int(r.size)))
		b := p.openBatchLocked(part, int(r.size), now)
		if u.created.Before(b.created) {
			b.created, b.deadline = u.created, u.deadline
		}
		b.moveFrom(&p.pools, u, i)
		if u.lastAdmit.After(b.lastAdmit) {
			b.lastAdmit = u.lastAdmit
		}
		r.d = nil
	}
}

// refreshLeaderlessLocked starts a forced metadata refresh when a partition
// with batches has no leader in the client's cached snapshot (or no such
// partition: one just added): only the brokers can tell more.
func (p *Producer) refreshLeaderlessLocked(now time.Time) {
	if p.leaderlessLocked() { // the leaderless broker queue (ready.go) holds a batch
		p.refreshMetadataLocked(now, true)
	}
}

// needMetadataLocked starts one background metadata refresh for the producer's
// topics unless one is running or backing off.
func (p *Producer) needMetadataLocked(now time.Time) { p.refreshMetadataLocked(now, false) }

// refreshMetadataLocked is needMetadataLocked; with force the refresh asks
// the brokers even when the client's cached snapshot is current.
func (p *Producer) refreshMetadataLocked(now time.Time, force bool) {
	if ok, again := p.meta.start(now); !ok {
		if !again.IsZero() {
			p.soonLocked(again)
		}
		return
	}
	topics := make([]string, 0, len(p.topics))
	unknown := 0 // the longest run of refreshes reporting a topic unknown
	for name, t := range p.topics {
		topics = append(topics, name)
		unknown = max(unknown, t.unknown)
	}
	if force {
		p.cl.InvalidateMetadata()
	}
	go func() {
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		md, err := p.cl.Metadata(ctx, topics)
		cancel()
		p.mu.Lock()
		p.meta.finished(md, err, time.Now(), metadataBackoff(p.cfg.backoff, unknown))
		if err != nil {
			for _, name := range topics {
				if t := p.topics[name]; t != nil && t.metaErr == nil {
					t.metaErr, t.metaErrAt = err, time.Now()
				}
			}
			p.clk.invalidate() // later records are dated after metaErrAt
			p.walk = true      // a fatal metaErr fails batches (fatalForLocked)
		}
		p.mu.Unlock()
		p.wakeup()
	}()
}

// maxUnknownTopicBackoff caps the wait between metadata refreshes while a
// topic is reported unknown.
const maxUnknownTopicBackoff = time.Second

// metadataBackoff is the wait before the producer's next metadata refresh:
// RetryBackoff (at least 50ms), doubling per refresh in a row that reported
// a topic unknown, up to maxUnknownTopicBackoff, so UnknownTopicRetries
// refreshes span a few seconds rather than a few round trips.
func metadataBackoff(backoff time.Duration, unknown int) time.Duration {
	d := max(backoff, 50*time.Millisecond)
	if unknown > 0 {
		d = min(d<<min(unknown, 10), max(maxUnknownTopicBackoff, d))
	}
	return d
}

// leaderIn returns a partition's leader in topic metadata, or -1.
func leaderIn(tm *client.TopicMetadata, partition int32) int32 {
	if tm == nil {
		return -1
	}
	if i := int(partition); i < len(tm.Partitions) && tm.Partitions[i].Partition == partition {
		return tm.Partitions[i].Leader
	}
	for _, pm := range tm.Partitions {
		if pm.Partition == partition {
			return pm.Leader
		}
	}
	return -1
}

// initProducerID obtains a producer ID and epoch (InitProducerId with a null
// transactional ID, as the Java idempotent producer does). Called by the
// sender goroutine without p.mu.
func (p *Producer) initProducerID(deadline time.Time) {
	// One attempt is bounded by InitProducerIDTimeout and by the earliest
	// delivery deadline of the records waiting for it, so they expire on time.
	if d := time.Now().Add(p.cfg.InitProducerIDTimeout); d.Before(deadline) || deadline.IsZero() {
		deadline = d
	}
	ctx, cancel := context.WithDeadline(p.ctx, deadline)
	defer cancel()
	req := &wire.InitProducerIdRequest{TransactionTimeoutMs: math.MaxInt32, ProducerID: -1, ProducerEpoch: -1}
	resp, err := p.cl.Request(ctx, client.AnyBroker, req)
	var ir *wire.InitProducerIdResponse
	if err == nil {
		var ok bool
		if ir, ok = resp.(*wire.InitProducerIdResponse); !ok {
			err = client.ErrProtocol
		} else {
			err = wire.ErrorForCode(ir.ErrorCode)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if errors.Is(err, context.Canceled) && p.ctx.Err() != nil {
			return
		}
		p.ident.failed(err, time.Now(), p.cfg.backoff)
		p.clk.invalidate() // later records are dated after errAt
		return
	}
	p.ident.set(ir.ProducerID, ir.ProducerEpoch)
}
