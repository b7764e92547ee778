package invariant

import (
	"cmp"
	"slices"
	"time"
)

// Samples are what an observer outside the clients under test saw of the
// cluster's replication while they ran: the KRaft metadata quorum
// (DescribeQuorum) and each partition's leader, leader epoch, high watermark
// and log start offset. Each slice is in the order the samples were taken.
type Samples struct {
	Quorum     []QuorumSample
	Partitions []PartitionSample
}

// QuorumSample is one DescribeQuorum answer.
type QuorumSample struct {
	At time.Time
	// Leader is the quorum leader (the active controller), -1 when none.
	Leader int32
	// Epoch is the quorum's leader epoch.
	Epoch int32
	// HighWatermark is the metadata log's high watermark.
	HighWatermark int64
}

// PartitionSample is one observation of a partition. Source names who
// answered (a broker's metadata, or "" for the partition leader's
// ListOffsets); a field not observed is -1.
type PartitionSample struct {
	At     time.Time
	Source string
	TP
	Leader, LeaderEpoch     int32
	HighWatermark, LogStart int64
}

// The rules CheckQuorum knows.
const (
	RuleQuorumTwoLeaders      Rule = "quorum_two_leaders_in_epoch"
	RuleQuorumEpochRegress    Rule = "quorum_epoch_decreased"
	RulePartitionTwoLeaders   Rule = "partition_two_leaders_in_epoch"
	RulePartitionEpochRegress Rule = "partition_epoch_decreased"
	RuleHighWatermarkRegress  Rule = "high_watermark_decreased"
	RuleAckedAfterLeaderMoved Rule = "acked_record_missing_after_leader_change"
)

// QuorumRules lists every rule CheckQuorum applies, in its report order.
var QuorumRules = []Rule{RuleQuorumTwoLeaders, RuleQuorumEpochRegress, RulePartitionTwoLeaders,
	RulePartitionEpochRegress, RuleHighWatermarkRegress, RuleAckedAfterLeaderMoved}

// CheckQuorum judges samples against KRaft's and the replication protocol's
// safety promises as a client can see them, and sends (with their
// Completed instants) against the leader changes the samples show:
//
//   - RuleQuorumTwoLeaders: at most one quorum leader per epoch (Raft's
//     election safety); likewise RulePartitionTwoLeaders, one leader per
//     partition leader epoch.
//   - RuleQuorumEpochRegress: the quorum epoch never decreases (term
//     monotonicity); RulePartitionEpochRegress: a partition's leader epoch,
//     as one source reports it, never decreases (a broker's metadata image
//     only moves forward; different brokers may lag each other).
//   - RuleHighWatermarkRegress: a partition's high watermark never decreases
//     (ListOffsets answers OFFSET_NOT_AVAILABLE rather than a lower one
//     while a new leader catches up, KIP-207).
//   - RuleAckedAfterLeaderMoved: a record acknowledged before a leader change
//     is present after it (leader completeness): the first high watermark
//     sampled after an epoch increase is above every offset acknowledged
//     before the last sample of the old epoch.
func CheckQuorum(s *Samples, sends []Send) []Violation {
	out := quorumLeaders(s.Quorum)
	out = append(out, partitionEpochs(s.Partitions)...)
	out = append(out, highWatermarks(s.Partitions)...)
	out = append(out, ackedAcrossChanges(s.Partitions, sends)...)
	slices.SortStableFunc(out, func(a, b Violation) int {
		return cmp.Compare(slices.Index(QuorumRules, a.Rule), slices.Index(QuorumRules, b.Rule))
	})
	return out
}

var metadataTP = TP{Topic: "__cluster_metadata"}

func quorumLeaders(qs []QuorumSample) []Violation {
	leaders := map[int32]int32{}
	maxEpoch, seen := int32(0), false
	var out []Violation
	for _, q := range qs {
		if l, ok := leaders[q.Epoch]; ok && q.Leader >= 0 && l != q.Leader {
			out = append(out, violation(RuleQuorumTwoLeaders, metadataTP, "epoch %d had leader %d and, at %s, leader %d", q.Epoch, l, q.At.Format(stamp), q.Leader))
		} else if q.Leader >= 0 && !ok {
			leaders[q.Epoch] = q.Leader
		}
		if seen && q.Epoch < maxEpoch {
			out = append(out, violation(RuleQuorumEpochRegress, metadataTP, "quorum epoch %d at %s after epoch %d", q.Epoch, q.At.Format(stamp), maxEpoch))
		}
		if !seen || q.Epoch > maxEpoch {
			maxEpoch, seen = q.Epoch, true
		}
	}
	return out
}

