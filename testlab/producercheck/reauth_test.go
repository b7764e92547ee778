package producercheck

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/testlab/internal/labtest"
)

// TestProduceAcrossReauthentication starts its own broker whose SASL
// sessions last 5s (connections.max.reauth.ms, KIP-368) and produces
// continuously over SASL_PLAINTEXT (SCRAM-SHA-512) for 11s to three
// partitions, up to five requests in flight. The producer's connection
// re-authenticates at least twice and never closes (a client without
// KIP-368 would have it closed under its in-flight requests, leaving them
// PossiblySent); every record is acknowledged, and franz-go reads each back
// exactly once at its acknowledged offset, in admission order per partition.
func TestProduceAcrossReauthentication(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cluster, err := kafkatest.Start(ctx, kafkatest.Options{Log: t.Logf,
		BrokerConfig: map[string]string{"connections.max.reauth.ms": "5000"}})
	if err != nil {
		t.Fatalf("kafkatest: no Kafka: %v", err)
	}
	t.Cleanup(func() { cluster.Close() })
	b := &bed{labtest.On(t, cluster.Bootstrap(kafkatest.Plaintext))}
	topic := b.Topic(ctx, "pc-reauth", 3, 1, nil)

	gcl, err := client.New(client.Config{Bootstrap: cluster.Bootstrap(kafkatest.SASLPlaintext),
		SASL: &client.SASL{Mechanism: client.SASLScramSHA512, Username: kafkatest.AdminUser, Password: kafkatest.AdminPassword}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gcl.Close(context.Background()) })
	p, err := producer.New(gcl, producer.Config{Linger: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())

	type sent struct {
		value string
		d     *producer.Delivery
	}
	var all []sent
	end := time.Now().Add(11 * time.Second)  // 2 re-authentications due by 9.5s
	tick := time.NewTicker(time.Millisecond) // pacing of the load, not synchronization
	defer tick.Stop()
	for i := 0; time.Now().Before(end); {
		<-tick.C
		for range 10 {
			v := fmt.Sprintf("r%d", i)
			d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(int32(i % 3)), Value: []byte(v)})
			if err != nil {
				t.Fatalf("Send %s: %v", v, err)
			}
			all = append(all, sent{v, d})
			i++
		}
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	at := make(map[string]string, len(all)) // partition@offset -> value
	last := map[int32]int64{0: -1, 1: -1, 2: -1}
	for _, s := range all {
		r, err := s.d.Wait(ctx)
		if err != nil || r.Err != nil {
			t.Fatalf("%s: %v / %+v", s.value, err, r)
		}
		if r.Offset <= last[r.Partition] {
			t.Fatalf("%s acknowledged at %d@%d, not after %d: admission order lost", s.value, r.Partition, r.Offset, last[r.Partition])
		}
		last[r.Partition] = r.Offset
		at[fmt.Sprintf("%d@%d", r.Partition, r.Offset)] = s.value
	}
	m := gcl.Metrics()
	t.Logf("%d records acknowledged; connections %+v; %d produce requests", len(all), m.Conns, m.Producer.Requests)
	if m.Conns.Closed != 0 || m.Conns.Reauthentications < 2 {
		t.Fatalf("connections %+v: want none closed and >= 2 re-authentications", m.Conns)
	}

	got := b.readAll(topic, len(all))
	if len(got) != len(all) {
		t.Fatalf("franz-go read %d records, want %d", len(got), len(all))
	}
	for _, r := range got {
		if want, ok := at[key(r)]; !ok || want != string(r.Value) {
			t.Fatalf("franz-go read %q at %s, acknowledged there: %q", r.Value, key(r), want)
		}
		delete(at, key(r))
	}
}
