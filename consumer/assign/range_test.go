package assign

import (
	"slices"
	"testing"
)

// TestWithoutSubsequence: the range assignor's removal of what a member
// took from the unassigned partitions, a prefix (plain ranges) or any
// subsequence (rack matching), keeps the rest in order.
func TestWithoutSubsequence(t *testing.T) {
	tp := func(ps ...int32) []topicPartition {
		var out []topicPartition
		for _, p := range ps {
			out = append(out, topicPartition{"t", p})
		}
		return out
	}
	for _, c := range []struct{ list, sub, want []topicPartition }{
		{tp(0, 1, 2, 3), tp(0, 1), tp(2, 3)},
		{tp(0, 1, 2, 3), tp(1, 3), tp(0, 2)},
		{tp(0, 1, 2, 3), tp(2), tp(0, 1, 3)},
		{tp(0, 1, 2, 3), tp(0, 1, 2, 3), nil},
		{tp(0, 1), nil, tp(0, 1)},
		{nil, nil, nil},
	} {
		list := slices.Clone(c.list)
		if got := withoutSubsequence(list, c.sub); !slices.Equal(got, c.want) {
			t.Errorf("withoutSubsequence(%v, %v) = %v, want %v", c.list, c.sub, got, c.want)
		}
	}
}
