package share

import (
	"testing"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// TestSessionRecreatedTopic: a session whose partition was added under a
// topic ID that metadata no longer names for its topic (deleted and
// created again) is recreated, and planLocked reopens it; the same ID, or
// a topic metadata does not list (deleted, not yet back), is not.
func TestSessionRecreatedTopic(t *testing.T) {
	oldID, newID := wire.UUID{1}, wire.UUID{2}
	s := &session{}
	s.reset()
	s.epoch = 3
	s.parts[gregor.TopicPartition{Topic: "t", Partition: 0}] = oldID
	for _, tc := range []struct {
		name string
		md   map[string]topicMeta
		want bool
	}{
		{"same ID", map[string]topicMeta{"t": {id: oldID}}, false},
		{"recreated", map[string]topicMeta{"t": {id: newID}}, true},
		{"not listed", map[string]topicMeta{}, false},
		{"no IDs", map[string]topicMeta{"t": {}}, false},
	} {
		if got := s.recreated(tc.md); got != tc.want {
			t.Errorf("%s: recreated %v, want %v", tc.name, got, tc.want)
		}
	}
}
