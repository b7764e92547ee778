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
	// roundTrip is the network round trip to node as far as known (0:
	// unknown): client.Client.RoundTrip.
	roundTrip(node int32) time.Duration
}

// wireTransport is the transport over a client (a *client.Client; the
// offline benchmark substitutes a recorded broker).
type wireTransport struct {
	cl wireClient
}

// wireClient is what wireTransport needs of a *client.Client.
type wireClient interface {
	Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error)
	Enqueue(ctx context.Context, broker int32, req wire.Request) (client.Pending, error)
}

// fetchRequest encodes a planned fetch as a new FetchRequest.
func fetchRequest(req *fetchReq) *wire.FetchRequest {
	m := &wire.FetchRequest{}
	buildFetchRequest(m, req)
	return m
}

// buildFetchRequest encodes a planned fetch into m, reusing m's topic and
// partition arrays. Topics carry both the name (v4-12) and the ID (v13+,
// KIP-516); the encoder writes the one the negotiated version uses.
func buildFetchRequest(m *wire.FetchRequest, req *fetchReq) {
	topics, forgotten := m.Topics[:0], m.ForgottenTopicsData[:0]
	*m = wire.FetchRequest{
		ReplicaID:      -1,
		ReplicaState:   wire.FetchReplicaState{ReplicaID: -1, ReplicaEpoch: -1},
		MaxWaitMs:      int32(req.maxWait / time.Millisecond),
		MinBytes:       req.minBytes,
		MaxBytes:       req.askBytes,
		IsolationLevel: int8(req.isolation),
		SessionID:      req.plan.SessionID,
		SessionEpoch:   req.plan.SessionEpoch,
		RackID:         req.rack,
	}
	for _, tp := range req.plan.Parts {
		sp := req.want[tp]
		var t *wire.FetchTopic
		topics, t = reuseTopic(topics, tp.Topic, func(t *wire.FetchTopic) {
			*t = wire.FetchTopic{Topic: tp.Topic, TopicID: sp.TopicID, Partitions: t.Partitions[:0]}
		}, func(t *wire.FetchTopic) string { return t.Topic })
		t.Partitions = append(t.Partitions, wire.FetchPartition{
			Partition:          tp.Partition,
			CurrentLeaderEpoch: sp.CurrentLeaderEpoch,
			FetchOffset:        sp.FetchOffset,
			LastFetchedEpoch:   sp.LastFetchedEpoch,
			LogStartOffset:     -1,
			PartitionMaxBytes:  sp.MaxBytes,
			HighWatermark:      math.MaxInt64,
		})
	}
	for j, tp := range req.plan.Forgotten {
		var t *wire.FetchForgottenTopic
		forgotten, t = reuseTopic(forgotten, tp.Topic, func(t *wire.FetchForgottenTopic) {
			*t = wire.FetchForgottenTopic{Topic: tp.Topic, TopicID: req.plan.ForgottenIDs[j], Partitions: t.Partitions[:0]}
		}, func(t *wire.FetchForgottenTopic) string { return t.Topic })
		t.Partitions = append(t.Partitions, tp.Partition)
	}
	if len(topics) > 0 {
		m.Topics = topics
	}
	if len(forgotten) > 0 {
		m.ForgottenTopicsData = forgotten
	}
}

// reuseTopic returns the entry of topic in list (a wire request's
// per-topic list being rebuilt, entries in the order topics are first
// seen), or appends one, reusing the array's old element (reset by init,
// which may keep the element's own slices). Linear: a Fetch names few
// topics, and a map would cost an allocation per request.
func reuseTopic[T any](list []T, topic string, init func(*T), name func(*T) string) ([]T, *T) {
	for i := len(list) - 1; i >= 0; i-- {
		if name(&list[i]) == topic {
			return list, &list[i]
		}
	}
	if len(list) < cap(list) {
		list = list[:len(list)+1]
	} else {
		var zero T
		list = append(list, zero)
	}
	t := &list[len(list)-1]
	init(t)
	return list, t
}

// mapFetchResponse turns a FetchResponse into a new consumer view.
func mapFetchResponse(req *fetchReq, m *wire.FetchResponse) (*fetchResp, error) {
	out := &fetchResp{}
	mapFetchResponseInto(out, nil, req, m)
	return out, nil
}

