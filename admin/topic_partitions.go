package admin

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/wire"
)

// DescribeTopicPartitionsOptions tunes DescribeTopicPartitions.
type DescribeTopicPartitionsOptions struct {
	// PageSize is the most partitions one response may carry
	// (ResponsePartitionLimit); 0 means Kafka's default, 2000. The call
	// follows the response cursor until every partition is read.
	PageSize int32
}

// DescribeTopicPartitions describes topics with their partitions
// (DescribeTopicPartitions v0, KIP-966, any broker), following the
// response cursor page by page so that topics with very many partitions
// are read in bounded responses, and returns one description per topic in
// request order (TopicDescription with the KIP-966 ELR fields set). The batch is rejected with a *BatchError before sending
// for a repeated or invalid topic name or a negative page size.
func (a *Admin) DescribeTopicPartitions(ctx context.Context, topics []string, opts DescribeTopicPartitionsOptions) ([]TopicDescription, error) {
	for i, t := range topics {
		if s := topicNameProblem(t); s != "" {
			return nil, invalid(i, "%s", s)
		}
	}
	if err := checkUnique(len(topics), func(i int) string { return topics[i] }); err != nil {
		return nil, err
	}
	if opts.PageSize < 0 {
		return nil, invalid(0, "negative page size %d", opts.PageSize)
	}
	out := make([]TopicDescription, len(topics))
	pos := map[string]int{}
	for i, t := range topics {
		out[i].Name = t
		pos[t] = i
	}
	answered := make([]bool, len(topics))
	req := &wire.DescribeTopicPartitionsRequest{ResponsePartitionLimit: 2000}
	if opts.PageSize > 0 {
		req.ResponsePartitionLimit = opts.PageSize
	}
	for _, t := range topics {
		req.Topics = append(req.Topics, wire.DescribeTopicPartitionsTopicRequest{Name: t})
	}
	for len(topics) > 0 {
		var next *wire.DescribeTopicPartitionsResponseCursor
		err := a.anyBrokerOnce(ctx, req, func(resp wire.Response) error {
			r := resp.(*wire.DescribeTopicPartitionsResponse)
			for _, t := range r.Topics {
				if t.Name == nil {
					continue
				}
				i, ok := pos[*t.Name]
				if !ok {
					continue
				}
				answered[i] = true
				d := &out[i]
				d.ID, d.Internal, d.Err = t.TopicID, t.IsInternal, codeErr(t.ErrorCode, nil)
				for _, p := range t.Partitions {
					d.Partitions = append(d.Partitions, PartitionDescription{Partition: p.PartitionIndex, Leader: p.LeaderID,
						LeaderEpoch: p.LeaderEpoch, Replicas: p.ReplicaNodes, ISR: p.IsrNodes, ELR: p.EligibleLeaderReplicas,
						LastKnownELR: p.LastKnownElr, Offline: p.OfflineReplicas, Err: codeErr(p.ErrorCode, nil)})
				}
			}
			next = r.NextCursor
			return nil
		})
		if err != nil {
			if !anyTrue(answered) {
				return nil, err
			}
			for i := range out {
				if out[i].Err == nil {
					out[i].Err = err
				}
			}
			return out, nil
		}
		if next == nil {
			break
		}
		req.Cursor = &wire.DescribeTopicPartitionsCursor{TopicName: next.TopicName, PartitionIndex: next.PartitionIndex}
	}
	for i := range out {
		if !answered[i] {
			out[i].Err = errors.New("admin: broker returned no description for topic " + topics[i])
		}
	}
	return out, nil
}

// anyTrue reports whether some element of b is true.
func anyTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}
