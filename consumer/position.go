package consumer

import (
	"fmt"

	"github.com/gregor-kafka/gregor"
)

// PositionKind says how a Position is given.
type PositionKind uint8

const (
	// Beginning is the log start offset at the time the position is set
	// (ListOffsets timestamp -2, EARLIEST_TIMESTAMP).
	Beginning PositionKind = iota + 1
	// End is the log end offset at the time the position is set: the high
	// watermark, or the last stable offset under ReadCommitted (ListOffsets
	// timestamp -1, LATEST_TIMESTAMP).
	End
	// Exact is an explicit offset.
	Exact
)

// String returns "beginning", "end" or "offset".
func (k PositionKind) String() string {
	switch k {
	case Beginning:
		return "beginning"
	case End:
		return "end"
	case Exact:
		return "offset"
	}
	return fmt.Sprintf("PositionKind(%d)", uint8(k))
}

// Position is a start position for a partition: the next offset to deliver.
// Beginning and End are resolved to exact offsets (ListOffsets) before the
// call that sets them returns.
type Position struct {
	Kind   PositionKind
	Offset int64 // for Exact: the offset, >= 0
}

// AtBeginning returns the position of the log start offset.
func AtBeginning() Position { return Position{Kind: Beginning} }

// AtEnd returns the position of the log end offset.
func AtEnd() Position { return Position{Kind: End} }

// AtOffset returns the exact position o (o >= 0).
func AtOffset(o int64) Position { return Position{Kind: Exact, Offset: o} }

// String returns "beginning", "end" or "offset N".
func (p Position) String() string {
	if p.Kind == Exact {
		return fmt.Sprintf("offset %d", p.Offset)
	}
	return p.Kind.String()
}

func (p Position) validate() error {
	switch p.Kind {
	case Beginning, End:
		return nil
	case Exact:
		if p.Offset < 0 {
			return fmt.Errorf("consumer: negative offset %d", p.Offset)
		}
		return nil
	}
	return fmt.Errorf("consumer: invalid position kind %d", p.Kind)
}

// PartitionPosition is a partition with its start position.
type PartitionPosition struct {
	gregor.TopicPartition
	Position Position
}
