package gregor

import "testing"

// A record's partition is -1 until the partitioner chose it; messages read
// "topic (no partition yet)" instead of "topic/-1".
func TestTopicPartitionStringWithoutPartition(t *testing.T) {
	for _, c := range []struct {
		tp   TopicPartition
		want string
	}{
		{TopicPartition{Topic: "orders", Partition: 3}, "orders/3"},
		{TopicPartition{Topic: "orders", Partition: 0}, "orders/0"},
		{TopicPartition{Topic: "orders", Partition: -1}, "orders (no partition yet)"},
	} {
		if got := c.tp.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.tp, got, c.want)
		}
	}
}
