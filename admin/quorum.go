package admin

import (
	"context"
	"errors"
	"net"
	"strconv"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// QuorumReplica is one voter or observer of the KRaft metadata quorum.
type QuorumReplica struct {
	// ID is the node ID.
	ID int32
	// DirectoryID is the replica's metadata log directory ID (KIP-853,
	// v2+), zero when unknown.
	DirectoryID wire.UUID
	// LogEndOffset is the replica's log end offset, -1 when unknown.
	LogEndOffset int64
	// Lag is the leader's log end offset minus the replica's, in records
	// (-1 when unknown).
	Lag int64
	// LastFetch is when the replica last fetched from the leader (zero
	// when unknown; the leader itself reports none).
	LastFetch time.Time
	// LastCaughtUp is when the replica was last caught up (zero when
	// unknown).
	LastCaughtUp time.Time
}

// QuorumNode is a controller's advertised endpoints (v2+).
type QuorumNode struct {
	// ID is the node ID.
	ID int32
	// Listeners map listener names to "host:port".
	Listeners map[string]string
}

// QuorumDescription describes the KRaft metadata quorum
// (__cluster_metadata partition 0).
type QuorumDescription struct {
	// LeaderID is the quorum leader (the active controller), -1 when unknown.
	LeaderID int32
	// LeaderEpoch is the leader epoch.
	LeaderEpoch int32
	// HighWatermark is the metadata log's high watermark.
	HighWatermark int64
	// Voters are the voting controllers.
	Voters []QuorumReplica
	// Observers are the brokers (and non-voting controllers) replicating
	// the metadata log.
	Observers []QuorumReplica
	// Nodes are the controllers' endpoints (v2+).
	Nodes []QuorumNode
}

// DescribeQuorum describes the KRaft metadata quorum (DescribeQuorum v0-2,
// any broker, forwarded to the controller): voters, observers, high
// watermark and each replica's lag.
func (a *Admin) DescribeQuorum(ctx context.Context) (*QuorumDescription, error) {
	req := &wire.DescribeQuorumRequest{Topics: []wire.DescribeQuorumTopicData{{TopicName: "__cluster_metadata",
		Partitions: []wire.DescribeQuorumPartitionData{{PartitionIndex: 0}}}}}
	var out *QuorumDescription
	err := a.anyBrokerOnce(ctx, req, func(resp wire.Response) error {
		r := resp.(*wire.DescribeQuorumResponse)
		if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil {
			return err
		}
		if len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 {
			return errors.New("admin: DescribeQuorum answered no __cluster_metadata partition")
		}
		p := r.Topics[0].Partitions[0]
		if err := codeErr(p.ErrorCode, p.ErrorMessage); err != nil {
			return err
		}
		d := &QuorumDescription{LeaderID: p.LeaderID, LeaderEpoch: p.LeaderEpoch, HighWatermark: p.HighWatermark}
		leo := int64(-1)
		for _, v := range p.CurrentVoters {
			if v.ReplicaID == p.LeaderID {
				leo = v.LogEndOffset
			}
		}
		d.Voters = quorumReplicas(p.CurrentVoters, leo)
		d.Observers = quorumReplicas(p.Observers, leo)
		for _, n := range r.Nodes {
			qn := QuorumNode{ID: n.NodeID, Listeners: map[string]string{}}
			for _, l := range n.Listeners {
				qn.Listeners[l.Name] = hostPort(l.Host, int(l.Port))
			}
			d.Nodes = append(d.Nodes, qn)
		}
		out = d
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// quorumReplicas converts replica states, computing lags from the
// leader's log end offset leo (-1 unknown).
func quorumReplicas(states []wire.DescribeQuorumReplicaState, leo int64) []QuorumReplica {
	out := make([]QuorumReplica, 0, len(states))
	for _, s := range states {
		lag := int64(-1)
		if leo >= 0 && s.LogEndOffset >= 0 {
			lag = leo - s.LogEndOffset
		}
		out = append(out, QuorumReplica{s.ReplicaID, s.ReplicaDirectoryID, s.LogEndOffset, lag, wire.TimeOfMillis(s.LastFetchTimestamp), wire.TimeOfMillis(s.LastCaughtUpTimestamp)})
	}
	return out
}

// hostPort joins a host and a port as net.JoinHostPort does.
func hostPort(host string, port int) string { return net.JoinHostPort(host, strconv.Itoa(port)) }
