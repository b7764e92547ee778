package properties

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/consumer/assign"
	"github.com/gregor-kafka/gregor/wire"
)

// Scope says which configuration a key belongs to.
type Scope uint8

// Scopes of keys (a key may belong to several).
const (
	ScopeClient Scope = 1 << iota
	ScopeProducer
	ScopeConsumer
	// ScopeGroup: the group consumer's settings (consumer.GroupConfig),
	// accepted by Group and All.
	ScopeGroup
	// ScopeTransactional: the transactional producer's settings
	// (txn.Config), accepted by Transactional and All.
	ScopeTransactional
)

// String returns "client", "producer", "consumer" or a '+'-joined list.
func (s Scope) String() string {
	var parts []string
	for _, n := range []struct {
		s    Scope
		name string
	}{{ScopeClient, "client"}, {ScopeProducer, "producer"}, {ScopeConsumer, "consumer"}, {ScopeGroup, "group"}, {ScopeTransactional, "transactional"}} {
		if s&n.s != 0 {
			parts = append(parts, n.name)
		}
	}
	return strings.Join(parts, "+")
}

// Key describes one accepted property.
type Key struct {
	// Name is the Java property name.
	Name string
	// Scope is the configuration it belongs to.
	Scope Scope
	// Sets names the gregor field(s) it sets.
	Sets string
	// Secret hides the value in errors.
	Secret bool

	apply func(b *builder, v string) error
}

// invalid builds the Reason-carrying error of apply functions.
func invalid(format string, args ...any) error {
	return &KeyError{Err: ErrInvalidValue, Reason: fmt.Sprintf(format, args...)}
}

func durability(format string, args ...any) error {
	return &KeyError{Err: ErrWeakensDurability, Reason: fmt.Sprintf(format, args...)}
}

func unsupported(format string, args ...any) error {
	return &KeyError{Err: ErrUnsupported, Reason: fmt.Sprintf(format, args...)}
}

func parseInt(v string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, invalid("not an integer")
	}
	if n < lo || n > hi {
		return 0, invalid("must be within [%d, %d]", lo, hi)
	}
	return n, nil
}

// millis parses a duration in milliseconds, at least lo.
func millis(v string, lo int64) (time.Duration, error) {
	n, err := parseInt(v, lo, math.MaxInt64/int64(time.Millisecond))
	if err != nil {
		return 0, err
	}
	return time.Duration(n) * time.Millisecond, nil
}

func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, invalid("not true or false")
}

func oneOf(v string, values ...string) (string, error) {
	for _, x := range values {
		if strings.EqualFold(strings.TrimSpace(v), x) {
			return x, nil
		}
	}
	return "", invalid("not one of %s", strings.Join(values, ", "))
}

func ms(set func(b *builder, d time.Duration), lo int64) func(*builder, string) error {
	return func(b *builder, v string) error {
		d, err := millis(v, lo)
		if err == nil {
			set(b, d)
		}
		return err
	}
}

func bytesInt(set func(b *builder, n int64), lo int64, hi int64) func(*builder, string) error {
	return func(b *builder, v string) error {
		n, err := parseInt(v, lo, hi)
		if err == nil {
			set(b, n)
		}
		return err
	}
}

const (
	cli  = ScopeClient
	prod = ScopeProducer
	cons = ScopeConsumer
	all  = ScopeClient | ScopeProducer | ScopeConsumer
)

// keys is the table of accepted properties, sorted by name.
var keys = sortKeys(append(baseKeys, groupKeyEntries()...))

func sortKeys(ks []Key) []Key {
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name < ks[j].Name })
	return ks
}

// GroupKeys are the Java consumer's group settings: Group (and All) build a
// consumer.GroupConfig from them; Consumer, which builds the directly
// assigned consumer's config, refuses them with ErrUnsupported. A tool may
// remove them from a Java consumer's file before calling Consumer.
var GroupKeys = keyNames(groupKeyEntries())

// keyNames lists the names of ks, in order.
func keyNames(ks []Key) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Name
	}
	return out
}

