package consumer

import (
	"context"
	"errors"
	"sync"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// groupVersionFeature is the feature whose finalized level 1 or more
// enables KIP-848 consumer groups on a Kafka 4.x cluster.
const groupVersionFeature = "group.version"

// autoMember picks the protocol for GroupConfig.Protocol "" before its
// first request: it asks the group coordinator's ApiVersions for the
// cluster's finalized features and runs a consumerMember when
// group.version is at least 1, a classicMember otherwise. Until then the
// member has no identity and nothing to leave.
type autoMember struct {
	g *Group

	mu    sync.Mutex
	inner membership // nil until picked; guarded by mu
}

func (a *autoMember) member() membership {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.inner
}

func (a *autoMember) run(ctx context.Context) {
	for ctx.Err() == nil {
		proto, err := a.g.clusterProtocol(ctx)
		var kerr *wire.KafkaError
		if errors.As(err, &kerr) && !kerr.Retriable {
			// The coordinator lookup refused for good
			// (GROUP_AUTHORIZATION_FAILED, INVALID_GROUP_ID): stop the
			// group, as either member would.
			a.g.fail(err)
			return
		}
		if err != nil {
			_ = waitBackoff(ctx, retryBackoff)
			continue
		}
		var m membership = newClassicMember(a.g)
		if proto == ProtocolConsumer {
			m = newConsumerMember(a.g)
		}
		a.mu.Lock()
		a.inner = m
		a.mu.Unlock()
		m.run(ctx)
		return
	}
}

func (a *autoMember) identity() (int32, string) {
	if m := a.member(); m != nil {
		return m.identity()
	}
	return -1, ""
}

func (a *autoMember) rejoin() {
	if m := a.member(); m != nil {
		m.rejoin()
	}
}

func (a *autoMember) leave(ctx context.Context) error {
	if m := a.member(); m != nil {
		return m.leave(ctx)
	}
	return nil
}

func (a *autoMember) protocol() GroupProtocol {
	if m := a.member(); m != nil {
		return m.protocol()
	}
	return ""
}

// clusterProtocol returns ProtocolConsumer when the group coordinator
// reports group.version >= 1 among the cluster's finalized features
// (ApiVersions v3+) and advertises ConsumerGroupHeartbeat, else
// ProtocolClassic.
func (g *Group) clusterProtocol(ctx context.Context) (GroupProtocol, error) {
	coord, err := g.cl.Coordinator(ctx, client.CoordinatorGroup, g.cfg.GroupID)
	if err != nil {
		return "", err
	}
	req := &wire.ApiVersionsRequest{ClientSoftwareName: "gregor", ClientSoftwareVersion: "0"}
	var r wire.Response
	if rv, ok := g.cl.(interface {
		RequestVersion(context.Context, int32, wire.Request, int16) (wire.Response, error)
	}); ok {
		// Pinned to v3, the first with the finalized features (the
		// client's own choice of version for ApiVersions may be lower).
		r, err = rv.RequestVersion(ctx, coord, req, 3)
	} else {
		r, err = g.cl.Request(ctx, coord, req)
	}
	if err != nil {
		g.cl.InvalidateCoordinator(client.CoordinatorGroup, g.cfg.GroupID)
		return "", err
	}
	av := r.(*wire.ApiVersionsResponse)
	hasHeartbeat := false
	for _, k := range av.ApiKeys {
		hasHeartbeat = hasHeartbeat || k.ApiKey == wire.KeyConsumerGroupHeartbeat
	}
	for _, f := range av.FinalizedFeatures {
		if f.Name == groupVersionFeature && f.MaxVersionLevel >= 1 && hasHeartbeat {
			return ProtocolConsumer, nil
		}
	}
	return ProtocolClassic, nil
}
