package consumer

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// transport sends the consumer's two requests; wireTransport speaks Kafka
// through the client, tests script a fake broker.
type transport interface {
	// fetch sends req as a FetchRequest to req.node and maps the response.
	fetch(ctx context.Context, req *fetchReq) (*fetchResp, error)
	// listOffsets sends one ListOffsetsRequest to node.
	listOffsets(ctx context.Context, node int32, isolation IsolationLevel, reqs []listReq) (map[gregor.TopicPartition]listResp, error)
	// offsetsForLeaderEpoch sends one OffsetForLeaderEpochRequest to node.
	offsetsForLeaderEpoch(ctx context.Context, node int32, reqs []epochReq) (map[gregor.TopicPartition]epochResp, error)
	// closeSession asks node to drop fetch session id (KIP-227): writes
	// the request once (no retry) without waiting for the answer.
	closeSession(ctx context.Context, node, id int32) error
}

// wireTransport is the transport over a client.
type wireTransport struct {
	cl *client.Client
}

// fetchRequest encodes a planned fetch as a FetchRequest. Topics carry both
// the name (v4-12) and the ID (v13+, KIP-516); the encoder writes the one
// the negotiated version uses.
func fetchRequest(req *fetchReq) *wire.FetchRequest {
	m := &wire.FetchRequest{
		ReplicaID:      -1,
		ReplicaState:   wire.FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1},
		MaxWaitMs:      int32(req.maxWait / time.Millisecond),
		MinBytes:       req.minBytes,
		MaxBytes:       req.maxBytes,
		IsolationLevel: int8(req.isolation),
		SessionID:      req.plan.SessionID,
		SessionEpoch:   req.plan.SessionEpoch,
	}
	topicIdx := map[string]int{}
	for _, tp := range req.plan.Parts {
		sp := req.want[tp]
		i := topicSlot(&m.Topics, topicIdx, tp.Topic, wire.FetchTopic{Topic: tp.Topic, TopicID: sp.TopicID})
		m.Topics[i].Partitions = append(m.Topics[i].Partitions, wire.FetchPartition{
			Partition:          tp.Partition,
			CurrentLeaderEpoch: sp.CurrentLeaderEpoch,
			FetchOffset:        sp.FetchOffset,
			LastFetchedEpoch:   sp.LastFetchedEpoch,
			LogStartOffset:     -1,
			PartitionMaxBytes:  sp.MaxBytes,
			HighWatermark:      math.MaxInt64,
		})
	}
	forgotIdx := map[string]int{}
	for j, tp := range req.plan.Forgotten {
		i := topicSlot(&m.ForgottenTopicsData, forgotIdx, tp.Topic, wire.FetchForgottenTopic{Topic: tp.Topic, TopicID: req.plan.ForgottenIDs[j]})
		m.ForgottenTopicsData[i].Partitions = append(m.ForgottenTopicsData[i].Partitions, tp.Partition)
	}
	return m
}

// mapFetchResponse turns a FetchResponse into the consumer's view, naming
// topics by ID (v13+) or by name.
func mapFetchResponse(req *fetchReq, m *wire.FetchResponse) (*fetchResp, error) {
	out := &fetchResp{Err: wire.ErrorForCode(m.ErrorCode), SessionID: m.SessionID, ThrottleMs: m.ThrottleTimeMs}
	if out.Err != nil {
		return out, nil
	}
	names := map[wire.UUID]string{}
	for tp, sp := range req.want {
		names[sp.TopicID] = tp.Topic
	}
	for ti := range m.Responses {
		t := &m.Responses[ti]
		name := t.Topic
		if !t.TopicID.IsZero() {
			n, ok := names[t.TopicID]
			if !ok {
				continue // a topic we did not ask for (recreated topic): ignore
			}
			name = n
		}
		for pi := range t.Partitions {
			p := &t.Partitions[pi]
			fp := fetchRespPart{
				TopicPartition:   gregor.TopicPartition{Topic: name, Partition: p.PartitionIndex},
				Err:              wire.ErrorForCode(p.ErrorCode),
				HighWatermark:    p.HighWatermark,
				LastStableOffset: p.LastStableOffset,
				LogStartOffset:   p.LogStartOffset,
				Records:          p.Records,
			}
			if fp.Err != nil && p.CurrentLeader.LeaderID >= 0 && p.CurrentLeader.LeaderEpoch >= 0 {
				fp.Leader = &leaderHint{p.CurrentLeader.LeaderID, p.CurrentLeader.LeaderEpoch}
			}
			if p.DivergingEpoch.Epoch >= 0 && p.DivergingEpoch.EndOffset >= 0 {
				fp.Diverging = &divergingEpoch{p.DivergingEpoch.Epoch, p.DivergingEpoch.EndOffset}
			}
			if len(p.AbortedTransactions) > 0 {
				fp.Aborted = make([]abortedTxn, len(p.AbortedTransactions))
				for i, a := range p.AbortedTransactions {
					fp.Aborted[i] = abortedTxn{a.ProducerID, a.FirstOffset}
				}
			}
			out.Parts = append(out.Parts, fp)
		}
	}
	return out, nil
}

