package admin

import (
	"context"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// BrokerLogDirs is one broker's answer to DescribeLogDirs.
type BrokerLogDirs struct {
	// Broker is the broker ID.
	Broker int32
	// Dirs are the broker's log directories.
	Dirs []LogDir
	// Err is nil, or the failure of the whole broker (e.g.
	// wire.ErrClusterAuthorizationFailed, a transport failure).
	Err error
}

// LogDir describes one log directory of a broker.
type LogDir struct {
	// Path is the directory's absolute path.
	Path string
	// TotalBytes and UsableBytes are the volume's size and free space
	// (v4+), -1 when unknown.
	TotalBytes int64
	// UsableBytes is the free space of the volume, -1 when unknown.
	UsableBytes int64
	// Cordoned is set for a directory taking no new replicas (v5+).
	Cordoned bool
	// Replicas are the replicas in the directory.
	Replicas []LogDirReplica
	// Err is nil or the directory's error (wire.ErrKafkaStorageError for
	// an offline directory).
	Err error
}

// LogDirReplica is one replica in a log directory.
type LogDirReplica struct {
	gregor.TopicPartition
	// Size is the replica's size in bytes.
	Size int64
	// OffsetLag is how far the replica's log end offset is behind the
	// partition's high watermark (for a future replica: behind the
	// current replica's log end offset).
	OffsetLag int64
	// Future marks a replica being moved into this directory
	// (AlterReplicaLogDirs).
	Future bool
}

// DescribeLogDirs describes the log directories of brokers (DescribeLogDirs
// v1-5, sent to each broker) and returns one answer per broker in request
// order; nil brokers asks every broker in the metadata. parts limits the
// replicas listed (nil: all). The batch is rejected with a *BatchError
// before sending for a repeated or negative broker ID or an invalid
// partition.
func (a *Admin) DescribeLogDirs(ctx context.Context, brokers []int32, parts []gregor.TopicPartition) ([]BrokerLogDirs, error) {
	for i, b := range brokers {
		if b < 0 {
			return nil, invalid(i, "negative broker ID %d", b)
		}
	}
	if err := checkUnique(len(brokers), func(i int) int32 { return brokers[i] }); err != nil {
		return nil, err
	}
	if err := checkPartitions(len(parts), func(i int) gregor.TopicPartition { return parts[i] }, true); err != nil {
		return nil, err
	}
	if brokers == nil {
		ids, err := a.brokerIDs(ctx)
		if err != nil {
			return nil, err
		}
		brokers = ids
	}
	req := &wire.DescribeLogDirsRequest{}
	if parts != nil {
		req.Topics = []wire.DescribeLogDirsDescribableLogDirTopic{}
		for _, p := range parts {
			t := topicEntry(&req.Topics, p.Topic, func(t *wire.DescribeLogDirsDescribableLogDirTopic) *string { return &t.Topic })
			t.Partitions = append(t.Partitions, p.Partition)
		}
	}
	out := make([]BrokerLogDirs, len(brokers))
	for i, b := range brokers {
		out[i].Broker = b
	}
	a.runPlan(ctx, resourcePlan{
		resources:  len(brokers),
		idempotent: true,
		route:      func(_ context.Context, i int) (int32, error) { return brokers[i], nil },
		send: func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
			resp, err := a.cl.Request(ctx, broker, req)
			if err != nil {
				return nil, err
			}
			r := resp.(*wire.DescribeLogDirsResponse)
			if err := codeErr(r.ErrorCode, nil); err != nil {
				if wire.Retriable(err) {
					return map[int]error{idx[0]: err}, nil
				}
				out[idx[0]].Err = err
				return nil, nil
			}
			for _, d := range r.Results {
				ld := LogDir{Path: d.LogDir, TotalBytes: d.TotalBytes, UsableBytes: d.UsableBytes, Cordoned: d.IsCordoned, Err: codeErr(d.ErrorCode, nil)}
				for _, t := range d.Topics {
					for _, p := range t.Partitions {
						ld.Replicas = append(ld.Replicas, LogDirReplica{gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, p.PartitionSize, p.OffsetLag, p.IsFutureKey})
					}
				}
				out[idx[0]].Dirs = append(out[idx[0]].Dirs, ld)
			}
			return nil, nil
		},
		fail: func(i int, err error) { out[i].Err = err },
	})
	return out, nil
}