// mapFetchResponseInto turns a FetchResponse into the consumer's view in
// out (reusing its Parts array), naming topics by ID (v13+) or by name.
// names (nil: one is made) is cleared and filled with the topic ID to name
// map of req.
func mapFetchResponseInto(out *fetchResp, names map[wire.UUID]string, req *fetchReq, m *wire.FetchResponse) {
	*out = fetchResp{Err: wire.ErrorForCode(m.ErrorCode), SessionID: m.SessionID, ThrottleMs: m.ThrottleTimeMs, Parts: out.Parts[:0]}
	if out.Err != nil {
		return
	}
	if names == nil {
		names = map[wire.UUID]string{}
	}
	clear(names)
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
				Preferred:        preferredOf(p.PreferredReadReplica),
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
}

// fetchCall is the FetchRequest the wire transport sends for a fetchReq,
// kept with it from one Fetch to the broker to the next: it supplies its
// own response to decode into (ResponseFor) and the memory its response
// frame is read into (wire.FrameBufferer: the frame of the record block
// the response's records will be decoded into, so Recycle gives the frame
// back too).
type fetchCall struct {
	wire.FetchRequest
	resp  wire.FetchResponse
	names map[wire.UUID]string
	// frame is the block's frame buffer while a Fetch is in flight (nil:
	// the connection allocates the frame). Set before the request is sent;
	// the connection's reader writes it (FrameBuffer) before the response
	// is delivered.
	frame *[]byte
	// framed reports that the last response was read into frame; written
	// by the reader before the response is delivered.
	framed bool
}

// forgetRecords drops the call's and the mapped response's references
// into the last response frame (also those of entries beyond their
// length, which the next decode reuses), so that a lane's request keeps
// no delivered records' memory alive until its next Fetch is answered.
func (req *fetchReq) forgetRecords() {
	for i, parts := 0, req.resp.Parts[:cap(req.resp.Parts)]; i < len(parts); i++ {
		parts[i].Records, parts[i].Aborted = nil, nil
	}
	for _, t := range req.call.resp.Responses[:cap(req.call.resp.Responses)] {
		for i, parts := 0, t.Partitions[:cap(t.Partitions)]; i < len(parts); i++ {
			parts[i].Records = nil
		}
	}
}

// ResponseFor returns the call's own response (the connection decodes the
// frame into it, reusing its arrays).
func (fc *fetchCall) ResponseFor() wire.Response { return &fc.resp }

// FrameBuffer returns the block's frame buffer, grown to size when smaller
// (with headroom, so responses growing a little do not reallocate).
func (fc *fetchCall) FrameBuffer(size int) []byte {
	if fc.frame == nil {
		return nil
	}
	fc.framed = true
	if cap(*fc.frame) < size {
		*fc.frame = make([]byte, size, size+size/8)
	}
	return (*fc.frame)[:size]
}

func (t wireTransport) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	fc := &req.call
	buildFetchRequest(&fc.FetchRequest, req)
	fc.frame, fc.framed = nil, false
	if req.blk != nil {
		fc.frame = &req.blk.frame
	}
	m, err := requestAs[*wire.FetchResponse](laneContext(ctx, req.lane()), t.cl, req.node, fc, "Fetch")
	if err != nil {
		// fc may still be read by the connection (an abandoned
		// response): the caller drops req with it.
		return nil, err
	}
	fc.frame = nil
	if fc.names == nil {
		fc.names = map[wire.UUID]string{}
	}
	mapFetchResponseInto(&req.resp, fc.names, req, m)
	return &req.resp, nil
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

// roundTrip is the client's shortest connection-setup round trip to node
// (client.Client.RoundTrip); 0 over a recorded broker (the offline
// benchmark), which has none.
func (t wireTransport) roundTrip(node int32) time.Duration {
	if r, ok := t.cl.(interface{ RoundTrip(int32) time.Duration }); ok {
		return r.RoundTrip(node)
	}
	return 0 // a recorded broker (the offline benchmark)
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
func requestAs[R wire.Response](ctx context.Context, cl interface {
	Request(ctx context.Context, broker int32, req wire.Request) (wire.Response, error)
}, node int32, req wire.Request, api string) (R, error) {
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