func (t wireTransport) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	m, err := requestAs[*wire.FetchResponse](ctx, t.cl, req.node, fetchRequest(req), "Fetch")
	if err != nil {
		return nil, err
	}
	return mapFetchResponse(req, m)
}

// closeSession writes a Fetch naming session id with the final epoch and no
// partitions, after which the broker removes the session (KIP-227). It does
// not wait for the answer: the broker answers a connection's requests in
// order, so it would come only after the long-polling Fetch that Close
// abandoned (up to MaxWait), and nothing depends on it. Enqueued once: a
// failure to write is not retried.
func (t wireTransport) closeSession(ctx context.Context, node, id int32) error {
	req := fetchRequest(&fetchReq{plan: fetchPlan{SessionID: id, SessionEpoch: finalSessionEpoch, Full: true}})
	_, err := t.cl.Enqueue(ctx, node, req)
	return err
}

func (t wireTransport) listOffsets(ctx context.Context, node int32, isolation IsolationLevel, reqs []listReq) (map[gregor.TopicPartition]listResp, error) {
	m := &wire.ListOffsetsRequest{ReplicaID: -1, IsolationLevel: int8(isolation), TimeoutMs: 30000}
	if dl, ok := ctx.Deadline(); ok {
		m.TimeoutMs = int32(max(1, min(time.Until(dl).Milliseconds(), math.MaxInt32)))
	}
	idx := map[string]int{}
	for _, r := range reqs {
		i := topicSlot(&m.Topics, idx, r.Topic, wire.ListOffsetsTopic{Name: r.Topic})
		m.Topics[i].Partitions = append(m.Topics[i].Partitions, wire.ListOffsetsPartition{
			PartitionIndex: r.Partition, CurrentLeaderEpoch: r.CurrentLeaderEpoch, Timestamp: r.Timestamp,
		})
	}
	lr, err := requestAs[*wire.ListOffsetsResponse](ctx, t.cl, node, m, "ListOffsets")
	if err != nil {
		return nil, err
	}
	out := map[gregor.TopicPartition]listResp{}
	for _, t := range lr.Topics {
		for _, p := range t.Partitions {
			out[gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}] = listResp{Offset: p.Offset, Err: wire.ErrorForCode(p.ErrorCode)}
		}
	}
	return out, nil
}

// topicSlot returns the position of topic's entry in *topics, the per-topic
// list of a wire request, appending entry (a new topic's entry without
// partitions) when idx does not know topic yet. idx maps each topic to its
// position, so entries keep the order topics are first seen in and each
// topic's partitions gather under one entry.
func topicSlot[T any](topics *[]T, idx map[string]int, topic string, entry T) int {
	i, ok := idx[topic]
	if !ok {
		i = len(*topics)
		idx[topic] = i
		*topics = append(*topics, entry)
	}
	return i
}

// requestAs sends req to node and returns the response as R, the response
// type req's API answers with. api names the API in the error (wrapping
// client.ErrProtocol) returned when the response has another type; errors
// from the client are returned as they are.
func requestAs[R wire.Response](ctx context.Context, cl cluster, node int32, req wire.Request, api string) (R, error) {
	var zero R
	resp, err := cl.Request(ctx, node, req)
	if err != nil {
		return zero, err
	}
	r, ok := resp.(R)
	if !ok {
		return zero, fmt.Errorf("%w: %s answered with %T", client.ErrProtocol, api, resp)
	}
	return r, nil
}
