package properties

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/txn"
	"github.com/gregor-kafka/gregor/wire"
)

func TestParseJavaSyntax(t *testing.T) {
	in := `# comment
! another comment
   bootstrap.servers = a:1,\
      b:2
client.id:my\ client
key\=with\:seps value\u0041\tx
empty
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p\\\\q";
dup=1
dup=2
`
	got, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"bootstrap.servers": "a:1,b:2",
		"client.id":         "my client",
		"key=with:seps":     "valueA\tx",
		"empty":             "",
		"sasl.jaas.config":  `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p\\q";`,
		"dup":               "2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
	if _, err := Parse(strings.NewReader("a=\\u12\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("malformed \\u: got %v", err)
	}
}

func TestAllKeys(t *testing.T) {
	p := map[string]string{
		"bootstrap.servers":                     "h1:9092, h2:9093",
		"client.id":                             "cid",
		"request.timeout.ms":                    "7000",
		"retry.backoff.ms":                      "50",
		"retry.backoff.max.ms":                  "900",
		"metadata.max.age.ms":                   "60000",
		"connections.max.idle.ms":               "1000",
		"socket.connection.setup.timeout.ms":    "3000",
		"default.api.timeout.ms":                "20000",
		"max.in.flight.requests.per.connection": "3",
		"enable.metrics.push":                   "false",
		"acks":                                  "all",
		"enable.idempotence":                    "true",
		"linger.ms":                             "0",
		"batch.size":                            "65536",
		"buffer.memory":                         "67108864",
		"max.request.size":                      "2097152",
		"compression.type":                      "zstd",
		"compression.zstd.level":                "7",
		"compression.gzip.level":                "2", // another codec's level: unused
		"delivery.timeout.ms":                   "60000",
		"retries":                               "4",
		"fetch.max.wait.ms":                     "250",
		"fetch.min.bytes":                       "10",
		"fetch.max.bytes":                       "1000000",
		"max.partition.fetch.bytes":             "2000",
		"isolation.level":                       "read_committed",
		"client.rack":                           "rack-b",
		"partitioner.rack.aware":                "true",
		"auto.offset.reset":                     "none",
		"group.id":                              "g1",
		"group.instance.id":                     "i1",
		"group.protocol":                        "classic",
		"session.timeout.ms":                    "10000",
		"max.poll.interval.ms":                  "60000",
		"heartbeat.interval.ms":                 "1000",
		"enable.auto.commit":                    "false",
		"auto.commit.interval.ms":               "2000",
		"partition.assignment.strategy":         "org.apache.kafka.clients.consumer.CooperativeStickyAssignor, range",
		"transactional.id":                      "tx1",
		"transaction.timeout.ms":                "30000",
		"key.serializer":                        "org.apache.kafka.common.serialization.ByteArraySerializer",
		"security.protocol":                     "SASL_PLAINTEXT",
		"sasl.mechanism":                        "SCRAM-SHA-512",
		"sasl.jaas.config":                      `org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="a \"quoted\" secret";`,
	}
	c, err := All(p)
	if err != nil {
		t.Fatal(err)
	}
	retries, on, off := 4, true, false
	want := Configs{
		Client: client.Config{Bootstrap: []string{"h1:9092", "h2:9093"}, ClientID: "cid", RequestTimeout: 7 * time.Second,
			RetryBackoff: 50 * time.Millisecond, RetryBackoffMax: 900 * time.Millisecond, MetadataMaxAge: time.Minute,
			ConnIdleTimeout: time.Second, DialTimeout: 3 * time.Second, MaxInFlightPerBroker: 3, EnableMetricsPush: &off,
			SASL: &client.SASL{Mechanism: client.SASLScramSHA512, Username: "alice", Password: `a "quoted" secret`}},
		APITimeout: 20 * time.Second,
	}
	want.Producer.Acks, want.Producer.Idempotence, want.Producer.Linger = -1, &on, -1
	want.Producer.BatchMaxBytes, want.Producer.RetainedBytes, want.Producer.RequestMaxBytes = 65536, 64<<20, 2<<20
	want.Producer.Compression, want.Producer.CompressionLevel = wire.CompressionZstd, 7
	want.Producer.Rack, want.Producer.RackAwarePartitioning = "rack-b", true
	want.Producer.DeliveryTimeout, want.Producer.MaxRetries = time.Minute, &retries
	want.Producer.RequestTimeout, want.Producer.RetryBackoff, want.Producer.MaxInFlightPerBroker = 7*time.Second, 50*time.Millisecond, 3
	want.Consumer = consumer.Config{MaxWait: 250 * time.Millisecond, MinBytes: 10, MaxBytes: 1000000, PartitionMaxBytes: 2000,
		Isolation: consumer.ReadCommitted, OffsetReset: consumer.ResetNone, Rack: "rack-b", RequestTimeout: 7 * time.Second}
	want.Group = consumer.GroupConfig{Config: want.Consumer, GroupID: "g1", InstanceID: "i1", Protocol: consumer.ProtocolClassic,
		SessionTimeout: 10 * time.Second, RebalanceTimeout: time.Minute, HeartbeatInterval: time.Second,
		DisableAutoCommit: true, AutoCommitInterval: 2 * time.Second,
		Assignors: []assign.Assignor{assign.CooperativeSticky(), assign.Range()}}
	want.Txn = txn.Config{TransactionalID: "tx1", TransactionTimeout: 30 * time.Second, RetryBackoff: 50 * time.Millisecond, Producer: want.Producer}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got  %+v\nwant %+v", c, want)
	}

	// Round trip: Format then All gives the same configs back.
	back, err := All(Format(c))
	if err != nil {
		t.Fatalf("All(Format): %v\n%v", err, Format(c))
	}
	if !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip:\n got  %+v\n want %+v", back, c)
	}
	// And the configs are accepted by their packages' validation.
	cc, pc, err := Producer(withoutConsumerKeys(p))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := client.New(cc)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	if !reflect.DeepEqual(pc, c.Producer) {
		t.Fatalf("Producer differs from All: %+v", pc)
	}
}

