package consumer

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/wire"
)

// The group consumer's client.rack is its Config.Rack (KIP-881 with the
// classic protocol, KIP-848's heartbeat, KIP-392's Fetch): one setting.

// fetchRacks records the rack of every Fetch the fake broker sees.
type fetchRacks struct {
	mu    sync.Mutex
	racks []string
}

func (r *fetchRacks) hook(fc *fakeCoord) {
	fc.f.onFetch = func(req *fetchReq) {
		r.mu.Lock()
		r.racks = append(r.racks, req.rack)
		r.mu.Unlock()
	}
}

// check waits for the member's first Fetch (it may follow the assignment
// event) and checks the rack of every Fetch seen.
func (r *fetchRacks) check(t *testing.T, want string) {
	t.Helper()
	waitFor(t, "a Fetch", func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.racks) > 0
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, got := range r.racks {
		if got != want {
			t.Fatalf("Fetch %d sent rack %q, want %q", i, got, want)
		}
	}
}

// TestGroupClassicRack: a classic member's Rack goes into its JoinGroup
// subscription (ConsumerProtocol v3), reaches the leader's assignor as
// Member.Rack, and into every Fetch.
func TestGroupClassicRack(t *testing.T) {
	fr := &fetchRacks{}
	rec := &recordingAssignor{Assignor: testRange{coop: true}}
	_, fc, _ := newFakeGroupWith(t, func(c *GroupConfig) {
		c.Rack = "rack-b"
		c.Assignors = []assign.Assignor{rec}
	}, fr.hook)
	fc.mu.Lock()
	var sub wire.ConsumerProtocolSubscription
	err := sub.DecodeFrom(wire.NewReader(fc.joins[len(fc.joins)-1].Protocols[0].Metadata))
	fc.mu.Unlock()
	if err != nil || sub.RackID == nil || *sub.RackID != "rack-b" {
		t.Fatalf("subscription %+v (%v): want RackID rack-b", sub, err)
	}
	if ms := rec.lastMembers(); len(ms) != 1 || ms[0].Rack != "rack-b" {
		t.Fatalf("the assignor got members %+v, want one in rack-b", ms)
	}
	fr.check(t, "rack-b")
}

// TestGroupConsumerRack: a KIP-848 member sends its Rack in the joining
// heartbeat (the coordinator's assignors read it) and in every Fetch.
func TestGroupConsumerRack(t *testing.T) {
	fr := &fetchRacks{}
	_, fc, _ := newFakeGroupWith(t, func(c *GroupConfig) {
		consumerProtocol(c)
		c.Rack = "rack-b"
	}, fr.hook)
	fc.mu.Lock()
	first := fc.cghbs[0]
	fc.mu.Unlock()
	if first.MemberEpoch != 0 || first.RackID == nil || *first.RackID != "rack-b" {
		t.Fatalf("joining heartbeat epoch %d rack %v: want epoch 0, rack-b", first.MemberEpoch, first.RackID)
	}
	fr.check(t, "rack-b")
}

// recordingAssignor records the members each Assign call was given.
type recordingAssignor struct {
	assign.Assignor
	mu      sync.Mutex
	members [][]assign.Member
}

func (a *recordingAssignor) Assign(members []assign.Member, topics map[string][]assign.Partition) (map[string][]assign.TopicPartitions, error) {
	a.mu.Lock()
	a.members = append(a.members, slices.Clone(members))
	a.mu.Unlock()
	return a.Assignor.Assign(members, topics)
}

func (a *recordingAssignor) lastMembers() []assign.Member {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.members) == 0 {
		return nil
	}
	return a.members[len(a.members)-1]
}

// rackMetadataCluster answers Metadata with brokers 1 (rack-a) and 2
// (rack-b) and topic "t" of two partitions, 0 on broker 1 and 1 on broker
// 2; nothing else.
type rackMetadataCluster struct{}

func (rackMetadataCluster) Request(context.Context, int32, wire.Request) (wire.Response, error) {
	return nil, errors.New("no requests")
}

func (rackMetadataCluster) Metadata(context.Context, []string) (*client.Metadata, error) {
	a, b := "rack-a", "rack-b"
	return &client.Metadata{Brokers: []client.Broker{{NodeID: 1, Rack: &a}, {NodeID: 2, Rack: &b}},
		Topics: map[string]*client.TopicMetadata{"t": {Name: "t", Partitions: []client.PartitionMetadata{
			{Partition: 0, Leader: 1, Replicas: []int32{1}}, {Partition: 1, Leader: 2, Replicas: []int32{2}}}}}}, nil
}

func (rackMetadataCluster) Coordinator(context.Context, client.CoordinatorType, string) (int32, error) {
	return 7, nil
}

func (rackMetadataCluster) InvalidateCoordinator(client.CoordinatorType, string) {}

// TestLeaderAssignRackAware (KIP-881): the classic leader hands its
// assignor each member's subscribed rack and each partition's replica
// racks from metadata, so Java's rack-aware range assignor gives the
// member in rack-b the partition on broker 2 and the one in rack-a the
// partition on broker 1, although plain range (members in ID order) would
// cross them.
func TestLeaderAssignRackAware(t *testing.T) {
	g := &Group{cl: rackMetadataCluster{}, cfg: GroupConfig{Assignors: []assign.Assignor{assign.Range()}}}
	m := &classicMember{g: g}
	sub := func(rack string) []byte {
		s := wire.ConsumerProtocolSubscription{Version: wire.ConsumerProtocolVersion, Topics: []string{"t"}, GenerationID: -1}
		if rack != "" {
			s.RackID = &rack
		}
		return s.AppendTo(nil)
	}
	for _, tc := range []struct {
		racks [2]string
		want  map[string][]int32
	}{
		{[2]string{"rack-b", "rack-a"}, map[string][]int32{"m1": {1}, "m2": {0}}},
		{[2]string{"", ""}, map[string][]int32{"m1": {0}, "m2": {1}}}, // no racks: plain range
	} {
		out, err := m.leaderAssign(bg(), "range", []wire.JoinGroupResponseMember{
			{MemberID: "m1", Metadata: sub(tc.racks[0])}, {MemberID: "m2", Metadata: sub(tc.racks[1])}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][]int32{}
		for _, a := range out {
			var pa wire.ConsumerProtocolAssignment
			if err := pa.DecodeFrom(wire.NewReader(a.Assignment)); err != nil {
				t.Fatal(err)
			}
			for _, tp := range pa.AssignedPartitions {
				got[a.MemberID] = append(got[a.MemberID], tp.Partitions...)
			}
		}
		for id, w := range tc.want {
			if !slices.Equal(got[id], w) {
				t.Errorf("racks %v: assignment %v, want %v", tc.racks, got, tc.want)
				break
			}
		}
	}
}
