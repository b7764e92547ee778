package client

import (
	"cmp"
	"slices"
)

// mergePartitions sorts parts by topic and partition and merges entries of
// the same partition as PartitionMetrics documents.
func mergePartitions(parts []PartitionMetrics) []PartitionMetrics {
	if len(parts) == 0 {
		return nil
	}
	slices.SortFunc(parts, func(a, b PartitionMetrics) int {
		if c := cmp.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return cmp.Compare(a.Partition, b.Partition)
	})
	out := parts[:1]
	for _, p := range parts[1:] {
		d := &out[len(out)-1]
		if p.Topic != d.Topic || p.Partition != d.Partition {
			out = append(out, p)
			continue
		}
		d.ProducedRecords += p.ProducedRecords
		d.ProducedBytes += p.ProducedBytes
		d.FetchedRecords += p.FetchedRecords
		d.FetchedBytes += p.FetchedBytes
		d.BufferedRecords += p.BufferedRecords
		d.BufferedBytes += p.BufferedBytes
		d.HighWatermark = max(d.HighWatermark, p.HighWatermark)
		d.LastStableOffset = max(d.LastStableOffset, p.LastStableOffset)
		if p.Position >= 0 && (d.Position < 0 || p.Lag > d.Lag || (p.Lag == d.Lag && p.Position < d.Position)) {
			d.Position, d.Lag = p.Position, p.Lag
		}
		if p.FromFollower && !d.FromFollower {
			d.FromFollower, d.ReadReplica = true, p.ReadReplica
		}
	}
	return out
}