// groupKeyEntries are the group consumer's keys (GroupKeys), in ScopeGroup,
// sorted by name.
func groupKeyEntries() []Key {
	return []Key{
		{Name: "auto.commit.interval.ms", Scope: ScopeGroup, Sets: "GroupConfig.AutoCommitInterval",
			apply: ms(func(b *builder, d time.Duration) { b.g.AutoCommitInterval = d }, 1)},
		{Name: "enable.auto.commit", Scope: ScopeGroup, Sets: "GroupConfig.DisableAutoCommit (inverted)", apply: func(b *builder, v string) error {
			on, err := parseBool(v)
			b.g.DisableAutoCommit = !on
			return err
		}},
		{Name: "group.id", Scope: ScopeGroup, Sets: "GroupConfig.GroupID", apply: func(b *builder, v string) error {
			if strings.TrimSpace(v) == "" {
				return invalid("empty")
			}
			b.g.GroupID = v
			return nil
		}},
		{Name: "group.instance.id", Scope: ScopeGroup, Sets: "GroupConfig.InstanceID", apply: func(b *builder, v string) error {
			b.g.InstanceID = strings.TrimSpace(v)
			return nil
		}},
		{Name: "group.protocol", Scope: ScopeGroup, Sets: "GroupConfig.Protocol", apply: func(b *builder, v string) error {
			x, err := oneOf(v, "classic", "consumer")
			b.g.Protocol = consumer.GroupProtocol(x)
			return err
		}},
		{Name: "group.remote.assignor", Scope: ScopeGroup, Sets: "GroupConfig.ServerAssignor", apply: func(b *builder, v string) error {
			b.g.ServerAssignor = strings.TrimSpace(v)
			return nil
		}},
		{Name: "heartbeat.interval.ms", Scope: ScopeGroup, Sets: "GroupConfig.HeartbeatInterval",
			apply: ms(func(b *builder, d time.Duration) { b.g.HeartbeatInterval = d }, 1)},
		{Name: "max.poll.interval.ms", Scope: ScopeGroup, Sets: "GroupConfig.RebalanceTimeout",
			apply: ms(func(b *builder, d time.Duration) { b.g.RebalanceTimeout = d }, 1)},
		{Name: "max.poll.records", Scope: ScopeGroup, Sets: "(none)", apply: func(*builder, string) error {
			return unsupported("Receive returns the records that are buffered, with no count limit")
		}},
		{Name: "partition.assignment.strategy", Scope: ScopeGroup, Sets: "GroupConfig.Assignors", apply: applyAssignors},
		{Name: "session.timeout.ms", Scope: ScopeGroup, Sets: "GroupConfig.SessionTimeout",
			apply: ms(func(b *builder, d time.Duration) { b.g.SessionTimeout = d }, 1)},
	}
}

// javaAssignors maps the Java client's assignor class names to the
// protocol names of assign.ByName.
var javaAssignors = map[string]string{
	"org.apache.kafka.clients.consumer.RangeAssignor":             "range",
	"org.apache.kafka.clients.consumer.RoundRobinAssignor":        "roundrobin",
	"org.apache.kafka.clients.consumer.StickyAssignor":            "sticky",
	"org.apache.kafka.clients.consumer.CooperativeStickyAssignor": "cooperative-sticky",
}

// applyAssignors parses partition.assignment.strategy: a comma-separated
// list of Java class names (or the protocol names range, roundrobin,
// sticky, cooperative-sticky), in order of preference.
func applyAssignors(b *builder, v string) error {
	b.g.Assignors = nil
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		proto := name
		if p, ok := javaAssignors[name]; ok {
			proto = p
		}
		a, ok := assign.ByName(proto)
		if !ok {
			return invalid("%s is not one of RangeAssignor, RoundRobinAssignor, StickyAssignor, CooperativeStickyAssignor (org.apache.kafka.clients.consumer.*)", name)
		}
		b.g.Assignors = append(b.g.Assignors, a)
	}
	if len(b.g.Assignors) == 0 {
		return invalid("no assignor")
	}
	return nil
}

