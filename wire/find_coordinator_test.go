package wire

import "testing"

func sampleFindCoordinatorRequest(v int16) *FindCoordinatorRequest {
	m := &FindCoordinatorRequest{}
	if v <= 3 {
		m.CoordinatorKey = "group-1"
	}
	if v >= 1 {
		m.KeyType = CoordinatorTypeTransaction
	}
	if v >= 3 {
		m.UnknownTags = []TaggedField{{Tag: 2, Data: []byte("q")}}
	}
	if v >= 4 {
		m.CoordinatorKeys = []string{"txn-a", "txn-b"}
	}
	return m
}

func sampleFindCoordinatorResponse(v int16) *FindCoordinatorResponse {
	m := &FindCoordinatorResponse{}
	if v >= 1 {
		m.ThrottleTimeMs = 5
	}
	if v <= 3 {
		m.ErrorCode = 0
		m.NodeID = 2
		m.Host = "broker2"
		m.Port = 9092
		if v >= 1 {
			m.ErrorMessage = ptr("none")
		}
	}
	if v >= 3 {
		m.UnknownTags = []TaggedField{{Tag: 0, Data: []byte{0}}}
	}
	if v >= 4 {
		m.Coordinators = []FindCoordinatorResponseCoordinator{
			{Key: "txn-a", NodeID: 1, Host: "b1", Port: 9092},
			{Key: "txn-b", NodeID: -1, Host: "", Port: -1, ErrorCode: 15, ErrorMessage: ptr("not available"),
				UnknownTags: []TaggedField{{Tag: 1, Data: []byte{2}}}},
		}
	}
	return m
}

func TestFindCoordinatorRoundTrip(t *testing.T) {
	forVersions(t, KeyFindCoordinator, func(t *testing.T, v int16) {
		checkRoundTrip(t, v, sampleFindCoordinatorRequest(v), func() codec { return new(FindCoordinatorRequest) })
		checkRoundTrip(t, v, sampleFindCoordinatorResponse(v), func() codec { return new(FindCoordinatorResponse) })
	})
}

func TestFindCoordinatorGolden(t *testing.T) {
	checkGolden(t, 0, &FindCoordinatorRequest{CoordinatorKey: "g"}, new(FindCoordinatorRequest), "0001 67")
	checkGolden(t, 2, &FindCoordinatorRequest{CoordinatorKey: "g", KeyType: 1}, new(FindCoordinatorRequest), "0001 67 01")
	checkGolden(t, 4, &FindCoordinatorRequest{KeyType: 0, CoordinatorKeys: []string{"g", "h"}}, new(FindCoordinatorRequest), "00 03 0267 0268 00")
	checkGolden(t, 0, &FindCoordinatorResponse{NodeID: 1, Host: "h", Port: 9092}, new(FindCoordinatorResponse), "0000 00000001 0001 68 00002384")
	checkGolden(t, 1, &FindCoordinatorResponse{ErrorCode: 15, NodeID: -1, Port: -1}, new(FindCoordinatorResponse), "00000000 000f ffff ffffffff 0000 ffffffff")
	checkGolden(t, 6, &FindCoordinatorResponse{Coordinators: []FindCoordinatorResponseCoordinator{{Key: "g", NodeID: 1, Host: "h", Port: 9092}}},
		new(FindCoordinatorResponse), "00000000 02 | 0267 00000001 0268 00002384 0000 00 00 | 00")
}

func FuzzFindCoordinatorResponse(f *testing.F) {
	fuzzDecoder(f, KeyFindCoordinator, func() codec { return new(FindCoordinatorResponse) },
		sampleFindCoordinatorResponse(6).AppendTo(nil, 6), sampleFindCoordinatorResponse(1).AppendTo(nil, 1))
}
