package producer

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"github.com/gregor-kafka/gregor/client"
)

// murmur2 is the 32-bit MurmurHash2 variant of the Java client's
// org.apache.kafka.common.utils.Utils.murmur2 (seed 0x9747b28c), which the
// default partitioner applies to a record's key bytes.
func murmur2(data []byte) int32 {
	const (
		seed uint32 = 0x9747b28c
		m    uint32 = 0x5bd1e995
		r           = 24
	)
	n := len(data)
	h := seed ^ uint32(n)
	i := 0
	for ; i+4 <= n; i += 4 {
		k := uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
	}
	switch n - i {
	case 3:
		h ^= uint32(data[i+2]) << 16
		fallthrough
	case 2:
		h ^= uint32(data[i+1]) << 8
		fallthrough
	case 1:
		h ^= uint32(data[i])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return int32(h)
}

// KeyPartition returns the partition the Java client's default partitioner
// picks for a non-null key among numPartitions partitions:
// Utils.toPositive(Utils.murmur2(key)) % numPartitions. An empty (non-nil)
// key is hashed like any other; nil keys use sticky partitioning instead.
// numPartitions must be positive.
func KeyPartition(key []byte, numPartitions int32) int32 {
	return (murmur2(key) & 0x7fffffff) % numPartitions
}

// stickyState is the uniform sticky partitioner of one topic (KIP-794): an
// unkeyed record goes to the topic's current sticky partition until about
// BatchMaxBytes have been produced to it, then another partition is chosen
// uniformly at random among those with a known leader.
type stickyState struct {
	partition int32 // -1: none chosen yet
	bytes     int
}

// next returns the partition for an unkeyed record of size bytes. avail
// lists partitions with a leader (may be empty: then all n are candidates).
func (s *stickyState) next(size, limit int, n int32, avail []int32) int32 {
	if s.partition < 0 || s.partition >= n || s.bytes >= limit {
		s.partition = pickOther(s.partition, n, avail)
		s.bytes = 0
	}
	s.bytes += size
	return s.partition
}

func pickOther(prev, n int32, avail []int32) int32 {
	if len(avail) > 0 {
		if len(avail) == 1 {
			return avail[0]
		}
		for {
			p := avail[rand.IntN(len(avail))]
			if p != prev {
				return p
			}
		}
	}
	if n == 1 {
		return 0
	}
	for {
		p := rand.Int32N(n)
		if p != prev {
			return p
		}
	}
}

// inRack appends to dst the partitions of tm with a leader that metadata
// places in rack (its broker.rack) and returns it: the candidates of the
// rack-aware partitioner (KIP-1123; the Java client's
// BuiltInPartitioner.nextPartition filters the available partitions by
// leader.hasRack() && leader.rack().equals(client.rack), and uses them when
// there is at least one).
func inRack(dst []int32, tm *client.TopicMetadata, md *client.Metadata, rack string) []int32 {
	for _, pm := range tm.Partitions {
		if pm.Leader < 0 {
			continue
		}
		i, ok := slices.BinarySearchFunc(md.Brokers, pm.Leader, func(b client.Broker, id int32) int { return cmp.Compare(b.NodeID, id) })
		if ok && md.Brokers[i].Rack != nil && *md.Brokers[i].Rack == rack {
			dst = append(dst, pm.Partition)
		}
	}
	return dst
}
