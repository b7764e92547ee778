package share

import (
	"context"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// topicMeta is what the consumer needs of one topic's metadata.
type topicMeta struct {
	id      wire.UUID
	leaders map[int32]int32 // partition -> leader node, -1 for none
	err     error
}

// transport is what the consumer needs of the cluster; wireTransport speaks
// Kafka through a client, tests script a fake broker.
type transport interface {
	// request sends req to node and returns its response.
	request(ctx context.Context, node int32, req wire.Request) (wire.Response, error)
	// coordinator returns the group coordinator of groupID.
	coordinator(ctx context.Context, groupID string) (int32, error)
	// invalidateCoordinator forgets the cached coordinator of groupID.
	invalidateCoordinator(groupID string)
	// metadata returns the topics' IDs and leaders.
	metadata(ctx context.Context, topics []string) (map[string]topicMeta, error)
	// invalidateMetadata marks metadata stale.
	invalidateMetadata()
}

// wireTransport is the transport over a client.
type wireTransport struct{ cl *client.Client }

func (w wireTransport) request(ctx context.Context, node int32, req wire.Request) (wire.Response, error) {
	return w.cl.Request(ctx, node, req)
}

func (w wireTransport) coordinator(ctx context.Context, groupID string) (int32, error) {
	return w.cl.Coordinator(ctx, client.CoordinatorGroup, groupID)
}

func (w wireTransport) invalidateCoordinator(groupID string) {
	w.cl.InvalidateCoordinator(client.CoordinatorGroup, groupID)
}

func (w wireTransport) invalidateMetadata() { w.cl.InvalidateMetadata() }

func (w wireTransport) metadata(ctx context.Context, topics []string) (map[string]topicMeta, error) {
	md, err := w.cl.Metadata(ctx, topics)
	if err != nil {
		return nil, err
	}
	out := make(map[string]topicMeta, len(topics))
	for _, name := range topics {
		tm, ok := md.Topics[name]
		if !ok {
			out[name] = topicMeta{err: wire.ErrUnknownTopicOrPartition}
			continue
		}
		m := topicMeta{id: tm.ID, leaders: make(map[int32]int32, len(tm.Partitions)), err: tm.Err}
		for _, p := range tm.Partitions {
			m.leaders[p.Partition] = p.Leader
		}
		out[name] = m
	}
	return out, nil
}
