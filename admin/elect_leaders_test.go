package admin

import (
	"testing"

	"github.com/gregor-kafka/gregor"
)

// A partition without a leader (-1 in the metadata) reads "with no
// leader", not "led by -1".
func TestNotPreferredNamesNoLeader(t *testing.T) {
	tp := gregor.TopicPartition{Topic: "orders", Partition: 2}
	if got, want := notPreferred(1, tp, -1, 3).Error(), "broker 1 shows orders[2] with no leader, preferred 3"; got != want {
		t.Errorf("no leader: %q, want %q", got, want)
	}
	if got, want := notPreferred(1, tp, 2, 3).Error(), "broker 1 shows orders[2] led by 2, preferred 3"; got != want {
		t.Errorf("leader 2: %q, want %q", got, want)
	}
}
