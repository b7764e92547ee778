package client_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/wire"
)

// joinWrites signals each JoinGroup the client writes.
type joinWrites struct {
	n  atomic.Int32
	ch chan struct{}
}

func (j *joinWrites) OnRequestWritten(ev client.RequestEvent) {
	if ev.Key == wire.KeyJoinGroup && ev.Err == nil {
		j.n.Add(1)
		j.ch <- struct{}{}
	}
}

// TestIntegrationGroupConnectionNotHeldByJoinGroup: on the real broker, a
// JoinGroup that the coordinator holds (the group's other member must rejoin
// first) is sent on a connection dedicated by WithGroupConnection; a
// FindCoordinator on the same client, same broker, without that name must be
// answered while the JoinGroup is still held. The broker answers one
// connection's requests in order, so on a shared group-lane connection the
// FindCoordinator would wait the ~6s of the hold (the session timeout of the
// member that never rejoins).
func TestIntegrationGroupConnectionNotHeldByJoinGroup(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	group := kafkatest.UniqueName(t, "group-conn")

	// Member 1, on a client of its own, joins and syncs, then goes silent.
	other, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(context.Background())
	var (
		coord int32
		m1    *wire.JoinGroupResponse
	)
	for { // the offsets topic's partition may still be loading on a fresh broker
		if coord, err = other.Coordinator(ctx, client.CoordinatorGroup, group); err != nil {
			t.Fatal(err)
		}
		m1 = joinGroup(ctx, t, other, coord, group)
		if !wire.Classify(wire.ErrorForCode(m1.ErrorCode)).Has(wire.ClassCoordinator) || ctx.Err() != nil {
			break
		}
		other.InvalidateCoordinator(client.CoordinatorGroup, group)
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
		}
	}
	if m1.ErrorCode != 0 {
		t.Fatalf("member 1 JoinGroup: %v", wire.ErrorForCode(m1.ErrorCode))
	}
	r, err := other.Request(ctx, coord, &wire.SyncGroupRequest{GroupID: group, GenerationID: m1.GenerationID, MemberID: m1.MemberID,
		ProtocolType: m1.ProtocolType, ProtocolName: m1.ProtocolName,
		Assignments: []wire.SyncGroupRequestAssignment{{MemberID: m1.MemberID, Assignment: []byte{}}}})
	if err != nil {
		t.Fatal(err)
	}
	if code := r.(*wire.SyncGroupResponse).ErrorCode; code != 0 {
		t.Fatalf("member 1 SyncGroup: %v", wire.ErrorForCode(code))
	}

	// Member 2 joins through the shared client on a dedicated connection:
	// its second JoinGroup (with the member ID) is held.
	joins := &joinWrites{ch: make(chan struct{}, 4)}
	cl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.Plaintext), Hooks: []client.Hook{joins}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	held := make(chan *wire.JoinGroupResponse, 1)
	go func() {
		held <- joinGroup(client.WithGroupConnection(ctx, "member-2"), t, cl, coord, group)
	}()
	for range 2 { // MEMBER_ID_REQUIRED, then the join the coordinator holds
		select {
		case <-joins.ch:
		case <-ctx.Done():
			t.Fatal("member 2's JoinGroup was never written")
		}
	}
	t0 := time.Now()
	if _, err := cl.Coordinator(ctx, client.CoordinatorGroup, group+"-other"); err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	if took > 3*time.Second {
		t.Fatalf("FindCoordinator took %v behind a held JoinGroup on another connection name", took)
	}
	select {
	case resp := <-held:
		t.Fatalf("JoinGroup was not held (answered %v before the probe's answer in %v): the test proves nothing", wire.ErrorForCode(resp.ErrorCode), took)
	default:
	}
	select {
	case resp := <-held:
		if resp.ErrorCode != 0 {
			t.Fatalf("member 2 JoinGroup: %v", wire.ErrorForCode(resp.ErrorCode))
		}
	case <-ctx.Done():
		t.Fatal("member 2's JoinGroup never completed")
	}
}

// joinGroup joins group at coord as a new member (KIP-394: the first answer
// is MEMBER_ID_REQUIRED with the member ID to join with) and returns the
// coordinator's answer to the join with the member ID.
func joinGroup(ctx context.Context, t *testing.T, cl *client.Client, coord int32, group string) *wire.JoinGroupResponse {
	req := &wire.JoinGroupRequest{GroupID: group, SessionTimeoutMs: 6000, RebalanceTimeoutMs: 6000, ProtocolType: "consumer",
		Protocols: []wire.JoinGroupRequestProtocol{{Name: "range", Metadata: []byte{}}}}
	for range 2 {
		r, err := cl.Request(ctx, coord, req)
		if err != nil {
			t.Error(err)
			return &wire.JoinGroupResponse{ErrorCode: -1}
		}
		resp := r.(*wire.JoinGroupResponse)
		if resp.ErrorCode != wire.ErrMemberIDRequired.Code {
			return resp
		}
		req.MemberID = resp.MemberID
	}
	return &wire.JoinGroupResponse{ErrorCode: wire.ErrMemberIDRequired.Code}
}
