package faultcheck

import (
	"context"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/gregor-kafka/gregor/testlab/invariant"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// quorumObserver samples, with a franz-go client of its own (directly, not
// through the fault proxies, and independent of gregor), the KRaft quorum
// (DescribeQuorum), every broker's metadata for the topics (leader and
// leader epoch per partition) and the partition leaders' high watermarks
// and log start offsets (ListOffsets, fenced by the leader epoch), every
// interval while the load runs.
// An answer that fails (a killed or paused broker) is skipped.
type quorumObserver struct {
	boot    []string
	brokers []int32
	topics  []string
	every   time.Duration

	mu     sync.Mutex // guards s, errors, known
	s      invariant.Samples
	errors int
	// known is each partition's leader at the highest epoch seen.
	known map[invariant.TP]leaderAt
	cl    *kgo.Client // while run runs
}

type leaderAt struct{ leader, epoch int32 }

// run samples until ctx ends, then closes its client.
func (q *quorumObserver) run(ctx context.Context) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(q.boot...))
	if err != nil {
		return err
	}
	defer cl.Close()
	q.mu.Lock()
	q.known, q.cl = map[invariant.TP]leaderAt{}, cl
	q.mu.Unlock()
	tick := time.NewTicker(q.every)
	defer tick.Stop()
	for {
		q.sample(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// sample takes one round: the quorum, each broker's metadata, then the
// offsets (so a high watermark is sampled after the epochs before it).
func (q *quorumObserver) sample(ctx context.Context) {
	q.quorum(ctx)
	for _, id := range q.brokers {
		q.metadata(ctx, id)
	}
	q.offsets(ctx)
}

// bounded is a per-request deadline, so one dead broker cannot stall a round.
func bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, 2*time.Second)
}

