package txn

import (
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/internal/topotest"
)

// TestIntegrationRecreatedTopic: a transaction that writes to a topic
// deleted and recreated since the previous one commits every record, also
// when the producer's metadata shows the new topic ID between two of its
// records. Where Produce names topics (Kafka 4.0 and earlier) the first
// record went to the new topic under the continued sequence; restarting
// at 0 on seeing the new ID was refused OUT_OF_ORDER_SEQUENCE_NUMBER, which
// a transactional producer cannot recover from (the record failed and the
// transaction had to abort).
func TestIntegrationRecreatedTopic(t *testing.T) {
	integrationVersions(t, func(t *testing.T, version int) {
		e := newEnv(t)
		topo := topotest.Topic{Admin: admin.New(e.cl, admin.Config{}), Name: kafkatest.UniqueName(t, "txn-recreated")}
		topo.Create(e.ctx, t, 1)
		p := e.txnProducer(kafkatest.UniqueName(t, "tid"), version)
		must(t, p.Begin())
		for _, v := range []string{"old-1", "old-2"} {
			e.send(p, topo.Name, 0, v)
		}
		must(t, p.Commit(e.ctx))
		topo.Remove(e.ctx, t)
		topo.Create(e.ctx, t, 1)

		must(t, p.Begin())
		e.send(p, topo.Name, 0, "new-1")
		e.cl.InvalidateMetadata()
		if _, err := e.cl.Metadata(e.ctx, []string{topo.Name}); err != nil { // the producer sees the new ID from here on
			t.Fatal(err)
		}
		last := e.send(p, topo.Name, 0, "new-2")
		must(t, p.Commit(e.ctx))
		if got := e.read(topo.Name, 0, consumer.ReadCommitted, last.Offset+1); !slices.Equal(got, []string{"new-1", "new-2"}) {
			t.Fatalf("read_committed of the recreated topic: %q, want new-1, new-2", got)
		}
	})
}
