package consumer

import (
	"context"
	"fmt"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/wire"
)

// leaderAssign computes the group's assignment on the leader: every
// member's subscription (ConsumerProtocolSubscription, any version; an
// undecodable one subscribes to nothing), the partitions of every
// subscribed topic with their replicas' racks (KIP-881), and the assignor
// the coordinator chose. For a cooperative assignor, a partition that
// another member still owns is withheld from its new owner in this round
// (KIP-429: the owner revokes it and rejoins, and the next round hands it
// over); Java's cooperative-sticky does the same, so this only guards
// against an assignor that does not.
func (m *classicMember) leaderAssign(ctx context.Context, protocol string, members []wire.JoinGroupResponseMember) ([]wire.SyncGroupRequestAssignment, error) {
	var a assign.Assignor
	for _, x := range m.g.cfg.Assignors {
		if x.Name() == protocol {
			a = x
		}
	}
	if a == nil {
		return nil, fmt.Errorf("consumer: the coordinator chose assignor %q, not one of ours", protocol)
	}
	subs := make([]assign.Member, 0, len(members))
	want := map[string]bool{}
	for _, jm := range members {
		am := assign.Member{MemberID: jm.MemberID, Generation: -1}
		if jm.GroupInstanceID != nil {
			am.InstanceID = *jm.GroupInstanceID
		}
		var s wire.ConsumerProtocolSubscription
		if err := s.DecodeFrom(wire.NewReader(jm.Metadata)); err == nil {
			am.Topics, am.UserData, am.Generation = s.Topics, s.UserData, s.GenerationID
			if s.RackID != nil {
				am.Rack = *s.RackID
			}
			for _, o := range s.OwnedPartitions {
				am.Owned = append(am.Owned, assign.TopicPartitions{Topic: o.Topic, Partitions: o.Partitions})
			}
		}
		for _, t := range am.Topics {
			want[t] = true
		}
		subs = append(subs, am)
	}
	topics, counts, err := m.partitionsOf(ctx, keys(want))
	if err != nil {
		return nil, err
	}
	result, err := a.Assign(subs, topics)
	if err != nil {
		return nil, fmt.Errorf("consumer: assignor %s: %w", a.Name(), err)
	}
	if a.Protocol() == assign.Cooperative {
		withholdTransfers(subs, result)
	}
	m.partCounts = counts
	out := make([]wire.SyncGroupRequestAssignment, 0, len(subs))
	for _, s := range subs {
		pa := wire.ConsumerProtocolAssignment{Version: wire.ConsumerProtocolVersion}
		for _, tp := range result[s.MemberID] {
			pa.AssignedPartitions = append(pa.AssignedPartitions, wire.ConsumerProtocolTopicPartitions{Topic: tp.Topic, Partitions: tp.Partitions})
		}
		out = append(out, wire.SyncGroupRequestAssignment{MemberID: s.MemberID, Assignment: pa.AppendTo(nil)})
	}
	return out, nil
}

// partitionsOf returns the partitions of topics (those metadata knows) with
// their replicas' racks, and the partition counts.
func (m *classicMember) partitionsOf(ctx context.Context, topics []string) (map[string][]assign.Partition, map[string]int, error) {
	out := map[string][]assign.Partition{}
	counts := map[string]int{}
	if len(topics) == 0 {
		return out, counts, nil
	}
	md, err := m.g.cl.Metadata(ctx, topics)
	if err != nil {
		return nil, nil, err
	}
	racks := map[int32]string{}
	for _, b := range md.Brokers {
		if b.Rack != nil {
			racks[b.NodeID] = *b.Rack
		}
	}
	for _, t := range topics {
		tm, ok := md.Topics[t]
		if !ok || tm.Err != nil {
			counts[t] = 0 // absent (deleted, not created yet): a rebalance when it appears
			continue
		}
		ps := make([]assign.Partition, 0, len(tm.Partitions))
		for _, p := range tm.Partitions {
			ap := assign.Partition{ID: p.Partition}
			for _, r := range p.Replicas {
				if rk, ok := racks[r]; ok {
					ap.Racks = append(ap.Racks, rk)
				}
			}
			ps = append(ps, ap)
		}
		out[t] = ps
		counts[t] = len(ps)
	}
	return out, counts, nil
}

// withholdTransfers removes from result every partition assigned to a
// member other than the one that reports owning it (at the newest
// generation among the claims).
func withholdTransfers(subs []assign.Member, result map[string][]assign.TopicPartitions) {
	type claim struct {
		member string
		gen    int32
	}
	owner := map[gregor.TopicPartition]claim{}
	for _, s := range subs {
		for _, o := range s.Owned {
			for _, p := range o.Partitions {
				tp := gregor.TopicPartition{Topic: o.Topic, Partition: p}
				if c, ok := owner[tp]; !ok || s.Generation > c.gen {
					owner[tp] = claim{s.MemberID, s.Generation}
				}
			}
		}
	}
	for member, tps := range result {
		var kept []assign.TopicPartitions
		for _, t := range tps {
			var ps []int32
			for _, p := range t.Partitions {
				if c, ok := owner[gregor.TopicPartition{Topic: t.Topic, Partition: p}]; ok && c.member != member {
					continue
				}
				ps = append(ps, p)
			}
			if len(ps) > 0 {
				kept = append(kept, assign.TopicPartitions{Topic: t.Topic, Partitions: ps})
			}
		}
		result[member] = kept
	}
}
