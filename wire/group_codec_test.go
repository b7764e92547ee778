package wire

import (
	"reflect"
	"testing"
)

// groupCases ties each classic group API to its sample builders.
var groupCases = []adminCase{
	{KeyJoinGroup, func(v int16) codec { return sampleJoinGroupRequest(v) }, func(v int16) codec { return sampleJoinGroupResponse(v) },
		func() codec { return new(JoinGroupRequest) }, func() codec { return new(JoinGroupResponse) }},
	{KeySyncGroup, func(v int16) codec { return sampleSyncGroupRequest(v) }, func(v int16) codec { return sampleSyncGroupResponse(v) },
		func() codec { return new(SyncGroupRequest) }, func() codec { return new(SyncGroupResponse) }},
	{KeyHeartbeat, func(v int16) codec { return sampleHeartbeatRequest(v) }, func(v int16) codec { return sampleHeartbeatResponse(v) },
		func() codec { return new(HeartbeatRequest) }, func() codec { return new(HeartbeatResponse) }},
	{KeyLeaveGroup, func(v int16) codec { return sampleLeaveGroupRequest(v) }, func(v int16) codec { return sampleLeaveGroupResponse(v) },
		func() codec { return new(LeaveGroupRequest) }, func() codec { return new(LeaveGroupResponse) }},
}

func sampleJoinGroupRequest(v int16) *JoinGroupRequest {
	m := &JoinGroupRequest{GroupID: "g", SessionTimeoutMs: 45000, RebalanceTimeoutMs: 300000, MemberID: "m", ProtocolType: "consumer",
		Protocols: []JoinGroupRequestProtocol{{Name: "range", Metadata: []byte{1, 2}}}}
	if v >= 5 {
		m.GroupInstanceID = ptr("i")
	}
	if v >= 8 {
		m.Reason = ptr("r")
	}
	return m
}

func sampleJoinGroupResponse(v int16) *JoinGroupResponse {
	m := &JoinGroupResponse{ThrottleTimeMs: 7, GenerationID: 3, ProtocolName: ptr("range"), Leader: "m", MemberID: "m",
		Members: []JoinGroupResponseMember{{MemberID: "m", Metadata: []byte{9}}}}
	if v >= 5 {
		m.Members[0].GroupInstanceID = ptr("i")
	}
	if v >= 7 {
		m.ProtocolType = ptr("consumer")
	}
	if v >= 9 {
		m.SkipAssignment = true
	}
	return m
}

func sampleSyncGroupRequest(v int16) *SyncGroupRequest {
	m := &SyncGroupRequest{GroupID: "g", GenerationID: 3, MemberID: "m", Assignments: []SyncGroupRequestAssignment{{MemberID: "m", Assignment: []byte{1}}}}
	if v >= 3 {
		m.GroupInstanceID = ptr("i")
	}
	if v >= 5 {
		m.ProtocolType, m.ProtocolName = ptr("consumer"), ptr("range")
	}
	return m
}

func sampleSyncGroupResponse(v int16) *SyncGroupResponse {
	m := &SyncGroupResponse{ErrorCode: 27, Assignment: []byte{1, 2}}
	if v >= 1 {
		m.ThrottleTimeMs = 7
	}
	if v >= 5 {
		m.ProtocolType, m.ProtocolName = ptr("consumer"), ptr("range")
	}
	return m
}

func sampleHeartbeatRequest(v int16) *HeartbeatRequest {
	m := &HeartbeatRequest{GroupID: "g", GenerationID: 3, MemberID: "m"}
	if v >= 3 {
		m.GroupInstanceID = ptr("i")
	}
	return m
}

func sampleHeartbeatResponse(v int16) *HeartbeatResponse {
	m := &HeartbeatResponse{ErrorCode: 27}
	if v >= 1 {
		m.ThrottleTimeMs = 7
	}
	return m
}

func sampleLeaveGroupRequest(v int16) *LeaveGroupRequest {
	m := &LeaveGroupRequest{GroupID: "g"}
	if v <= 2 {
		m.MemberID = "m"
		return m
	}
	m.Members = []LeaveGroupMember{{MemberID: "m", GroupInstanceID: ptr("i")}}
	if v >= 5 {
		m.Members[0].Reason = ptr("r")
	}
	return m
}

func sampleLeaveGroupResponse(v int16) *LeaveGroupResponse {
	m := &LeaveGroupResponse{}
	if v >= 1 {
		m.ThrottleTimeMs = 7
	}
	if v >= 3 {
		m.Members = []LeaveGroupMemberResult{{MemberID: "m", GroupInstanceID: ptr("i"), ErrorCode: 25}}
	}
	return m
}

