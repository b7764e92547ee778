package roundtrip

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

func TestApiVersionsEveryVersion(t *testing.T) {
	e := newEnv(t)
	clusterID := e.cluster.ClusterID()
	for _, v := range e.versions(wire.KeyApiVersions) {
		req := &wire.ApiVersionsRequest{ClientSoftwareName: "gregor-roundtrip", ClientSoftwareVersion: "0.1.0", NodeID: -1}
		if v >= 5 {
			req.ClusterID, req.NodeID = &clusterID, e.cluster.BrokerIDs()[0]
		}
		r := request[*wire.ApiVersionsResponse](e, req.NodeID, req, v)
		if r.ErrorCode != 0 {
			t.Fatalf("v%d: error %d", v, r.ErrorCode)
		}
		found, fetch := false, e.brokerRange(wire.KeyFetch)
		for _, k := range r.ApiKeys {
			if k.ApiKey == wire.KeyFetch && k.MaxVersion == fetch[1] {
				found = true
			}
		}
		if !found {
			t.Errorf("v%d: Fetch v%d (as negotiated) not advertised in %d keys", v, fetch[1], len(r.ApiKeys))
		}
		if v >= 3 && (len(r.SupportedFeatures) == 0 || r.FinalizedFeaturesEpoch < 0 || len(r.FinalizedFeatures) == 0) {
			t.Errorf("v%d: features missing: supported %d, epoch %d, finalized %d", v, len(r.SupportedFeatures), r.FinalizedFeaturesEpoch, len(r.FinalizedFeatures))
		}
	}
}

// TestSaslOnPlaintextEveryVersion sends SaslHandshake and SaslAuthenticate
// outside a SASL exchange: the broker answers ILLEGAL_SASL_STATE (34) in
// every version, which proves the response decodes. (The full exchange runs
// in the client's SASL tests at the negotiated versions.)
func TestSaslOnPlaintextEveryVersion(t *testing.T) {
	e := newEnv(t)
	id := e.cluster.BrokerIDs()[0]
	for _, v := range e.versions(wire.KeySaslHandshake) {
		r := request[*wire.SaslHandshakeResponse](e, id, &wire.SaslHandshakeRequest{Mechanism: "PLAIN"}, v)
		if r.ErrorCode != 34 {
			t.Errorf("SaslHandshake v%d: error %d, want 34", v, r.ErrorCode)
		}
	}
	for _, v := range e.versions(wire.KeySaslAuthenticate) {
		r := request[*wire.SaslAuthenticateResponse](e, id, &wire.SaslAuthenticateRequest{AuthBytes: []byte("\x00admin\x00x")}, v)
		if r.ErrorCode != 34 {
			t.Errorf("SaslAuthenticate v%d: error %d (%v), want 34", v, r.ErrorCode, r.ErrorMessage)
		}
	}
}

func TestMetadataEveryVersion(t *testing.T) {
	e := newEnv(t)
	tp := e.createTopic("rt-metadata", 2)
	for _, v := range e.versions(wire.KeyMetadata) {
		name := tp.name
		req := &wire.MetadataRequest{Topics: []wire.MetadataRequestTopic{{Name: &name}}, AllowAutoTopicCreation: false}
		if v >= 12 {
			req.Topics[0] = wire.MetadataRequestTopic{TopicID: tp.id} // by ID only
		}
		r := request[*wire.MetadataResponse](e, client.AnyBroker, req, v)
		if len(r.Brokers) == 0 || len(r.Topics) != 1 {
			t.Fatalf("v%d: %d brokers, %d topics", v, len(r.Brokers), len(r.Topics))
		}
		top := r.Topics[0]
		if top.ErrorCode != 0 || top.Name == nil || *top.Name != tp.name || len(top.Partitions) != 2 {
			t.Fatalf("v%d: topic %+v", v, top)
		}
		if v >= 10 && top.TopicID != tp.id {
			t.Errorf("v%d: topic ID %v, want %v", v, top.TopicID, tp.id)
		}
		if v >= 2 && (r.ClusterID == nil || *r.ClusterID != e.cluster.ClusterID()) {
			t.Errorf("v%d: cluster ID %v", v, r.ClusterID)
		}
		if p := top.Partitions[0]; p.LeaderID != tp.leader || len(p.ReplicaNodes) == 0 || len(p.IsrNodes) == 0 {
			t.Errorf("v%d: partition %+v", v, p)
		}
		if v >= 7 && top.Partitions[0].LeaderEpoch < 0 {
			t.Errorf("v%d: leader epoch %d", v, top.Partitions[0].LeaderEpoch)
		}
	}
}

func TestFindCoordinatorEveryVersion(t *testing.T) {
	e := newEnv(t)
	brokers := map[int32]bool{}
	for _, id := range e.cluster.BrokerIDs() {
		brokers[id] = true
	}
	for _, v := range e.versions(wire.KeyFindCoordinator) {
		group := unique("rt-group")
		req := &wire.FindCoordinatorRequest{KeyType: wire.CoordinatorTypeGroup}
		if v <= 3 {
			req.CoordinatorKey = group
		} else {
			req.CoordinatorKeys = []string{group}
		}
		e.waitFor("group coordinator", func() (bool, string) {
			r := request[*wire.FindCoordinatorResponse](e, client.AnyBroker, req, v)
			node, code := r.NodeID, r.ErrorCode
			if v >= 4 {
				if len(r.Coordinators) != 1 || r.Coordinators[0].Key != group {
					t.Fatalf("v%d: coordinators %+v", v, r.Coordinators)
				}
				node, code = r.Coordinators[0].NodeID, r.Coordinators[0].ErrorCode
			}
			if code == 15 { // COORDINATOR_NOT_AVAILABLE while __consumer_offsets loads
				return false, "COORDINATOR_NOT_AVAILABLE"
			}
			if code != 0 || !brokers[node] {
				t.Fatalf("v%d: error %d, node %d", v, code, node)
			}
			return true, ""
		})
	}
}

func TestInitProducerIdEveryVersion(t *testing.T) {
	e := newEnv(t)
	for _, v := range e.versions(wire.KeyInitProducerId) {
		var r *wire.InitProducerIdResponse
		// A fresh broker answers COORDINATOR_LOAD_IN_PROGRESS (retriable)
		// until its producer ID manager is ready: wait for another answer.
		e.waitFor(fmt.Sprintf("InitProducerId v%d", v), func() (bool, string) {
			r = request[*wire.InitProducerIdResponse](e, client.AnyBroker,
				&wire.InitProducerIdRequest{TransactionTimeoutMs: 60000, ProducerID: -1, ProducerEpoch: -1}, v)
			var kerr *wire.KafkaError
			retry := errors.As(wire.ErrorForCode(r.ErrorCode), &kerr) && kerr.Retriable
			return !retry, fmt.Sprintf("%+v", r)
		})
		if r.ErrorCode != 0 || r.ProducerID < 0 || r.ProducerEpoch < 0 {
			t.Errorf("v%d: %+v", v, r)
		}
	}
}
