package admin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// Reassignment moves the replicas of one partition (KIP-455).
type Reassignment struct {
	gregor.TopicPartition
	// Replicas is the target replica set, preferred leader first. Nil
	// cancels the partition's ongoing reassignment (restoring its
	// original replicas).
	Replicas []int32
}

// AlterPartitionReassignments starts (or, with nil Replicas, cancels)
// partition reassignments (AlterPartitionReassignments v0-1, any broker,
// forwarded to the KRaft controller) and returns one result per partition
// in request order: nil once the controller accepted the target (the data
// then moves in the background), wire.ErrUnknownTopicOrPartition,
// wire.ErrInvalidReplicaAssignment, wire.ErrNoReassignmentInProgress
// (cancelling nothing) and so on. A change of replication factor is allowed
// (v1's AllowReplicationFactorChange). Completion: ListPartitionReassignments
// no longer lists the partition and the metadata shows the new replicas;
// WaitReassignments waits for the first.
//
// The batch is rejected with a *BatchError before sending when a partition
// repeats, a topic name is invalid, or a partition index, a replica list
// (empty, negative or repeated broker IDs) is invalid.
func (a *Admin) AlterPartitionReassignments(ctx context.Context, moves []Reassignment) ([]PartitionResult, error) {
	if err := checkPartitions(len(moves), func(i int) gregor.TopicPartition { return moves[i].TopicPartition }, true); err != nil {
		return nil, err
	}
	for i, m := range moves {
		if m.Replicas != nil && len(m.Replicas) == 0 {
			return nil, invalid(i, "empty replica list (nil cancels a reassignment)")
		}
		if err := checkBrokerList(i, m.Replicas); err != nil {
			return nil, err
		}
	}
	parts := make([]gregor.TopicPartition, len(moves))
	for i, m := range moves {
		parts[i] = m.TopicPartition
	}
	request := func(ctx context.Context, idx []int) wire.Request {
		req := &wire.AlterPartitionReassignmentsRequest{TimeoutMs: timeoutMs(ctx, 30*time.Second), AllowReplicationFactorChange: true}
		for _, i := range idx {
			m := moves[i]
			t := topicEntry(&req.Topics, m.Topic, func(t *wire.AlterPartitionReassignmentsReassignableTopic) *string { return &t.Name })
			t.Partitions = append(t.Partitions, wire.AlterPartitionReassignmentsReassignablePartition{PartitionIndex: m.Partition, Replicas: m.Replicas})
		}
		return req
	}
	answers := func(r *wire.AlterPartitionReassignmentsResponse, answer func(tp gregor.TopicPartition, err error)) error {
		for _, t := range r.Responses {
			for _, p := range t.Partitions {
				answer(gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, codeErr(p.ErrorCode, p.ErrorMessage))
			}
		}
		return codeErr(r.ErrorCode, r.ErrorMessage)
	}
	return runPartitions(ctx, a, parts, false, request, answers)
}

// runPartitions runs a per-partition controller operation (ElectLeaders,
// AlterPartitionReassignments) on parts through any broker (runAnyBroker)
// and returns one result per partition in request order. request builds
// the request for the partitions idx; answers hands each per-partition
// error of its response (of type R) to answer and returns the response's
// request-wide error. idempotent allows resending a request that may have
// reached the broker.
func runPartitions[R wire.Response](ctx context.Context, a *Admin, parts []gregor.TopicPartition, idempotent bool,
	request func(ctx context.Context, idx []int) wire.Request,
	answers func(r R, answer func(tp gregor.TopicPartition, err error)) error) ([]PartitionResult, error) {
	out := make([]PartitionResult, len(parts))
	for i, p := range parts {
		out[i].TopicPartition = p
	}
	set := func(i int, err error) { out[i].Err = err }
	opErr := a.runAnyBroker(ctx, anyBrokerPlan{
		resources: len(parts),
		send: func(ctx context.Context, idx []int) (map[int]error, error) {
			resp, err := a.cl.Request(ctx, client.AnyBroker, request(ctx, idx))
			if err != nil {
				return nil, err
			}
			got := partitionAnswers{}
			top := answers(resp.(R), func(tp gregor.TopicPartition, err error) { got[tp] = err })
			return got.apply(idx, top, func(i int) gregor.TopicPartition { return parts[i] }, set), nil
		},
		idempotent: idempotent,
		fail:       set,
	})
	if opErr != nil {
		return nil, opErr
	}
	return out, nil
}

// partitionAnswers holds a controller's per-partition errors.
type partitionAnswers map[gregor.TopicPartition]error