// TestGroupRoundTrip encodes every sample at every implemented version,
// decodes it back exactly, re-encodes byte-identically, and checks that every
// truncation fails cleanly.
func TestGroupRoundTrip(t *testing.T) {
	for _, c := range groupCases {
		info, _ := LookupAPI(c.key)
		t.Run(info.Name, func(t *testing.T) {
			forVersions(t, c.key, func(t *testing.T, v int16) {
				checkRoundTrip(t, v, c.req(v), c.newReq)
				checkRoundTrip(t, v, c.resp(v), c.newResp)
			})
		})
	}
}

// TestGroupKeysAndPairs checks Key and ResponseFor agree with the table and
// that every API of groupAPIs has a case.
func TestGroupKeysAndPairs(t *testing.T) {
	for _, c := range groupCases {
		req := c.newReq().(Request)
		if _, ok := c.newReq().(RequestDecoder); !ok {
			t.Fatalf("%d: request is not a RequestDecoder", c.key)
		}
		if _, ok := c.newResp().(ResponseEncoder); !ok {
			t.Fatalf("%d: response is not a ResponseEncoder", c.key)
		}
		if req.Key() != c.key || req.ResponseFor().Key() != c.key || reflect.TypeOf(req.ResponseFor()) != reflect.TypeOf(c.newResp()) {
			t.Fatalf("%d: keys %d/%d, response %T", c.key, req.Key(), req.ResponseFor().Key(), req.ResponseFor())
		}
	}
	if len(groupAPIs) != len(groupCases) {
		t.Fatalf("%d group APIs, %d cases", len(groupAPIs), len(groupCases))
	}
}

