package consumer

import "testing"

// TestPartitionShare: a Fetch's partitions split its asked bytes (powers
// of two from the Java default, 1 MiB, up to PartitionMaxBytes), so the
// first partition with data cannot take the whole response; one partition
// keeps PartitionMaxBytes, and a smaller configured bound is kept.
func TestPartitionShare(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		partMax, ask int32
		n            int
		want         int32
	}{
		{8 * mib, 8 * mib, 1, 8 * mib},   // one partition: all of it
		{8 * mib, 8 * mib, 2, 4 * mib},   // a fair half each
		{8 * mib, 8 * mib, 4, 2 * mib},   // the take-over case: four partitions
		{8 * mib, 7 * mib, 4, 1 * mib},   // 1.75 MiB rounds down to 1 MiB
		{8 * mib, 8 * mib, 256, 1 * mib}, // never below the Java default
		{8 * mib, 64 * mib, 2, 8 * mib},  // never above PartitionMaxBytes
		{64 << 10, 8 * mib, 4, 64 << 10}, // a configured bound below 1 MiB stays
		{3 * mib, 16 * mib, 2, 3 * mib},  // a bound that is no power of two caps
	} {
		if got := partitionShare(c.partMax, c.ask, c.n); got != c.want {
			t.Errorf("partitionShare(%d, %d, %d) = %d, want %d", c.partMax, c.ask, c.n, got, c.want)
		}
	}
}
