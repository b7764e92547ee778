package roundtrip

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// env is a connected client on the shared cluster's PLAINTEXT listener.
type env struct {
	t       *testing.T
	ctx     context.Context
	cl      *client.Client
	cluster *kafkatest.Cluster
}

func newEnv(t *testing.T) *env {
	t.Helper()
	c := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cl, err := client.New(client.Config{Bootstrap: c.Bootstrap(kafkatest.Plaintext), ClientID: "gregor-roundtrip"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close(context.Background()) })
	if err := cl.Ready(ctx); err != nil {
		t.Fatalf("Ready: %v", err)
	}
	return &env{t: t, ctx: ctx, cl: cl, cluster: c}
}

// versions returns the versions of key both gregor and the broker speak.
// On Kafka 4.4 that is every version gregor implements (the API table
// claims 4.4's stable range, checked here); an older release stops lower
// (the client never sends a version above the broker's, pickVersion).
func (e *env) versions(key wire.APIKey) []int16 {
	e.t.Helper()
	info, ok := wire.LookupAPI(key)
	if !ok {
		e.t.Fatalf("API %d not in gregor's table", key)
	}
	r := e.brokerRange(key)
	if e.cluster.AtLeast(4, 4) && (r[0] > info.MinVersion || r[1] < info.MaxVersion) {
		e.t.Fatalf("%s: broker supports %v, gregor implements %d-%d", info.Name, r, info.MinVersion, info.MaxVersion)
	}
	var out []int16
	for v := max(info.MinVersion, r[0]); v <= min(info.MaxVersion, r[1]); v++ {
		out = append(out, v)
	}
	if len(out) == 0 {
		e.t.Fatalf("%s: broker supports %v, gregor implements %d-%d: no common version", info.Name, r, info.MinVersion, info.MaxVersion)
	}
	return out
}

// brokerRange returns the versions of key the broker advertises.
func (e *env) brokerRange(key wire.APIKey) [2]int16 {
	e.t.Helper()
	bv, err := e.cl.BrokerVersions(e.ctx, client.AnyBroker)
	if err != nil {
		e.t.Fatalf("BrokerVersions: %v", err)
	}
	r, ok := bv[key]
	if !ok {
		e.t.Fatalf("API %d not advertised by the broker", key)
	}
	return r
}

// request sends req pinned to version v to broker and returns the response.
func request[T wire.Response](e *env, broker int32, req wire.Request, v int16) T {
	e.t.Helper()
	resp, err := e.cl.RequestVersion(e.ctx, broker, req, v)
	if err != nil {
		e.t.Fatalf("%T v%d: %v", req, v, err)
	}
	out, ok := resp.(T)
	if !ok {
		e.t.Fatalf("%T v%d: response is %T", req, v, resp)
	}
	return out
}

var seq atomic.Int64

// unique returns a name no other test run uses.
func unique(prefix string) string {
	return fmt.Sprintf("%s-%d-%d", prefix, time.Now().UnixNano(), seq.Add(1))
}

// topic is a created topic and its single leader.
type topic struct {
	name   string
	id     wire.UUID
	leader int32
	epoch  int32
}

// createTopic creates a topic with the given partition count and waits until
// Metadata names a leader for partition 0.
func (e *env) createTopic(prefix string, partitions int32) topic {
	e.t.Helper()
	name := unique(prefix)
	resp, err := e.cl.Request(e.ctx, client.AnyBroker, &wire.CreateTopicsRequest{
		Topics:    []wire.CreateTopicsTopic{{Name: name, NumPartitions: partitions, ReplicationFactor: -1}},
		TimeoutMs: 30000,
	})
	if err != nil {
		e.t.Fatalf("CreateTopics: %v", err)
	}
	if r := resp.(*wire.CreateTopicsResponse); len(r.Topics) != 1 || r.Topics[0].ErrorCode != 0 {
		e.t.Fatalf("CreateTopics %s: %+v", name, r.Topics)
	}
	var tp topic
	e.waitFor("leader of "+name, func() (bool, string) {
		m := request[*wire.MetadataResponse](e, client.AnyBroker, &wire.MetadataRequest{
			Topics: []wire.MetadataRequestTopic{{Name: &name}}}, 12)
		if len(m.Topics) != 1 || m.Topics[0].ErrorCode != 0 || len(m.Topics[0].Partitions) != int(partitions) {
			return false, fmt.Sprintf("%+v", m.Topics)
		}
		p := m.Topics[0].Partitions[0]
		if p.ErrorCode != 0 || p.LeaderID < 0 {
			return false, fmt.Sprintf("%+v", p)
		}
		tp = topic{name: name, id: m.Topics[0].TopicID, leader: p.LeaderID, epoch: p.LeaderEpoch}
		return true, ""
	})
	// Metadata can name the leader a moment before that broker's replica
	// manager serves the partition (KRaft publishes the metadata cache
	// first); a Produce in that window gets NOT_LEADER_OR_FOLLOWER. Wait
	// until the leader answers a ListOffsets for partition 0.
	e.waitFor("leader "+fmt.Sprint(tp.leader)+" serving "+name, func() (bool, string) {
		r := request[*wire.ListOffsetsResponse](e, tp.leader, &wire.ListOffsetsRequest{ReplicaID: -1, TimeoutMs: 30000,
			Topics: []wire.ListOffsetsTopic{{Name: name, Partitions: []wire.ListOffsetsPartition{{CurrentLeaderEpoch: -1, Timestamp: wire.ListOffsetsLatest}}}}}, 7)
		if len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 || r.Topics[0].Partitions[0].ErrorCode != 0 {
			return false, fmt.Sprintf("%+v", r.Topics)
		}
		return true, ""
	})
	return tp
}

// waitFor polls cond until it holds or the test's deadline passes.
func (e *env) waitFor(what string, cond func() (bool, string)) {
	e.t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		ok, state := cond()
		if ok {
			return
		}
		last = state
		select {
		case <-e.ctx.Done():
			e.t.Fatalf("waiting for %s: %v; last state: %s", what, e.ctx.Err(), strings.TrimSpace(last))
		case <-tick.C:
		}
	}
}
