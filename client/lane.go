package client

import (
	"strconv"

	"github.com/gregor-kafka/gregor/wire"
)

// Lane is a workload lane: each broker has at most one connection per lane,
// so a request held by the broker (a long-polling Fetch, a JoinGroup waiting
// for a rebalance) delays only its own lane's requests. A request's lane
// follows from its API key (LaneOf).
type Lane uint8

// The workload lanes.
const (
	// LaneControl carries metadata, ApiVersions, admin and every API not
	// in another lane.
	LaneControl Lane = iota
	// LaneProduce carries Produce.
	LaneProduce
	// LaneFetch carries Fetch, ShareFetch and ShareAcknowledge.
	LaneFetch
	// LaneGroup carries group and transaction coordination: JoinGroup,
	// SyncGroup, Heartbeat, LeaveGroup, ConsumerGroupHeartbeat,
	// ShareGroupHeartbeat, OffsetCommit, OffsetFetch, FindCoordinator,
	// AddPartitionsToTxn, AddOffsetsToTxn, EndTxn and TxnOffsetCommit.
	// A context from WithGroupConnection gives its requests in this lane
	// connections of their own.
	LaneGroup
	// NumLanes is the number of lanes (the length of LaneMetrics arrays).
	NumLanes
)

// laneTable decides the lane of every API key; a key not listed is
// LaneControl. It is the only place a lane is chosen.
var laneTable = map[wire.APIKey]Lane{
	wire.KeyProduce: LaneProduce,

	wire.KeyFetch:            LaneFetch,
	wire.KeyShareFetch:       LaneFetch,
	wire.KeyShareAcknowledge: LaneFetch,

	wire.KeyJoinGroup:              LaneGroup,
	wire.KeySyncGroup:              LaneGroup,
	wire.KeyHeartbeat:              LaneGroup,
	wire.KeyLeaveGroup:             LaneGroup,
	wire.KeyConsumerGroupHeartbeat: LaneGroup,
	wire.KeyShareGroupHeartbeat:    LaneGroup,
	wire.KeyOffsetCommit:           LaneGroup,
	wire.KeyOffsetFetch:            LaneGroup,
	wire.KeyFindCoordinator:        LaneGroup,
	wire.KeyAddPartitionsToTxn:     LaneGroup,
	wire.KeyAddOffsetsToTxn:        LaneGroup,
	wire.KeyEndTxn:                 LaneGroup,
	wire.KeyTxnOffsetCommit:        LaneGroup,
}

// LaneOf returns the lane requests with API key k travel in.
func LaneOf(k wire.APIKey) Lane {
	return laneTable[k] // the zero Lane is LaneControl
}

// String returns the lane's name: "control", "produce", "fetch" or "group".
func (l Lane) String() string {
	switch l {
	case LaneControl:
		return "control"
	case LaneProduce:
		return "produce"
	case LaneFetch:
		return "fetch"
	case LaneGroup:
		return "group"
	}
	return "Lane(" + strconv.Itoa(int(l)) + ")"
}
