package roundtrip

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestClassicGroupEveryVersion drives one member through a classic group's
// life with every version of JoinGroup, SyncGroup, Heartbeat and LeaveGroup
// (rotated so each version is used at least once): the KIP-394 handshake
// from JoinGroup v4, the leader's subscription metadata and the assignment
// echoed back byte for byte (the embedded consumer protocol as the broker
// stores it), a clean heartbeat and leave, and the member gone afterwards
// (a heartbeat then gets UNKNOWN_MEMBER_ID).
func TestClassicGroupEveryVersion(t *testing.T) {
	e := newEnv(t)
	jvs, svs, hvs, lvs := e.versions(wire.KeyJoinGroup), e.versions(wire.KeySyncGroup), e.versions(wire.KeyHeartbeat), e.versions(wire.KeyLeaveGroup)
	n := max(len(jvs), len(svs), len(hvs), len(lvs))
	rack := "r1"
	sub := (&wire.ConsumerProtocolSubscription{Version: 3, Topics: []string{"t"}, GenerationID: -1, RackID: &rack,
		OwnedPartitions: []wire.ConsumerProtocolTopicPartitions{{Topic: "t", Partitions: []int32{0}}}}).AppendTo(nil)
	asg := (&wire.ConsumerProtocolAssignment{Version: 3, AssignedPartitions: []wire.ConsumerProtocolTopicPartitions{{Topic: "t", Partitions: []int32{0, 1}}}}).AppendTo(nil)
	for i := range n {
		jv, sv, hv, lv := jvs[i%len(jvs)], svs[i%len(svs)], hvs[i%len(hvs)], lvs[i%len(lvs)]
		t.Run(fmt.Sprintf("join%d-sync%d-heartbeat%d-leave%d", jv, sv, hv, lv), func(t *testing.T) {
			group := unique("rt-group")
			coord, err := e.cl.Coordinator(e.ctx, client.CoordinatorGroup, group)
			if err != nil {
				t.Fatal(err)
			}
			join := &wire.JoinGroupRequest{GroupID: group, SessionTimeoutMs: 10000, RebalanceTimeoutMs: 10000, ProtocolType: "consumer",
				Protocols: []wire.JoinGroupRequestProtocol{{Name: "range", Metadata: sub}}}
			jr := request[*wire.JoinGroupResponse](e, coord, join, jv)
			if jv >= 4 {
				if jr.ErrorCode != wire.ErrMemberIDRequired.Code || jr.MemberID == "" {
					t.Fatalf("v%d first join: error %d member %q, want MEMBER_ID_REQUIRED with an id", jv, jr.ErrorCode, jr.MemberID)
				}
				join.MemberID = jr.MemberID
				jr = request[*wire.JoinGroupResponse](e, coord, join, jv)
			}
			if jr.ErrorCode != 0 || jr.GenerationID != 1 || jr.Leader != jr.MemberID || len(jr.Members) != 1 || jr.ProtocolName == nil || *jr.ProtocolName != "range" {
				t.Fatalf("v%d join: %+v", jv, jr)
			}
			if !bytes.Equal(jr.Members[0].Metadata, sub) {
				t.Fatalf("leader got metadata %x, sent %x", jr.Members[0].Metadata, sub)
			}
			pt, pn := "consumer", "range"
			sr := request[*wire.SyncGroupResponse](e, coord, &wire.SyncGroupRequest{GroupID: group, GenerationID: 1, MemberID: jr.MemberID,
				ProtocolType: &pt, ProtocolName: &pn, Assignments: []wire.SyncGroupRequestAssignment{{MemberID: jr.MemberID, Assignment: asg}}}, sv)
			if sr.ErrorCode != 0 || !bytes.Equal(sr.Assignment, asg) {
				t.Fatalf("v%d sync: %+v, want assignment %x", sv, sr, asg)
			}
			var got wire.ConsumerProtocolAssignment
			if err := got.DecodeFrom(wire.NewReader(sr.Assignment)); err != nil || len(got.AssignedPartitions) != 1 {
				t.Fatalf("assignment %+v: %v", got, err)
			}
			hr := request[*wire.HeartbeatResponse](e, coord, &wire.HeartbeatRequest{GroupID: group, GenerationID: 1, MemberID: jr.MemberID}, hv)
			if hr.ErrorCode != 0 {
				t.Fatalf("v%d heartbeat: %v", hv, wire.ErrorForCode(hr.ErrorCode))
			}
			lr := request[*wire.LeaveGroupResponse](e, coord, &wire.LeaveGroupRequest{GroupID: group, MemberID: jr.MemberID,
				Members: []wire.LeaveGroupMember{{MemberID: jr.MemberID}}}, lv)
			if lr.ErrorCode != 0 || (lv >= 3 && (len(lr.Members) != 1 || lr.Members[0].MemberID != jr.MemberID || lr.Members[0].ErrorCode != 0)) {
				t.Fatalf("v%d leave: %+v", lv, lr)
			}
			hr = request[*wire.HeartbeatResponse](e, coord, &wire.HeartbeatRequest{GroupID: group, GenerationID: 1, MemberID: jr.MemberID}, hv)
			if hr.ErrorCode != wire.ErrUnknownMemberID.Code {
				t.Fatalf("heartbeat after leave: %v, want UNKNOWN_MEMBER_ID", wire.ErrorForCode(hr.ErrorCode))
			}
		})
	}
}
