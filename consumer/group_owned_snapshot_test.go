package consumer

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// TestHeartbeatOwnedWithoutGroupLock: the KIP-848 heartbeat lists the
// owned partitions while Group.mu is held elsewhere (an application's
// MarkProcessed or commit): it reads the snapshot published at every
// change of owned, never the lock, so no caller-side work under the lock
// can delay the heartbeat until the member is fenced. Reading the owned
// map under the lock, as before, this blocks until the lock is released.
func TestHeartbeatOwnedWithoutGroupLock(t *testing.T) {
	g := &Group{owned: map[gregor.TopicPartition]bool{}, committed: map[gregor.TopicPartition]int64{}}
	id := wire.UUID{7}
	m := &kip848Member{g: g, idNames: map[wire.UUID]string{id: "t"}}
	g.mu.Lock()
	g.owned[gregor.TopicPartition{Topic: "t", Partition: 1}] = true
	g.owned[gregor.TopicPartition{Topic: "t", Partition: 0}] = true
	g.publishOwnedLocked()
	// g.mu stays held: an application call in progress.
	done := make(chan []wire.ConsumerGroupHeartbeatTopicPartitions, 1)
	go func() { done <- m.ownedByID() }()
	select {
	case got := <-done:
		if len(got) != 1 || got[0].TopicID != id || len(got[0].Partitions) != 2 || got[0].Partitions[0] != 0 || got[0].Partitions[1] != 1 {
			t.Fatalf("heartbeat lists %+v, want t's partitions [0 1]", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the heartbeat's owned list waited for Group.mu")
	}
	g.mu.Unlock()

	// A change is seen by the next heartbeat.
	g.mu.Lock()
	delete(g.owned, gregor.TopicPartition{Topic: "t", Partition: 0})
	g.publishOwnedLocked()
	g.mu.Unlock()
	if got := m.ownedByID(); len(got) != 1 || len(got[0].Partitions) != 1 || got[0].Partitions[0] != 1 {
		t.Fatalf("after dropping partition 0 the heartbeat lists %+v, want [1]", got)
	}
}
