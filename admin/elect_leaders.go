package admin

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// ElectionType selects the leader election of ElectLeaders (KIP-460).
type ElectionType int8

// The election types.
const (
	// ElectPreferred moves leadership to the preferred (first) replica
	// when it is in sync.
	ElectPreferred ElectionType = 0
	// ElectUnclean elects any live replica of a partition without an
	// in-sync leader, accepting data loss.
	ElectUnclean ElectionType = 1
)

// ElectLeaders runs leader elections (ElectLeaders v0-2, any broker,
// forwarded to the KRaft controller) for parts, or for every partition
// when parts is nil, and returns one result per partition: in request
// order for parts; for nil, sorted by topic and partition, and only the
// partitions where an election ran or failed (Kafka 4.4's controller
// leaves out those answering ELECTION_NOT_NEEDED: TestElectAllAndUnclean).
// A partition
// whose leader is already the one the election would pick fails with
// wire.ErrElectionNotNeeded (not retried; most callers treat it as
// success); wire.ErrPreferredLeaderNotAvailable and
// wire.ErrEligibleLeadersNotAvailable say no replica qualifies. Elections
// complete asynchronously: WaitPreferredLeaders waits until the metadata
// shows the preferred leaders.
//
// The batch is rejected with a *BatchError before sending for a repeated
// partition, an invalid topic name or a negative partition index.
func (a *Admin) ElectLeaders(ctx context.Context, typ ElectionType, parts []gregor.TopicPartition) ([]PartitionResult, error) {
	if err := checkPartitions(len(parts), func(i int) gregor.TopicPartition { return parts[i] }, true); err != nil {
		return nil, err
	}
	if typ != ElectPreferred && typ != ElectUnclean {
		return nil, invalid(0, "unknown election type %d", typ)
	}
	if parts == nil {
		return a.electAll(ctx, typ)
	}
	request := func(ctx context.Context, idx []int) wire.Request {
		req := &wire.ElectLeadersRequest{ElectionType: int8(typ), TopicPartitions: []wire.ElectLeadersTopicPartitions{}, TimeoutMs: timeoutMs(ctx, 30*time.Second)}
		for _, i := range idx {
			t := topicEntry(&req.TopicPartitions, parts[i].Topic, func(t *wire.ElectLeadersTopicPartitions) *string { return &t.Topic })
			t.Partitions = append(t.Partitions, parts[i].Partition)
		}
		return req
	}
	answers := func(r *wire.ElectLeadersResponse, answer func(tp gregor.TopicPartition, err error)) error {
		for _, t := range r.ReplicaElectionResults {
			for _, p := range t.PartitionResult {
				answer(gregor.TopicPartition{Topic: t.Topic, Partition: p.PartitionID}, codeErr(p.ErrorCode, p.ErrorMessage))
			}
		}
		return codeErr(r.ErrorCode, nil)
	}
	return runPartitions(ctx, a, parts, true, request, answers)
}

// electAll elects leaders for every partition (null TopicPartitions).
func (a *Admin) electAll(ctx context.Context, typ ElectionType) ([]PartitionResult, error) {
	req := &wire.ElectLeadersRequest{ElectionType: int8(typ), TimeoutMs: timeoutMs(ctx, 30*time.Second)}
	var out []PartitionResult
	err := a.anyBrokerOnce(ctx, req, func(resp wire.Response) error {
		r := resp.(*wire.ElectLeadersResponse)
		if err := codeErr(r.ErrorCode, nil); err != nil {
			return err
		}
		out = out[:0]
		for _, t := range r.ReplicaElectionResults {
			for _, p := range t.PartitionResult {
				out = append(out, PartitionResult{gregor.TopicPartition{Topic: t.Topic, Partition: p.PartitionID}, codeErr(p.ErrorCode, p.ErrorMessage)})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(x, y PartitionResult) int { return comparePartitions(x.TopicPartition, y.TopicPartition) })
	return out, nil
}

// WaitPreferredLeaders polls the metadata of every broker with backoff
// until each of parts is led by its preferred (first) replica. It returns
// nil then; when ctx ends first, an error matching client.ErrTimeout that
// names a partition still led by another broker.
func (a *Admin) WaitPreferredLeaders(ctx context.Context, parts []gregor.TopicPartition) error {
	if err := checkPartitions(len(parts), func(i int) gregor.TopicPartition { return parts[i] }, false); err != nil {
		return err
	}
	var names []string
	for _, p := range parts {
		if !slices.Contains(names, p.Topic) {
			names = append(names, p.Topic)
		}
	}
	for try := 0; ; try++ {
		err := a.preferredEverywhere(ctx, names, parts)
		if err == nil {
			return nil
		}
		if !a.wait(ctx, try) {
			return gaveUp(ctx, err)
		}
	}
}

// preferredEverywhere checks once that every broker's metadata shows the
// preferred leader of each of parts.
func (a *Admin) preferredEverywhere(ctx context.Context, names []string, parts []gregor.TopicPartition) error {
	ids, err := a.brokerIDs(ctx)
	if err != nil {
		return err
	}
	for _, b := range ids {
		md, err := a.metadataFrom(ctx, b, names)
		if err != nil {
			return fmt.Errorf("broker %d: %w", b, err)
		}
		for _, p := range parts {
			t := md.topic(p.Topic)
			if t == nil || t.ErrorCode != 0 {
				return fmt.Errorf("broker %d does not show topic %q", b, p.Topic)
			}
			pm := answerFor(t.Partitions, func(x *wire.MetadataResponsePartition) bool { return x.PartitionIndex == p.Partition })
			if pm == nil || len(pm.ReplicaNodes) == 0 {
				return fmt.Errorf("broker %d does not show %s", b, tpString(p))
			}
			if pm.LeaderID != pm.ReplicaNodes[0] {
				return notPreferred(b, p, pm.LeaderID, pm.ReplicaNodes[0])
			}
		}
	}
	return nil
}

// notPreferred is the error for a partition that broker b shows led by
// another replica than the preferred one; a leader of -1 reads "with no
// leader", not "led by -1".
func notPreferred(b int32, p gregor.TopicPartition, leader, preferred int32) error {
	if leader < 0 {
		return fmt.Errorf("broker %d shows %s with no leader, preferred %d", b, tpString(p), preferred)
	}
	return fmt.Errorf("broker %d shows %s led by %d, preferred %d", b, tpString(p), leader, preferred)
}
