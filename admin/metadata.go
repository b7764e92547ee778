package admin

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gregor-kafka/gregor/wire"
)

// metadata is one fresh Metadata response.
type metadata struct {
	resp *wire.MetadataResponse
}

// topic returns the response entry for name, or nil.
func (m metadata) topic(name string) *wire.MetadataResponseTopic {
	for i := range m.resp.Topics {
		if t := &m.resp.Topics[i]; t.Name != nil && *t.Name == name {
			return t
		}
	}
	return nil
}

// metadataFrom sends a Metadata request for names (nil: all topics) to
// broker, bypassing the client's cache, with auto-creation off.
func (a *Admin) metadataFrom(ctx context.Context, broker int32, names []string) (metadata, error) {
	req := &wire.MetadataRequest{AllowAutoTopicCreation: false}
	if names != nil {
		req.Topics = make([]wire.MetadataRequestTopic, len(names))
		for i := range names {
			req.Topics[i].Name = &names[i]
		}
	}
	resp, err := a.cl.Request(ctx, broker, req)
	if err != nil {
		return metadata{}, err
	}
	return metadata{resp: resp.(*wire.MetadataResponse)}, nil
}

// describeTopic converts a metadata topic entry.
func describeTopic(mt *wire.MetadataResponseTopic) TopicDescription {
	d := TopicDescription{ID: mt.TopicID, Internal: mt.IsInternal, Err: wire.ErrorForCode(mt.ErrorCode)}
	if mt.Name != nil {
		d.Name = *mt.Name
	}
	for _, p := range mt.Partitions {
		d.Partitions = append(d.Partitions, PartitionDescription{
			Partition: p.PartitionIndex, Leader: p.LeaderID, LeaderEpoch: p.LeaderEpoch,
			Replicas: p.ReplicaNodes, ISR: p.IsrNodes, Offline: p.OfflineReplicas, Err: wire.ErrorForCode(p.ErrorCode),
		})
	}
	slices.SortFunc(d.Partitions, func(x, y PartitionDescription) int { return int(x.Partition) - int(y.Partition) })
	return d
}

// waitVisible waits until every broker's metadata agrees with want: for a
// count n >= 0 the topic exists with at least n partitions (n = 0: any),
// each with a leader; for -1 the topic is absent. It returns
// ErrVisibilityTimeout (with the last disagreement) when ctx ends first.
func (a *Admin) waitVisible(ctx context.Context, want map[string]int32) error {
	if len(want) == 0 {
		return nil
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	slices.Sort(names)
	var last error
	for try := 0; ; try++ {
		last = a.visibleEverywhere(ctx, names, want)
		if last == nil {
			return nil
		}
		if !a.wait(ctx, try) {
			return fmt.Errorf("%w: %w", ErrVisibilityTimeout, last)
		}
	}
}

// visibleEverywhere checks want once against every broker's metadata.
func (a *Admin) visibleEverywhere(ctx context.Context, names []string, want map[string]int32) error {
	md, err := a.cl.Metadata(ctx, []string{})
	if err != nil {
		return err
	}
	if len(md.Brokers) == 0 {
		return errors.New("no brokers in metadata")
	}
	for _, b := range md.Brokers {
		m, err := a.metadataFrom(ctx, b.NodeID, names)
		if err != nil {
			return fmt.Errorf("broker %d: %w", b.NodeID, err)
		}
		for _, n := range names {
			t := m.topic(n)
			exists := t != nil && t.ErrorCode == 0
			if want[n] < 0 {
				if exists {
					return fmt.Errorf("broker %d still shows topic %q", b.NodeID, n)
				}
				continue
			}
			if !exists {
				return fmt.Errorf("broker %d does not show topic %q yet", b.NodeID, n)
			}
			if int32(len(t.Partitions)) < want[n] {
				return fmt.Errorf("broker %d shows %d of %d partitions of %q", b.NodeID, len(t.Partitions), want[n], n)
			}
			for _, p := range t.Partitions {
				if p.LeaderID < 0 {
					return fmt.Errorf("broker %d shows %s[%d] without a leader", b.NodeID, n, p.PartitionIndex)
				}
			}
		}
	}
	return nil
}

// brokerIDs returns the cluster's broker IDs, sorted.
func (a *Admin) brokerIDs(ctx context.Context) ([]int32, error) {
	md, err := a.cl.Metadata(ctx, []string{})
	if err != nil {
		return nil, err
	}
	ids := make([]int32, 0, len(md.Brokers))
	for _, b := range md.Brokers {
		ids = append(ids, b.NodeID)
	}
	slices.Sort(ids)
	return ids, nil
}
