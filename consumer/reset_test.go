package consumer

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

func TestOutOfRangeResetNone(t *testing.T) {
	f := newFakeBroker(t)
	f.append(tp0, dataBatch(0, 10))
	c := newTestConsumer(t, f, Config{OffsetReset: ResetNone})
	if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(3)}}); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 7), tp0, 3, 10)
	f.setStart(tp0, 10)
	if err := c.Seek(bg(), tp0, AtOffset(4)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
	defer cancel()
	_, err := c.Receive(ctx)
	var oor *OffsetOutOfRangeError
	if !errors.As(err, &oor) || !errors.Is(err, wire.ErrOffsetOutOfRange) {
		t.Fatalf("Receive = %v, want *OffsetOutOfRangeError", err)
	}
	if oor.TopicPartition != tp0 || oor.Offset != 4 || oor.LogStartOffset != 10 || oor.LogEndOffset != 10 {
		t.Fatalf("error %+v", oor)
	}
	// Reported once; the partition stays stopped until a seek.
	f.append(tp0, dataBatch(10, 2))
	expectNothing(t, c, 150*time.Millisecond)
	if err := c.Seek(bg(), tp0, AtBeginning()); err != nil {
		t.Fatal(err)
	}
	wantOffsets(t, receiveN(t, c, 2), tp0, 10, 12)
}

func TestOutOfRangeResetEarliestAndLatest(t *testing.T) {
	for _, policy := range []ResetPolicy{ResetEarliest, ResetLatest} {
		t.Run(policy.String(), func(t *testing.T) {
			f := newFakeBroker(t)
			f.append(tp0, dataBatch(0, 10))
			f.setStart(tp0, 6)
			c := newTestConsumer(t, f, Config{OffsetReset: policy})
			if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(2)}}); err != nil {
				t.Fatal(err)
			}
			if policy == ResetEarliest {
				wantOffsets(t, receiveN(t, c, 4), tp0, 6, 10)
				return
			}
			waitFor(t, "reset to the end", func() bool {
				return c.Assignment()[0].Position == AtOffset(10)
			})
			f.append(tp0, dataBatch(10, 1))
			wantOffsets(t, receiveN(t, c, 1), tp0, 10, 11)
		})
	}
}

func TestTruncationDetected(t *testing.T) {
	for _, policy := range []ResetPolicy{ResetNone, ResetEarliest} {
		t.Run(policy.String(), func(t *testing.T) {
			f := newFakeBroker(t)
			f.append(tp0, dataBatch(0, 10))
			c := newTestConsumer(t, f, Config{OffsetReset: policy})
			if err := c.Assign(bg(), []PartitionPosition{{tp0, AtOffset(8)}}); err != nil {
				t.Fatal(err)
			}
			wantOffsets(t, receiveN(t, c, 2), tp0, 8, 10)
			f.mu.Lock()
			f.diverge[tp0] = &divergingEpoch{Epoch: 3, EndOffset: 6}
			f.mu.Unlock()
			f.append(tp0, dataBatch(10, 1))
			if policy == ResetNone {
				ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
				defer cancel()
				_, err := c.Receive(ctx)
				var te *LogTruncationError
				if !errors.As(err, &te) || te.TruncatedAt != 6 || te.Offset != 10 {
					t.Fatalf("Receive = %v, want *LogTruncationError at 6", err)
				}
				return
			}
			// With a reset policy the position moves back to the divergence.
			wantOffsets(t, receiveN(t, c, 5), tp0, 6, 11)
		})
	}
}

// TestValidateAfterLeaderChange: when metadata names a new leader epoch,
// the position is checked with OffsetForLeaderEpoch before fetching on
// (KIP-320): no truncation → reading continues; the last consumed epoch
// ending below the position → LogTruncationError under ResetNone, or the
// position moves back to the epoch's end.
func TestValidateAfterLeaderChange(t *testing.T) {
	for _, tc := range []struct {
		name      string
		policy    ResetPolicy
		truncated bool
	}{{"clean", ResetNone, false}, {"truncated-none", ResetNone, true}, {"truncated-earliest", ResetEarliest, true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeBroker(t)
			b := dataBatch(0, 10)
			b.epoch = 5
			f.append(tp0, b)
			c := newTestConsumer(t, f, Config{OffsetReset: tc.policy})
			if err := c.Assign(bg(), []PartitionPosition{{tp0, AtBeginning()}}); err != nil {
				t.Fatal(err)
			}
			wantOffsets(t, receiveN(t, c, 10), tp0, 0, 10)
			f.mu.Lock()
			f.epochs[tp0] = 6 // leader change
			if tc.truncated {
				f.epochEnds[tp0] = epochResp{LeaderEpoch: 5, EndOffset: 7}
			}
			f.mu.Unlock()
			nb := dataBatch(10, 2)
			nb.epoch = 6
			f.append(tp0, nb)
			switch {
			case !tc.truncated:
				wantOffsets(t, receiveN(t, c, 2), tp0, 10, 12)
			case tc.policy == ResetNone:
				ctx, cancel := context.WithTimeout(bg(), 5*time.Second)
				defer cancel()
				_, err := c.Receive(ctx)
				var te *LogTruncationError
				if !errors.As(err, &te) || te.TruncatedAt != 7 || te.Offset != 10 || te.LeaderEpoch != 5 {
					t.Fatalf("Receive = %v, want *LogTruncationError at 7", err)
				}
			default:
				wantOffsets(t, receiveN(t, c, 5), tp0, 7, 12)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.validations == 0 {
				t.Fatal("no OffsetForLeaderEpoch was sent after the leader change")
			}
		})
	}
}
