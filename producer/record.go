package producer

import (
	"fmt"
	"time"

	"github.com/gregor-kafka/gregor"
)

// Record is a record offered to the producer. The producer copies Key,
// Value and Headers at admission; the caller may reuse them once TrySend or
// Send returns. With Config.BorrowSlices it keeps them instead, and the
// caller must leave them unchanged until the record is terminal. Its zero value (with a Topic) is a null-key, null-value
// record the partitioner places.
type Record struct {
	// Topic is the destination topic. Required.
	Topic string
	// Partition is where the record goes. The zero value lets the
	// partitioner pick: murmur2 of a non-nil Key (Java-compatible), uniform
	// sticky (KIP-794) for a nil Key. ToPartition(n) sends to partition n
	// (0 included); a negative n is refused by TrySend/Send (ErrInvalidRecord,
	// certainty NotSent).
	Partition PartitionChoice
	// Key and Value: nil is null, distinct from empty.
	Key, Value []byte
	// Headers are kept in order, duplicates included.
	Headers []gregor.Header
	// Timestamp is the record's create time (Kafka keeps milliseconds); the
	// zero time means the time of admission, as read from a clock that a
	// busy producer reads about once a millisecond: it may be a millisecond
	// or so early, never late.
	Timestamp time.Time
}

// PartitionChoice is a Record's partition: the partitioner's choice (the
// zero value) or an explicit partition (ToPartition).
type PartitionChoice struct {
	n        int32
	explicit bool
}

// ToPartition returns the choice of partition n. Partition 0 is expressible;
// a negative n is refused at admission.
func ToPartition(n int32) PartitionChoice { return PartitionChoice{n: n, explicit: true} }

// Explicit returns the explicit partition and true, or 0 and false when
// the partitioner picks.
func (c PartitionChoice) Explicit() (int32, bool) { return c.n, c.explicit }

// String returns "partitioner" or the explicit partition number.
func (c PartitionChoice) String() string {
	if !c.explicit {
		return "partitioner"
	}
	return fmt.Sprint(c.n)
}

// requested is the partition as the producer keeps it: -1 for the
// partitioner. Only called once check accepted the choice.
func (c PartitionChoice) requested() int32 {
	if !c.explicit {
		return -1
	}
	return c.n
}