// ReplicaMove moves one replica to another log directory of its broker.
type ReplicaMove struct {
	// Broker is the broker holding the replica.
	Broker int32
	gregor.TopicPartition
	// Dir is the absolute path of the target log directory.
	Dir string
}

// ReplicaMoveResult is the outcome of one ReplicaMove.
type ReplicaMoveResult struct {
	ReplicaMove
	// Err is nil once the broker accepted the move (a future replica then
	// catches up in the target directory: DescribeLogDirs shows it with
	// Future set until it replaces the current one), else
	// wire.ErrLogDirNotFound, wire.ErrKafkaStorageError,
	// wire.ErrReplicaNotAvailable and so on.
	Err error
}

// AlterReplicaLogDirs moves replicas between the log directories of their
// brokers (AlterReplicaLogDirs v1-2, sent to each broker) and returns one
// result per move in request order. The batch is rejected with a
// *BatchError before sending for a negative broker, an invalid partition, an
// empty directory or the same replica twice.
func (a *Admin) AlterReplicaLogDirs(ctx context.Context, moves []ReplicaMove) ([]ReplicaMoveResult, error) {
	type replica struct {
		broker int32
		tp     gregor.TopicPartition
	}
	if err := checkPartitions(len(moves), func(i int) gregor.TopicPartition { return moves[i].TopicPartition }, false); err != nil {
		return nil, err
	}
	for i, m := range moves {
		if m.Broker < 0 {
			return nil, invalid(i, "negative broker ID %d", m.Broker)
		}
		if m.Dir == "" {
			return nil, invalid(i, "empty log directory")
		}
	}
	if err := checkUnique(len(moves), func(i int) replica { return replica{moves[i].Broker, moves[i].TopicPartition} }); err != nil {
		return nil, err
	}
	out := make([]ReplicaMoveResult, len(moves))
	for i, m := range moves {
		out[i].ReplicaMove = m
	}
	a.runPlan(ctx, resourcePlan{
		resources:  len(moves),
		idempotent: true,
		route:      func(_ context.Context, i int) (int32, error) { return moves[i].Broker, nil },
		send: func(ctx context.Context, broker int32, idx []int) (map[int]error, error) {
			req := &wire.AlterReplicaLogDirsRequest{}
			for _, i := range idx {
				m := moves[i]
				d := answerFor(req.Dirs, func(d *wire.AlterReplicaLogDirsAlterReplicaLogDir) bool { return d.Path == m.Dir })
				if d == nil {
					req.Dirs = append(req.Dirs, wire.AlterReplicaLogDirsAlterReplicaLogDir{Path: m.Dir})
					d = &req.Dirs[len(req.Dirs)-1]
				}
				t := topicEntry(&d.Topics, m.Topic, func(t *wire.AlterReplicaLogDirsAlterReplicaLogDirTopic) *string { return &t.Name })
				t.Partitions = append(t.Partitions, m.Partition)
			}
			resp, err := a.cl.Request(ctx, broker, req)
			if err != nil {
				return nil, err
			}
			answers := partitionAnswers{}
			for _, t := range resp.(*wire.AlterReplicaLogDirsResponse).Results {
				for _, p := range t.Partitions {
					answers[gregor.TopicPartition{Topic: t.TopicName, Partition: p.PartitionIndex}] = codeErr(p.ErrorCode, nil)
				}
			}
			return answers.apply(idx, nil, func(i int) gregor.TopicPartition { return moves[i].TopicPartition },
				func(i int, err error) { out[i].Err = err }), nil
		},
		fail: func(i int, err error) { out[i].Err = err },
	})
	return out, nil
}