func (q *quorumObserver) quorum(ctx context.Context) {
	rctx, cancel := bounded(ctx)
	defer cancel()
	req := kmsg.NewPtrDescribeQuorumRequest()
	t := kmsg.NewDescribeQuorumRequestTopic()
	t.Topic = "__cluster_metadata"
	t.Partitions = []kmsg.DescribeQuorumRequestTopicPartition{kmsg.NewDescribeQuorumRequestTopicPartition()}
	req.Topics = append(req.Topics, t)
	resp, err := req.RequestWith(rctx, q.cl)
	at := time.Now()
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if err == nil && (len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1) {
		err = kerr.UnknownServerError
	}
	if err == nil {
		err = kerr.ErrorForCode(resp.Topics[0].Partitions[0].ErrorCode)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if err != nil {
		q.errors++
		return
	}
	p := resp.Topics[0].Partitions[0]
	q.s.Quorum = append(q.s.Quorum, invariant.QuorumSample{At: at, Leader: p.LeaderID, Epoch: p.LeaderEpoch, HighWatermark: p.HighWatermark})
}

func (q *quorumObserver) metadata(ctx context.Context, broker int32) {
	rctx, cancel := bounded(ctx)
	defer cancel()
	req := kmsg.NewPtrMetadataRequest()
	for _, tp := range q.topics {
		t := kmsg.NewMetadataRequestTopic()
		t.Topic = kmsg.StringPtr(tp)
		req.Topics = append(req.Topics, t)
	}
	resp, err := req.RequestWith(rctx, q.cl.Broker(int(broker)))
	at := time.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	if err != nil {
		q.errors++
		return
	}
	src := "broker " + strconv.Itoa(int(broker))
	for _, t := range resp.Topics {
		if t.ErrorCode != 0 || t.Topic == nil {
			continue
		}
		for _, p := range t.Partitions {
			if p.ErrorCode != 0 && p.ErrorCode != kerr.LeaderNotAvailable.Code {
				continue
			}
			tp := invariant.TP{Topic: *t.Topic, Partition: p.Partition}
			q.s.Partitions = append(q.s.Partitions, invariant.PartitionSample{At: at, Source: src, TP: tp,
				Leader: p.Leader, LeaderEpoch: p.LeaderEpoch, HighWatermark: -1, LogStart: -1})
			if k, ok := q.known[tp]; !ok || p.LeaderEpoch > k.epoch {
				q.known[tp] = leaderAt{p.Leader, p.LeaderEpoch}
			}
		}
	}
}

// offsets asks each partition's leader, as the freshest metadata names it,
// for its high watermark and log start with CurrentLeaderEpoch set to the
// highest epoch seen (KIP-320): a deposed leader that has not learned it
// yet answers FENCED_LEADER_EPOCH instead of a stale high watermark.
func (q *quorumObserver) offsets(ctx context.Context) {
	q.mu.Lock()
	by := map[int32][]invariant.TP{}
	for tp, l := range q.known {
		if l.leader >= 0 {
			by[l.leader] = append(by[l.leader], tp)
		}
	}
	known := maps.Clone(q.known)
	q.mu.Unlock()
	for leader, tps := range by {
		end := q.listOffsets(ctx, leader, tps, known, -1)
		start := q.listOffsets(ctx, leader, tps, known, -2)
		at := time.Now()
		q.mu.Lock()
		for tp, hw := range end {
			ls, ok := start[tp]
			if !ok {
				ls = -1
			}
			q.s.Partitions = append(q.s.Partitions, invariant.PartitionSample{At: at, Source: "leader " + strconv.Itoa(int(leader)), TP: tp,
				Leader: -1, LeaderEpoch: -1, HighWatermark: hw, LogStart: ls})
		}
		q.mu.Unlock()
	}
}

// listOffsets is one ListOffsets request (timestamp -1: the high
// watermark, -2: the log start) to broker; answers that failed are left out.
func (q *quorumObserver) listOffsets(ctx context.Context, broker int32, tps []invariant.TP, known map[invariant.TP]leaderAt, ts int64) map[invariant.TP]int64 {
	rctx, cancel := bounded(ctx)
	defer cancel()
	req := kmsg.NewPtrListOffsetsRequest()
	req.ReplicaID = -1
	topics := map[string]int{}
	for _, tp := range tps {
		i, ok := topics[tp.Topic]
		if !ok {
			t := kmsg.NewListOffsetsRequestTopic()
			t.Topic = tp.Topic
			req.Topics = append(req.Topics, t)
			i = len(req.Topics) - 1
			topics[tp.Topic] = i
		}
		p := kmsg.NewListOffsetsRequestTopicPartition()
		p.Partition, p.CurrentLeaderEpoch, p.Timestamp = tp.Partition, known[tp].epoch, ts
		req.Topics[i].Partitions = append(req.Topics[i].Partitions, p)
	}
	resp, err := req.RequestWith(rctx, q.cl.Broker(int(broker)))
	q.mu.Lock()
	defer q.mu.Unlock()
	if err != nil {
		q.errors++
		return nil
	}
	out := map[invariant.TP]int64{}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if p.ErrorCode == 0 {
				out[invariant.TP{Topic: t.Topic, Partition: p.Partition}] = p.Offset
			}
		}
	}
	return out
}

// judge checks the samples with the producers' acknowledgements and adds
// the figures.
func (q *quorumObserver) judge(sends []invariant.Send, f *Figures) []invariant.Violation {
	q.mu.Lock()
	defer q.mu.Unlock()
	f.QuorumSamples, f.PartitionSamples, f.ObserverErrors = len(q.s.Quorum), len(q.s.Partitions), q.errors
	epochs := map[invariant.TP]int32{}
	quorumEpochs := map[int32]bool{}
	for _, p := range q.s.Partitions {
		if p.LeaderEpoch < 0 {
			continue
		}
		if e, ok := epochs[p.TP]; ok && p.LeaderEpoch > e {
			f.LeaderChanges++
		}
		epochs[p.TP] = max(epochs[p.TP], p.LeaderEpoch)
	}
	for _, s := range q.s.Quorum {
		quorumEpochs[s.Epoch] = true
	}
	f.QuorumEpochs = len(quorumEpochs)
	vs := invariant.CheckQuorum(&q.s, sends)
	f.QuorumViolations = len(vs)
	return vs
}