var baseKeys = []Key{
	{Name: "acks", Scope: prod, Sets: "producer.Config.Acks", apply: func(b *builder, v string) error {
		switch strings.TrimSpace(strings.ToLower(v)) {
		case "all", "-1":
			b.p.Acks = -1
			return nil
		case "0", "1":
			return durability("gregor's producer is always acks=all (-1)")
		}
		return invalid("not all, -1, 0 or 1")
	}},
	{Name: "auto.offset.reset", Scope: cons, Sets: "consumer.Config.OffsetReset", apply: func(b *builder, v string) error {
		s, err := oneOf(v, "earliest", "latest", "none")
		b.c.OffsetReset = map[string]consumer.ResetPolicy{"earliest": consumer.ResetEarliest, "latest": consumer.ResetLatest, "none": consumer.ResetNone}[s]
		return err
	}},
	{Name: "batch.size", Scope: prod, Sets: "producer.Config.BatchMaxBytes", apply: bytesInt(func(b *builder, n int64) { b.p.BatchMaxBytes = int(n) }, 1, math.MaxInt32)},
	{Name: "bootstrap.servers", Scope: all, Sets: "client.Config.Bootstrap", apply: func(b *builder, v string) error {
		var addrs []string
		for _, a := range strings.Split(v, ",") {
			if a = strings.TrimSpace(a); a != "" {
				addrs = append(addrs, a)
			}
		}
		if len(addrs) == 0 {
			return invalid("no host:port")
		}
		b.cl.Bootstrap = addrs
		return nil
	}},
	{Name: "buffer.memory", Scope: prod, Sets: "producer.Config.RetainedBytes", apply: bytesInt(func(b *builder, n int64) { b.p.RetainedBytes = n }, 1, math.MaxInt64)},
	{Name: "client.id", Scope: all, Sets: "client.Config.ClientID", apply: func(b *builder, v string) error {
		if len(v) > 32767 {
			return invalid("longer than 32767 bytes")
		}
		b.cl.ClientID = v
		return nil
	}},
	{Name: "client.rack", Scope: prod | cons, Sets: "consumer.Config.Rack, producer.Config.Rack", apply: func(b *builder, v string) error {
		b.c.Rack = strings.TrimSpace(v)
		b.p.Rack = b.c.Rack
		return nil
	}},
	{Name: "compression.gzip.level", Scope: prod, Sets: "producer.Config.CompressionLevel (with gzip)", apply: level(wire.CompressionGzip, 1, 9)},
	{Name: "compression.lz4.level", Scope: prod, Sets: "producer.Config.CompressionLevel (with lz4)", apply: level(wire.CompressionLZ4, 1, 9)},
	{Name: "compression.type", Scope: prod, Sets: "producer.Config.Compression", apply: func(b *builder, v string) error {
		s, err := oneOf(v, "none", "gzip", "snappy", "lz4", "zstd")
		b.p.Compression = map[string]wire.Compression{"none": wire.CompressionNone, "gzip": wire.CompressionGzip,
			"snappy": wire.CompressionSnappy, "lz4": wire.CompressionLZ4, "zstd": wire.CompressionZstd}[s]
		return err
	}},
	{Name: "compression.zstd.level", Scope: prod, Sets: "producer.Config.CompressionLevel (with zstd)", apply: level(wire.CompressionZstd, 1, 22)},
	{Name: "connections.max.idle.ms", Scope: all, Sets: "client.Config.ConnIdleTimeout", apply: ms(func(b *builder, d time.Duration) { b.cl.ConnIdleTimeout = d }, 1)},
	{Name: "default.api.timeout.ms", Scope: all, Sets: "Configs.APITimeout", apply: ms(func(b *builder, d time.Duration) { b.apiTimeout = d }, 1)},
	{Name: "delivery.timeout.ms", Scope: prod, Sets: "producer.Config.DeliveryTimeout", apply: ms(func(b *builder, d time.Duration) { b.p.DeliveryTimeout = d }, 1)},
	{Name: "enable.idempotence", Scope: prod, Sets: "producer.Config.Idempotence", apply: func(b *builder, v string) error {
		on, err := parseBool(v)
		if err != nil {
			return err
		}
		if !on {
			return durability("gregor's producer is always idempotent (KIP-98)")
		}
		b.p.Idempotence = &on
		return nil
	}},
	{Name: "enable.metrics.push", Scope: all, Sets: "client.Config.EnableMetricsPush", apply: func(b *builder, v string) error {
		on, err := parseBool(v)
		if err != nil {
			return err
		}
		b.cl.EnableMetricsPush = &on
		return nil
	}},
	{Name: "fetch.max.bytes", Scope: cons, Sets: "consumer.Config.MaxBytes", apply: bytesInt(func(b *builder, n int64) { b.c.MaxBytes = int32(n) }, 1, math.MaxInt32)},
	{Name: "fetch.max.wait.ms", Scope: cons, Sets: "consumer.Config.MaxWait", apply: ms(func(b *builder, d time.Duration) { b.c.MaxWait = d }, 1)},
	{Name: "fetch.min.bytes", Scope: cons, Sets: "consumer.Config.MinBytes", apply: bytesInt(func(b *builder, n int64) { b.c.MinBytes = int32(n) }, 0, math.MaxInt32)},
	{Name: "isolation.level", Scope: cons, Sets: "consumer.Config.Isolation", apply: func(b *builder, v string) error {
		s, err := oneOf(v, "read_uncommitted", "read_committed")
		if s == "read_committed" {
			b.c.Isolation = consumer.ReadCommitted
		}
		return err
	}},
	{Name: "linger.ms", Scope: prod, Sets: "producer.Config.Linger (0: -1, no linger)", apply: ms(func(b *builder, d time.Duration) {
		if d == 0 {
			d = -1
		}
		b.p.Linger = d
	}, 0)},
	{Name: "max.in.flight.requests.per.connection", Scope: cli | prod, Sets: "client.Config.MaxInFlightPerBroker, producer.Config.MaxInFlightPerBroker", apply: func(b *builder, v string) error {
		n, err := parseInt(v, 1, math.MaxInt32)
		if err != nil {
			return err
		}
		if n > 5 && b.scope&ScopeProducer != 0 {
			return durability("at most 5 requests in flight keep an idempotent producer's order (KIP-98)")
		}
		if n > 1024 {
			return invalid("must be within [1, 1024]")
		}
		b.cl.MaxInFlightPerBroker = int(n)
		b.p.MaxInFlightPerBroker = int(n)
		return nil
	}},
	{Name: "max.partition.fetch.bytes", Scope: cons, Sets: "consumer.Config.PartitionMaxBytes", apply: bytesInt(func(b *builder, n int64) { b.c.PartitionMaxBytes = int32(n) }, 1, math.MaxInt32)},
	{Name: "max.request.size", Scope: prod, Sets: "producer.Config.RequestMaxBytes", apply: bytesInt(func(b *builder, n int64) { b.p.RequestMaxBytes = int(n) }, 1, math.MaxInt32-1)},
	{Name: "metadata.max.age.ms", Scope: all, Sets: "client.Config.MetadataMaxAge", apply: ms(func(b *builder, d time.Duration) { b.cl.MetadataMaxAge = d }, 1)},
	{Name: "partitioner.rack.aware", Scope: prod, Sets: "producer.Config.RackAwarePartitioning", apply: func(b *builder, v string) error {
		on, err := parseBool(v)
		b.p.RackAwarePartitioning = on
		return err
	}},
	{Name: "request.timeout.ms", Scope: all, Sets: "client.Config.RequestTimeout, producer.Config.RequestTimeout, consumer.Config.RequestTimeout", apply: ms(func(b *builder, d time.Duration) {
		b.cl.RequestTimeout = d
		b.p.RequestTimeout = d
		b.c.RequestTimeout = d
	}, 1)},
	{Name: "retries", Scope: prod, Sets: "producer.Config.MaxRetries (2147483647: nil, unlimited)", apply: func(b *builder, v string) error {
		n, err := parseInt(v, 0, math.MaxInt32)
		if err == nil && n < math.MaxInt32 {
			r := int(n)
			b.p.MaxRetries = &r
		}
		return err
	}},
	{Name: "retry.backoff.max.ms", Scope: all, Sets: "client.Config.RetryBackoffMax", apply: ms(func(b *builder, d time.Duration) { b.cl.RetryBackoffMax = d }, 1)},
	{Name: "retry.backoff.ms", Scope: all, Sets: "client.Config.RetryBackoff, producer.Config.RetryBackoff", apply: ms(func(b *builder, d time.Duration) {
		b.cl.RetryBackoff = d
		b.p.RetryBackoff = d
	}, 1)},
	{Name: "sasl.jaas.config", Scope: all, Sets: "client.Config.SASL (Username, Password); OAUTHBEARER: client.Config.Mechanism", Secret: true, apply: func(b *builder, v string) error {
		return b.jaas(v)
	}},
	{Name: "sasl.login.callback.handler.class", Scope: all, Sets: "(none)", apply: func(*builder, string) error {
		return unsupported("a Java class; for OAUTHBEARER give a token file in sasl.oauthbearer.token.endpoint.url, or set client.Config.Mechanism to client.OAuthBearer with a TokenSource")
	}},
	{Name: "sasl.mechanism", Scope: all, Sets: "client.Config.SASL.Mechanism (OAUTHBEARER: client.Config.Mechanism)", apply: func(b *builder, v string) error {
		switch strings.TrimSpace(v) {
		case "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER":
			b.mechanism = strings.TrimSpace(v)
			return nil
		case "GSSAPI":
			return unsupported("gregor supports PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER")
		}
		return invalid("not one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER")
	}},
	{Name: "sasl.oauthbearer.token.endpoint.url", Scope: all, Sets: "client.Config.Mechanism (OAUTHBEARER token file)", apply: func(b *builder, v string) error {
		b.tokenURL = strings.TrimSpace(v)
		return nil
	}},
	{Name: "security.protocol", Scope: all, Sets: "client.Config.TLS and SASL (enabled)", apply: func(b *builder, v string) error {
		s, err := oneOf(v, "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
		b.protocol = s
		return err
	}},
	{Name: "socket.connection.setup.timeout.ms", Scope: all, Sets: "client.Config.DialTimeout", apply: ms(func(b *builder, d time.Duration) { b.cl.DialTimeout = d }, 1)},
	{Name: "ssl.endpoint.identification.algorithm", Scope: all, Sets: "client.Config.TLS (host name check)", apply: func(b *builder, v string) error {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "https":
			b.skipHostname = false
		case "":
			b.skipHostname = true
		default:
			return invalid(`not "https" or empty`)
		}
		return nil
	}},
	{Name: "ssl.key.password", Scope: all, Sets: "(none)", Secret: true, apply: func(b *builder, v string) error {
		if v != "" {
			return unsupported("encrypted private keys; give an unencrypted PEM key")
		}
		return nil
	}},
	{Name: "ssl.keystore.certificate.chain", Scope: all, Sets: "client.Config.TLS.Certificates", apply: func(b *builder, v string) error {
		b.keystoreChain = v
		return nil
	}},
	{Name: "ssl.keystore.key", Scope: all, Sets: "client.Config.TLS.Certificates", Secret: true, apply: func(b *builder, v string) error {
		b.keystoreKey = v
		return nil
	}},
	{Name: "ssl.keystore.location", Scope: all, Sets: "client.Config.TLS.Certificates", apply: func(b *builder, v string) error {
		b.keystoreFile = v
		return nil
	}},
	{Name: "ssl.keystore.type", Scope: all, Sets: "(PEM only)", apply: pemOnly},
	{Name: "ssl.truststore.certificates", Scope: all, Sets: "client.Config.TLS.RootCAs", apply: func(b *builder, v string) error {
		b.truststorePEM = v
		return nil
	}},
	{Name: "ssl.truststore.location", Scope: all, Sets: "client.Config.TLS.RootCAs", apply: func(b *builder, v string) error {
		b.truststoreFile = v
		return nil
	}},
	{Name: "ssl.truststore.type", Scope: all, Sets: "(PEM only)", apply: pemOnly},
	{Name: "transaction.timeout.ms", Scope: ScopeTransactional, Sets: "txn.Config.TransactionTimeout",
		apply: ms(func(b *builder, d time.Duration) { b.t.TransactionTimeout = d }, 1)},
	{Name: "transactional.id", Scope: ScopeTransactional, Sets: "txn.Config.TransactionalID", apply: func(b *builder, v string) error {
		if strings.TrimSpace(v) == "" {
			return invalid("empty")
		}
		b.t.TransactionalID = v
		return nil
	}},
}

func pemOnly(_ *builder, v string) error {
	if strings.EqualFold(strings.TrimSpace(v), "PEM") {
		return nil
	}
	return unsupported("only PEM stores; convert JKS/PKCS12 with keytool or openssl")
}

func level(codec wire.Compression, lo, hi int64) func(*builder, string) error {
	return func(b *builder, v string) error {
		n, err := parseInt(v, lo, hi)
		if err == nil {
			b.levels[codec] = int(n)
		}
		return err
	}
}

// Ignored lists the Java keys that are accepted and have no effect: they
// tune the Java client's own machinery (serializers, reconnect backoff,
// socket buffers, JMX metrics) and gregor has no counterpart.
var Ignored = []string{
	"auto.include.jmx.reporter", "client.dns.lookup", "key.deserializer", "key.serializer",
	"metric.reporters", "metrics.num.samples", "metrics.recording.level", "metrics.sample.window.ms",
	"receive.buffer.bytes", "reconnect.backoff.max.ms", "reconnect.backoff.ms", "send.buffer.bytes",
	"socket.connection.setup.timeout.max.ms", "value.deserializer", "value.serializer",
}

// Keys returns the accepted keys sorted by name (Ignored not included).
func Keys() []Key {
	return append([]Key(nil), keys...)
}