// TestGroupGolden pins the encodings to an independent encoder: the bytes
// were produced by franz-go's kmsg v1.15.1 from equivalent messages (the
// samples above), not by this package.
func TestGroupGolden(t *testing.T) {
	golden := []struct {
		v    int16
		m    func(int16) codec
		nw   func() codec
		want string
	}{
		{2, func(v int16) codec { return sampleJoinGroupRequest(v) }, func() codec { return new(JoinGroupRequest) }, "0001670000afc8000493e000016d0008636f6e73756d657200000001000572616e6765000000020102"},
		{5, func(v int16) codec { return sampleJoinGroupRequest(v) }, func() codec { return new(JoinGroupRequest) }, "0001670000afc8000493e000016d0001690008636f6e73756d657200000001000572616e6765000000020102"},
		{6, func(v int16) codec { return sampleJoinGroupRequest(v) }, func() codec { return new(JoinGroupRequest) }, "02670000afc8000493e0026d026909636f6e73756d6572020672616e67650301020000"},
		{9, func(v int16) codec { return sampleJoinGroupRequest(v) }, func() codec { return new(JoinGroupRequest) }, "02670000afc8000493e0026d026909636f6e73756d6572020672616e676503010200027200"},
		{2, func(v int16) codec { return sampleJoinGroupResponse(v) }, func() codec { return new(JoinGroupResponse) }, "00000007000000000003000572616e676500016d00016d0000000100016d0000000109"},
		{5, func(v int16) codec { return sampleJoinGroupResponse(v) }, func() codec { return new(JoinGroupResponse) }, "00000007000000000003000572616e676500016d00016d0000000100016d0001690000000109"},
		{6, func(v int16) codec { return sampleJoinGroupResponse(v) }, func() codec { return new(JoinGroupResponse) }, "000000070000000000030672616e6765026d026d02026d026902090000"},
		{9, func(v int16) codec { return sampleJoinGroupResponse(v) }, func() codec { return new(JoinGroupResponse) }, "0000000700000000000309636f6e73756d65720672616e6765026d01026d02026d026902090000"},
		{0, func(v int16) codec { return sampleSyncGroupRequest(v) }, func() codec { return new(SyncGroupRequest) }, "0001670000000300016d0000000100016d0000000101"},
		{3, func(v int16) codec { return sampleSyncGroupRequest(v) }, func() codec { return new(SyncGroupRequest) }, "0001670000000300016d0001690000000100016d0000000101"},
		{4, func(v int16) codec { return sampleSyncGroupRequest(v) }, func() codec { return new(SyncGroupRequest) }, "026700000003026d026902026d02010000"},
		{5, func(v int16) codec { return sampleSyncGroupRequest(v) }, func() codec { return new(SyncGroupRequest) }, "026700000003026d026909636f6e73756d65720672616e676502026d02010000"},
		{0, func(v int16) codec { return sampleSyncGroupResponse(v) }, func() codec { return new(SyncGroupResponse) }, "001b000000020102"},
		{3, func(v int16) codec { return sampleSyncGroupResponse(v) }, func() codec { return new(SyncGroupResponse) }, "00000007001b000000020102"},
		{4, func(v int16) codec { return sampleSyncGroupResponse(v) }, func() codec { return new(SyncGroupResponse) }, "00000007001b03010200"},
		{5, func(v int16) codec { return sampleSyncGroupResponse(v) }, func() codec { return new(SyncGroupResponse) }, "00000007001b09636f6e73756d65720672616e676503010200"},
		{0, func(v int16) codec { return sampleHeartbeatRequest(v) }, func() codec { return new(HeartbeatRequest) }, "0001670000000300016d"},
		{3, func(v int16) codec { return sampleHeartbeatRequest(v) }, func() codec { return new(HeartbeatRequest) }, "0001670000000300016d000169"},
		{4, func(v int16) codec { return sampleHeartbeatRequest(v) }, func() codec { return new(HeartbeatRequest) }, "026700000003026d026900"},
		{0, func(v int16) codec { return sampleHeartbeatResponse(v) }, func() codec { return new(HeartbeatResponse) }, "001b"},
		{3, func(v int16) codec { return sampleHeartbeatResponse(v) }, func() codec { return new(HeartbeatResponse) }, "00000007001b"},
		{4, func(v int16) codec { return sampleHeartbeatResponse(v) }, func() codec { return new(HeartbeatResponse) }, "00000007001b00"},
		{0, func(v int16) codec { return sampleLeaveGroupRequest(v) }, func() codec { return new(LeaveGroupRequest) }, "00016700016d"},
		{3, func(v int16) codec { return sampleLeaveGroupRequest(v) }, func() codec { return new(LeaveGroupRequest) }, "0001670000000100016d000169"},
		{4, func(v int16) codec { return sampleLeaveGroupRequest(v) }, func() codec { return new(LeaveGroupRequest) }, "026702026d02690000"},
		{5, func(v int16) codec { return sampleLeaveGroupRequest(v) }, func() codec { return new(LeaveGroupRequest) }, "026702026d026902720000"},
		{0, func(v int16) codec { return sampleLeaveGroupResponse(v) }, func() codec { return new(LeaveGroupResponse) }, "0000"},
		{3, func(v int16) codec { return sampleLeaveGroupResponse(v) }, func() codec { return new(LeaveGroupResponse) }, "0000000700000000000100016d0001690019"},
		{5, func(v int16) codec { return sampleLeaveGroupResponse(v) }, func() codec { return new(LeaveGroupResponse) }, "00000007000002026d026900190000"},
	}
	for _, g := range golden {
		checkGolden(t, g.v, g.m(g.v), g.nw(), g.want)
	}
}

func FuzzJoinGroupResponse(f *testing.F)  { fuzzGroup(f, KeyJoinGroup, false) }
func FuzzSyncGroupResponse(f *testing.F)  { fuzzGroup(f, KeySyncGroup, false) }
func FuzzHeartbeatResponse(f *testing.F)  { fuzzGroup(f, KeyHeartbeat, false) }
func FuzzLeaveGroupResponse(f *testing.F) { fuzzGroup(f, KeyLeaveGroup, false) }
func FuzzJoinGroupRequest(f *testing.F)   { fuzzGroup(f, KeyJoinGroup, true) }
func FuzzSyncGroupRequest(f *testing.F)   { fuzzGroup(f, KeySyncGroup, true) }
func FuzzLeaveGroupRequest(f *testing.F)  { fuzzGroup(f, KeyLeaveGroup, true) }

func fuzzGroup(f *testing.F, key APIKey, request bool) {
	for _, c := range groupCases {
		if c.key != key {
			continue
		}
		info, _ := LookupAPI(key)
		var seeds [][]byte
		mk, nw := c.resp, c.newResp
		if request {
			mk, nw = c.req, c.newReq
		}
		for v := info.MinVersion; v <= info.MaxVersion; v++ {
			seeds = append(seeds, mk(v).AppendTo(nil, v))
		}
		fuzzDecoder(f, key, nw, seeds...)
		return
	}
	f.Fatalf("no case for key %d", key)
}