// apply records the outcome of every partition of idx: the request-wide
// error top when set, else the partition's own; retriable errors are
// returned for a retry (settle), a partition left out fails.
func (p partitionAnswers) apply(idx []int, top error, tp func(i int) gregor.TopicPartition, set func(i int, err error)) map[int]error {
	return settle(idx, func(j int) error {
		err, ok := p[tp(idx[j])]
		switch {
		case top != nil:
			return top
		case !ok:
			return errors.New("admin: broker returned no result for " + tpString(tp(idx[j])))
		}
		return err
	}, set)
}

// OngoingReassignment is a partition being reassigned.
type OngoingReassignment struct {
	gregor.TopicPartition
	// Replicas is the current replica set (adding and removing included).
	Replicas []int32
	// Adding are the replicas being added.
	Adding []int32
	// Removing are the replicas being removed.
	Removing []int32
}

// ListPartitionReassignments lists the ongoing reassignments of the given
// partitions, or of every partition when parts is nil
// (ListPartitionReassignments v0, any broker, answered by the controller),
// sorted by topic and partition. A partition not listed has no reassignment
// in progress. The error is the request-wide failure (e.g.
// wire.ErrClusterAuthorizationFailed).
func (a *Admin) ListPartitionReassignments(ctx context.Context, parts []gregor.TopicPartition) ([]OngoingReassignment, error) {
	if err := checkPartitions(len(parts), func(i int) gregor.TopicPartition { return parts[i] }, true); err != nil {
		return nil, err
	}
	req := &wire.ListPartitionReassignmentsRequest{TimeoutMs: timeoutMs(ctx, 30*time.Second)}
	if parts != nil {
		req.Topics = []wire.ListPartitionReassignmentsTopics{}
		for _, p := range parts {
			t := topicEntry(&req.Topics, p.Topic, func(t *wire.ListPartitionReassignmentsTopics) *string { return &t.Name })
			t.PartitionIndexes = append(t.PartitionIndexes, p.Partition)
		}
	}
	var out []OngoingReassignment
	err := a.anyBrokerOnce(ctx, req, func(resp wire.Response) error {
		r := resp.(*wire.ListPartitionReassignmentsResponse)
		if err := codeErr(r.ErrorCode, r.ErrorMessage); err != nil {
			return err
		}
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				out = append(out, OngoingReassignment{gregor.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, p.Replicas, p.AddingReplicas, p.RemovingReplicas})
			}
		}
		return nil
	})
	slices.SortFunc(out, func(x, y OngoingReassignment) int { return comparePartitions(x.TopicPartition, y.TopicPartition) })
	return out, err
}

// comparePartitions orders partitions by topic, then index.
func comparePartitions(x, y gregor.TopicPartition) int {
	if x.Topic != y.Topic {
		if x.Topic < y.Topic {
			return -1
		}
		return 1
	}
	return int(x.Partition) - int(y.Partition)
}

// anyBrokerOnce sends a read-only request to any broker and hands the
// response to apply, retrying transport failures and retriable Kafka
// errors (from the send or from apply) with backoff until ctx ends.
func (a *Admin) anyBrokerOnce(ctx context.Context, req wire.Request, apply func(wire.Response) error) error {
	for try := 0; ; try++ {
		resp, err := a.cl.Request(ctx, client.AnyBroker, req)
		if err == nil {
			err = apply(resp)
			if err == nil {
				return nil
			}
		}
		if !transient(ctx, err, true) {
			return err
		}
		if !a.wait(ctx, try) {
			return gaveUp(ctx, err)
		}
	}
}

// WaitReassignments polls ListPartitionReassignments with backoff until
// none of parts is being reassigned (nil parts: no partition at all). It
// returns nil then; when ctx ends first, an error matching
// client.ErrTimeout that names a partition still moving.
func (a *Admin) WaitReassignments(ctx context.Context, parts []gregor.TopicPartition) error {
	for try := 0; ; try++ {
		ongoing, err := a.ListPartitionReassignments(ctx, parts)
		if err == nil && len(ongoing) == 0 {
			return nil
		}
		if err == nil {
			o := ongoing[0]
			err = fmt.Errorf("%s still reassigning (replicas %v, adding %v, removing %v)", tpString(o.TopicPartition), o.Replicas, o.Adding, o.Removing)
		} else if errors.Is(err, ErrInvalidBatch) {
			return err
		}
		if !a.wait(ctx, try) {
			return gaveUp(ctx, err)
		}
	}
}