func withoutConsumerKeys(p map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range p {
		if key, ok := lookup(k); ok && key.Scope&(ScopeClient|ScopeProducer) == 0 || slices.Contains(GroupKeys, k) || strings.HasPrefix(k, "transaction") {
			continue
		}
		out[k] = v
	}
	return out
}

func TestBadKeys(t *testing.T) {
	base := func(kv ...string) map[string]string {
		p := map[string]string{"bootstrap.servers": "h:1"}
		for i := 0; i < len(kv); i += 2 {
			p[kv[i]] = kv[i+1]
		}
		return p
	}
	cases := []struct {
		name  string
		build func(map[string]string) error
		p     map[string]string
		kind  error
		key   string
		text  string
	}{
		{"unknown", allErr, base("linger.mss", "5"), ErrUnknownKey, "linger.mss", `properties: linger.mss="5": unknown key`},
		{"consumer key to producer", producerErr, base("fetch.max.wait.ms", "5"), ErrUnknownKey, "fetch.max.wait.ms", "a consumer setting, not a client+producer one"},
		{"producer key to client", clientErr, base("linger.ms", "5"), ErrUnknownKey, "linger.ms", "a producer setting"},
		{"not a number", allErr, base("linger.ms", "5ms"), ErrInvalidValue, "linger.ms", "not an integer"},
		{"negative", allErr, base("request.timeout.ms", "-1"), ErrInvalidValue, "request.timeout.ms", "within"},
		{"bad enum", allErr, base("isolation.level", "serializable"), ErrInvalidValue, "isolation.level", "read_uncommitted, read_committed"},
		{"bad bool", allErr, base("enable.idempotence", "yes"), ErrInvalidValue, "enable.idempotence", "true or false"},
		{"acks 1", allErr, base("acks", "1"), ErrWeakensDurability, "acks", "always acks=all"},
		{"acks 0", producerErr, base("acks", "0"), ErrWeakensDurability, "acks", ""},
		{"idempotence off", allErr, base("enable.idempotence", "false"), ErrWeakensDurability, "enable.idempotence", "idempotent"},
		{"in flight 6", producerErr, base("max.in.flight.requests.per.connection", "6"), ErrWeakensDurability, "max.in.flight.requests.per.connection", "at most 5"},
		{"missing bootstrap", allErr, map[string]string{"client.id": "x"}, ErrMissingKey, "bootstrap.servers", "properties: bootstrap.servers: missing key"},
		{"empty bootstrap", allErr, base("bootstrap.servers", " , "), ErrInvalidValue, "bootstrap.servers", "no host:port"},
		{"gssapi", allErr, base("sasl.mechanism", "GSSAPI"), ErrUnsupported, "sasl.mechanism", ""},
		{"sasl without mechanism", allErr, base("security.protocol", "SASL_SSL"), ErrMissingKey, "sasl.mechanism", "GSSAPI"},
		{"sasl without jaas", allErr, base("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN"), ErrMissingKey, "sasl.jaas.config", ""},
		{"bad jaas hides value", allErr, base("sasl.jaas.config", `org.apache.kafka.common.security.plain.PlainLoginModule required password="topsecret";`), ErrInvalidValue, "sasl.jaas.config", `sasl.jaas.config="[hidden]": invalid value: no username option`},
		{"jks", allErr, base("ssl.truststore.type", "JKS"), ErrUnsupported, "ssl.truststore.type", "only PEM"},
		{"missing truststore", allErr, base("security.protocol", "SSL", "ssl.truststore.location", "/nonexistent/ca.pem"), ErrInvalidValue, "ssl.truststore.location", "no such file"},
		{"not pem", allErr, base("security.protocol", "SSL", "ssl.truststore.certificates", "hello"), ErrInvalidValue, "ssl.truststore.certificates", "no PEM certificate"},
		{"transactional to producer", producerErr, base("transactional.id", "t"), ErrUnsupported, "transactional.id", "properties.Transactional"},
		{"empty transactional id", txnErr, base("transactional.id", ""), ErrInvalidValue, "transactional.id", "empty"},
		{"group", consumerErr, base("group.id", "g"), ErrUnsupported, "group.id", "group consumer"},
		{"auto commit", consumerErr, base("enable.auto.commit", "true"), ErrUnsupported, "enable.auto.commit", "properties.Group"},
		{"max.poll.records", groupErr, base("max.poll.records", "10"), ErrUnsupported, "max.poll.records", "no count limit"},
		{"bad assignor", groupErr, base("partition.assignment.strategy", "com.example.MyAssignor"), ErrInvalidValue, "partition.assignment.strategy", "RangeAssignor"},
		{"bad group protocol", groupErr, base("group.protocol", "streams"), ErrInvalidValue, "group.protocol", "classic, consumer"},
		{"empty group id", groupErr, base("group.id", " "), ErrInvalidValue, "group.id", "empty"},
		{"bad session timeout", groupErr, base("session.timeout.ms", "0"), ErrInvalidValue, "session.timeout.ms", "within"},
		{"group key to producer", producerErr, base("group.id", "g"), ErrUnsupported, "group.id", "properties.Group"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.build(tc.p)
			var ke *KeyError
			if !errors.As(err, &ke) || !errors.Is(err, tc.kind) || ke.Key != tc.key {
				t.Fatalf("got %v (%T), want a %v KeyError for %s", err, err, tc.kind, tc.key)
			}
			if !strings.Contains(err.Error(), tc.text) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q lacks %q (or is not one line)", err, tc.text)
			}
			if strings.Contains(err.Error(), "topsecret") {
				t.Fatalf("error shows the secret: %q", err)
			}
		})
	}
}

func allErr(p map[string]string) error      { _, err := All(p); return err }
func clientErr(p map[string]string) error   { _, err := Client(p); return err }
func producerErr(p map[string]string) error { _, _, err := Producer(p); return err }
func consumerErr(p map[string]string) error { _, _, err := Consumer(p); return err }
func groupErr(p map[string]string) error    { _, _, err := Group(p); return err }
func txnErr(p map[string]string) error      { _, _, err := Transactional(p); return err }

func TestKeysSortedAndDocumented(t *testing.T) {
	for i, k := range keys {
		if i > 0 && keys[i-1].Name >= k.Name {
			t.Fatalf("keys not sorted at %s", k.Name)
		}
		if k.Sets == "" || k.Scope == 0 || k.apply == nil {
			t.Fatalf("key %s incomplete", k.Name)
		}
		if isIgnored(k.Name) {
			t.Fatalf("key %s both accepted and ignored", k.Name)
		}
	}
	for i := 1; i < len(Ignored); i++ {
		if Ignored[i-1] >= Ignored[i] {
			t.Fatalf("Ignored not sorted at %s", Ignored[i])
		}
	}
}