func partitionEpochs(ps []PartitionSample) []Violation {
	type src struct {
		tp     TP
		source string
	}
	type tpEpoch struct {
		tp    TP
		epoch int32
	}
	leaders := map[tpEpoch]int32{}
	maxEpoch := map[src]int32{}
	var out []Violation
	for _, p := range ps {
		if p.LeaderEpoch < 0 {
			continue
		}
		k := tpEpoch{p.TP, p.LeaderEpoch}
		if l, ok := leaders[k]; ok && p.Leader >= 0 && l != p.Leader {
			out = append(out, violation(RulePartitionTwoLeaders, p.TP, "leader epoch %d had leader %d and, at %s per %s, leader %d", p.LeaderEpoch, l, p.At.Format(stamp), p.Source, p.Leader))
		} else if p.Leader >= 0 && !ok {
			leaders[k] = p.Leader
		}
		s := src{p.TP, p.Source}
		if m, ok := maxEpoch[s]; ok && p.LeaderEpoch < m {
			out = append(out, violation(RulePartitionEpochRegress, p.TP, "%s reported leader epoch %d at %s after epoch %d", p.Source, p.LeaderEpoch, p.At.Format(stamp), m))
		}
		if m, ok := maxEpoch[s]; !ok || p.LeaderEpoch > m {
			maxEpoch[s] = p.LeaderEpoch
		}
	}
	return out
}

func highWatermarks(ps []PartitionSample) []Violation {
	hw := map[TP]int64{}
	var out []Violation
	for _, p := range ps {
		if p.HighWatermark < 0 {
			continue
		}
		if m, ok := hw[p.TP]; ok && p.HighWatermark < m {
			out = append(out, violation(RuleHighWatermarkRegress, p.TP, "high watermark %d at %s after %d", p.HighWatermark, p.At.Format(stamp), m))
		}
		hw[p.TP] = max(hw[p.TP], p.HighWatermark)
	}
	return out
}

// ackedAcrossChanges walks each partition's samples in time order with its
// acknowledgements sorted by completion: at an epoch increase, the offsets
// acknowledged before the last sample of the old epoch must all be below
// the next high watermark sampled.
func ackedAcrossChanges(ps []PartitionSample, sends []Send) []Violation {
	acks := map[TP][]*Send{}
	for i := range sends {
		s := &sends[i]
		if s.Acked && s.Offset >= 0 && !s.Completed.IsZero() {
			acks[s.TP] = append(acks[s.TP], s)
		}
	}
	for _, as := range acks {
		slices.SortFunc(as, func(a, b *Send) int { return a.Completed.Compare(b.Completed) })
	}
	type state struct {
		next      int   // acks[tp][:next] completed before lastOld
		maxAcked  int64 // their highest offset, -1 none
		epoch     int32 // highest epoch seen
		lastOld   time.Time
		need      int64 // a pending change: the next high watermark must exceed this
		pending   bool
		changedAt time.Time
	}
	st := map[TP]*state{}
	var out []Violation
	for _, p := range ps {
		s := st[p.TP]
		if s == nil {
			s = &state{maxAcked: -1, epoch: -1}
			st[p.TP] = s
		}
		if p.HighWatermark >= 0 && s.pending {
			s.pending = false
			if p.HighWatermark <= s.need {
				out = append(out, violation(RuleAckedAfterLeaderMoved, p.TP, "offset %d was acknowledged before the leader change seen at %s; the high watermark after it is %d",
					s.need, s.changedAt.Format(stamp), p.HighWatermark))
			}
		}
		if p.LeaderEpoch < 0 {
			continue
		}
		if s.epoch >= 0 && p.LeaderEpoch > s.epoch {
			as := acks[p.TP]
			for s.next < len(as) && as[s.next].Completed.Before(s.lastOld) {
				s.maxAcked = max(s.maxAcked, as[s.next].Offset)
				s.next++
			}
			if s.maxAcked >= 0 {
				s.need, s.pending, s.changedAt = max(s.need, s.maxAcked), true, p.At
			}
		}
		if p.LeaderEpoch >= s.epoch {
			s.epoch, s.lastOld = p.LeaderEpoch, p.At
		}
	}
	return out
}
