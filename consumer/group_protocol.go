package consumer

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// groupVersionFeature is the feature whose finalized level 1 or more
// enables KIP-848 consumer groups on a Kafka 4.x cluster.
const groupVersionFeature = "group.version"

// autoMember picks the protocol for GroupConfig.Protocol "" before its
// first request: it asks the group coordinator's ApiVersions for the
// cluster's finalized features and runs a kip848Member when
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
	s, ok := a.g.awaitGroupSupport(ctx)
	if !ok {
		return
	}
	var m membership = newClassicMember(a.g)
	if s.consumerProtocol() {
		cm := newKIP848Member(a.g)
		cm.supported = true
		m = cm
	}
	a.mu.Lock()
	a.inner = m
	a.mu.Unlock()
	m.run(ctx)
}

// awaitGroupSupport asks the coordinator what it supports (groupSupport),
// retrying transient failures until ctx ends; a refusal for good
// (GROUP_AUTHORIZATION_FAILED, INVALID_GROUP_ID) stops the group, as
// either member would. ok is false when the group stopped or ctx ended.
func (g *Group) awaitGroupSupport(ctx context.Context) (s groupSupport, ok bool) {
	for ctx.Err() == nil {
		s, err := g.groupSupport(ctx)
		var kerr *wire.KafkaError
		if errors.As(err, &kerr) && !kerr.Retriable {
			g.fail(err)
			return s, false
		}
		if err != nil {
			_ = waitBackoff(ctx, retryBackoff)
			continue
		}
		return s, true
	}
	return groupSupport{}, false
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

func (a *autoMember) keepAlive(ctx context.Context) (stop func() error) {
	if m := a.member(); m != nil {
		return m.keepAlive(ctx)
	}
	return noKeepAlive
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
	s, err := g.groupSupport(ctx)
	if err != nil {
		return "", err
	}
	if s.consumerProtocol() {
		return ProtocolConsumer, nil
	}
	return ProtocolClassic, nil
}

// groupSupport is what the group coordinator's ApiVersions says about
// KIP-848 consumer groups.
type groupSupport struct {
	coordinator  int32
	hasHeartbeat bool     // ConsumerGroupHeartbeat advertised
	heartbeat    [2]int16 // its version range, when advertised
	level        int16    // finalized group.version (0 when absent)
}

// consumerProtocol reports whether the cluster runs KIP-848 groups.
func (s groupSupport) consumerProtocol() bool { return s.hasHeartbeat && s.level >= 1 }

// String says what the coordinator offers, for an UnsupportedFeatureError.
func (s groupSupport) String() string {
	hb := "does not advertise ConsumerGroupHeartbeat"
	if s.hasHeartbeat {
		hb = fmt.Sprintf("advertises ConsumerGroupHeartbeat v%d-%d", s.heartbeat[0], s.heartbeat[1])
	}
	return fmt.Sprintf("group coordinator %d %s, group.version finalized at level %d (KIP-848 needs 1: Kafka 4.0+)", s.coordinator, hb, s.level)
}

// groupSupport asks the group coordinator's ApiVersions (v3, the first
// with the finalized features) for ConsumerGroupHeartbeat and
// group.version. On failure the coordinator is forgotten.
func (g *Group) groupSupport(ctx context.Context) (groupSupport, error) {
	coord, err := g.cl.Coordinator(ctx, client.CoordinatorGroup, g.cfg.GroupID)
	if err != nil {
		return groupSupport{}, err
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
		return groupSupport{}, err
	}
	av := r.(*wire.ApiVersionsResponse)
	s := groupSupport{coordinator: coord}
	for _, k := range av.ApiKeys {
		if k.ApiKey == wire.KeyConsumerGroupHeartbeat {
			s.hasHeartbeat, s.heartbeat = true, [2]int16{k.MinVersion, k.MaxVersion}
		}
	}
	for _, f := range av.FinalizedFeatures {
		if f.Name == groupVersionFeature {
			s.level = f.MaxVersionLevel
		}
	}
	return s, nil
}
