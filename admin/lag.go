package admin

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor"
)

// LagOptions tunes Lag.
type LagOptions struct {
	// ReadCommitted measures against the last stable offset instead of the
	// high watermark (what a read_committed consumer can reach).
	ReadCommitted bool
}

// PartitionLag is a group's lag on one partition.
type PartitionLag struct {
	gregor.TopicPartition
	// Committed is the group's committed offset (the next offset to
	// consume); End the partition's end offset (high watermark, or last
	// stable offset with ReadCommitted).
	Committed, End int64
	// Lag is End minus Committed, at least 0; -1 when Err is set.
	Lag int64
	// Err is the partition's error from OffsetFetch or ListOffsets.
	Err error
}

// GroupLag is a consumer group's lag (as franz-go kadm's Lag): for every
// partition the group has a committed offset for, sorted by topic and
// partition.
type GroupLag struct {
	GroupID    string
	Partitions []PartitionLag
	// Total is the sum of the partitions' Lag (errors excluded).
	Total int64
}

// Lag computes the lag of group: its committed offsets (OffsetFetch) against
// the partitions' end offsets (ListOffsets latest). Partitions without a
// committed offset are not listed. Errors: a group-level Kafka error (e.g.
// GROUP_AUTHORIZATION_FAILED), or the failure that ended the retries;
// partition errors are in PartitionLag.Err.
func (a *Admin) Lag(ctx context.Context, group string, opts LagOptions) (GroupLag, error) {
	out := GroupLag{GroupID: group}
	fetched, err := a.FetchOffsets(ctx, []GroupOffsetsQuery{{GroupID: group}}, FetchOffsetsOptions{})
	if err != nil {
		return out, err
	}
	if len(fetched) != 1 {
		return out, errors.New("admin: OffsetFetch answered no group")
	}
	if fetched[0].Err != nil {
		return out, fetched[0].Err
	}
	var queries []OffsetQuery
	for _, c := range fetched[0].Offsets {
		if c.Committed && c.Err == nil {
			queries = append(queries, OffsetQuery{TopicPartition: c.TopicPartition, Spec: OffsetLatest})
		}
	}
	ends := map[gregor.TopicPartition]ListedOffset{}
	if len(queries) > 0 {
		listed, err := a.ListOffsets(ctx, queries, ListOffsetsOptions(opts))
		if err != nil {
			return out, err
		}
		for _, l := range listed {
			ends[l.TopicPartition] = l
		}
	}
	for _, c := range fetched[0].Offsets {
		if !c.Committed && c.Err == nil {
			continue
		}
		pl := PartitionLag{TopicPartition: c.TopicPartition, Committed: c.Offset, End: -1, Lag: -1, Err: c.Err}
		if e, ok := ends[c.TopicPartition]; ok && pl.Err == nil {
			pl.End, pl.Err = e.Offset, e.Err
			if pl.Err == nil {
				pl.Lag = max(e.Offset-c.Offset, 0)
				out.Total += pl.Lag
			}
		}
		out.Partitions = append(out.Partitions, pl)
	}
	return out, nil
}
