package properties

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gregor-kafka/gregor/consumer"
)

// Format renders the settings of c that differ from the zero value as Java
// properties, the inverse of All: All(Format(c)) gives c back for every
// field a key sets (assignors by protocol name; an assignor of the
// application's own has no properties form), except TLS material (a *tls.Config has no file to name:
// only security.protocol says TLS is on) and a client.Config.Mechanism
// (OAUTHBEARER's token source has no properties form: only sasl.mechanism
// is written, sasl.jaas.config must be added back). The SASL password is included in
// sasl.jaas.config: treat the result as a secret.
func Format(c Configs) map[string]string {
	p := map[string]string{}
	msOf := func(key string, d time.Duration) {
		switch {
		case d > 0:
			p[key] = strconv.FormatInt(d.Milliseconds(), 10)
		case d < 0:
			p[key] = "0"
		}
	}
	num := func(key string, n int64) {
		if n != 0 {
			p[key] = strconv.FormatInt(n, 10)
		}
	}
	cl, pr, co := c.Client, c.Producer, c.Consumer
	if len(cl.Bootstrap) > 0 {
		p["bootstrap.servers"] = strings.Join(cl.Bootstrap, ",")
	}
	if cl.ClientID != "" {
		p["client.id"] = cl.ClientID
	}
	msOf("socket.connection.setup.timeout.ms", cl.DialTimeout)
	msOf("request.timeout.ms", cl.RequestTimeout)
	msOf("retry.backoff.ms", cl.RetryBackoff)
	msOf("retry.backoff.max.ms", cl.RetryBackoffMax)
	msOf("metadata.max.age.ms", cl.MetadataMaxAge)
	msOf("connections.max.idle.ms", cl.ConnIdleTimeout)
	msOf("default.api.timeout.ms", c.APITimeout)
	num("max.in.flight.requests.per.connection", int64(cl.MaxInFlightPerBroker))
	if cl.EnableMetricsPush != nil {
		p["enable.metrics.push"] = strconv.FormatBool(*cl.EnableMetricsPush)
	}
	sasl := cl.SASL != nil || cl.Mechanism != nil
	switch {
	case sasl && cl.TLS != nil:
		p["security.protocol"] = "SASL_SSL"
	case sasl:
		p["security.protocol"] = "SASL_PLAINTEXT"
	case cl.TLS != nil:
		p["security.protocol"] = "SSL"
	}
	if cl.SASL == nil && cl.Mechanism != nil {
		p["sasl.mechanism"] = cl.Mechanism.Name()
	}
	if s := cl.SASL; s != nil {
		p["sasl.mechanism"] = string(s.Mechanism)
		module := "org.apache.kafka.common.security.scram.ScramLoginModule"
		if s.Mechanism == "PLAIN" {
			module = "org.apache.kafka.common.security.plain.PlainLoginModule"
		}
		p["sasl.jaas.config"] = fmt.Sprintf("%s required username=%s password=%s;", module, jaasQuote(s.Username), jaasQuote(s.Password))
	}
	if pr.Acks != 0 {
		p["acks"] = "all"
	}
	if pr.Idempotence != nil {
		p["enable.idempotence"] = strconv.FormatBool(*pr.Idempotence)
	}
	msOf("linger.ms", pr.Linger)
	msOf("delivery.timeout.ms", pr.DeliveryTimeout)
	num("batch.size", int64(pr.BatchMaxBytes))
	num("buffer.memory", pr.RetainedBytes)
	num("max.request.size", int64(pr.RequestMaxBytes))
	if pr.Compression != 0 {
		p["compression.type"] = pr.Compression.String()
		if pr.CompressionLevel != 0 {
			p["compression."+pr.Compression.String()+".level"] = strconv.Itoa(pr.CompressionLevel)
		}
	}
	if pr.MaxRetries != nil {
		p["retries"] = strconv.Itoa(*pr.MaxRetries)
	}
	msOf("fetch.max.wait.ms", co.MaxWait)
	num("fetch.min.bytes", int64(co.MinBytes))
	num("fetch.max.bytes", int64(co.MaxBytes))
	num("max.partition.fetch.bytes", int64(co.PartitionMaxBytes))
	if co.Isolation == consumer.ReadCommitted {
		p["isolation.level"] = "read_committed"
	}
	if co.OffsetReset != consumer.ResetEarliest {
		p["auto.offset.reset"] = co.OffsetReset.String()
	}
	if r := cmp.Or(co.Rack, pr.Rack); r != "" {
		p["client.rack"] = r
	}
	if pr.RackAwarePartitioning {
		p["partitioner.rack.aware"] = "true"
	}
	formatGroup(p, c.Group, msOf)
	if c.Txn.TransactionalID != "" {
		p["transactional.id"] = c.Txn.TransactionalID
	}
	msOf("transaction.timeout.ms", c.Txn.TransactionTimeout)
	return p
}

// formatGroup writes the group keys of g that differ from the zero value.
func formatGroup(p map[string]string, g consumer.GroupConfig, msOf func(string, time.Duration)) {
	str := func(key, v string) {
		if v != "" {
			p[key] = v
		}
	}
	str("group.id", g.GroupID)
	str("group.instance.id", g.InstanceID)
	str("group.protocol", string(g.Protocol))
	str("group.remote.assignor", g.ServerAssignor)
	msOf("session.timeout.ms", g.SessionTimeout)
	msOf("max.poll.interval.ms", g.RebalanceTimeout)
	msOf("heartbeat.interval.ms", g.HeartbeatInterval)
	msOf("auto.commit.interval.ms", g.AutoCommitInterval)
	if g.DisableAutoCommit {
		p["enable.auto.commit"] = "false"
	}
	if len(g.Assignors) > 0 {
		names := make([]string, len(g.Assignors))
		for i, a := range g.Assignors {
			names[i] = a.Name()
		}
		p["partition.assignment.strategy"] = strings.Join(names, ",")
	}
}

func jaasQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
