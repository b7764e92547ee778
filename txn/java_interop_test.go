package txn

import (
	"github.com/gregor-kafka/gregor/consumer"
	"slices"
	"strings"
	"testing"

	"github.com/gregor-kafka/gregor/internal/kafkatest"
)

// TestIntegrationJavaReadCommitted: Java's own consumer (the ConsoleConsumer
// of the Kafka 4.4 jars, isolation.level=read_committed) reads what
// gregor's transactional producer wrote with transactions v1 and v2: the
// committed transaction's records and never the aborted one's.
func TestIntegrationJavaReadCommitted(t *testing.T) {
	integrationVersions(t, func(t *testing.T, version int) {
		e := newEnv(t)
		topic := e.topic("txn-java", 1)
		p := e.txnProducer(kafkatest.UniqueName(t, "tid"), version)
		must(t, p.Begin())
		e.send(p, topic, 0, "aborted-1")
		e.send(p, topic, 0, "aborted-2")
		must(t, p.Abort(e.ctx))
		must(t, p.Begin())
		e.send(p, topic, 0, "committed-1")
		last := e.send(p, topic, 0, "committed-2")
		must(t, p.Commit(e.ctx))
		e.read(topic, 0, consumer.ReadCommitted, last.Offset+1) // waits until the last stable offset passes the commit

		cluster := kafkatest.Shared(t)
		out, err := cluster.RunTool(e.ctx, "org.apache.kafka.tools.consumer.ConsoleConsumer",
			"--bootstrap-server", strings.Join(cluster.Bootstrap(kafkatest.Plaintext), ","), "--topic", topic,
			"--from-beginning", "--isolation-level", "read_committed", "--max-messages", "2", "--timeout-ms", "30000")
		if err != nil {
			t.Fatalf("ConsoleConsumer: %v\n%s", err, out)
		}
		var got []string
		for _, l := range strings.Split(out, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "committed-") || strings.HasPrefix(l, "aborted-") {
				got = append(got, l)
			}
		}
		if !slices.Equal(got, []string{"committed-1", "committed-2"}) {
			t.Fatalf("Java read_committed consumer read %q, want committed-1, committed-2\n%s", got, out)
		}
	})
}
