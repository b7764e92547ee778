// Package properties builds gregor's configurations from Java-style client
// properties, to ease moving from the Java client or librdkafka.
//
// # Quick start
//
//	p, err := properties.Load("client.properties") // or Parse(io.Reader)
//	cc, pc, err := properties.Producer(p)          // client + producer keys
//	cl, err := client.New(cc)
//	pr, err := producer.New(cl, pc)
//
// (ExampleProducer has the whole program.) The same file
// (bootstrap.servers, linger.ms, sasl.mechanism, group.id, ...) configures
// a client.Config, a producer.Config, a consumer.Config, a
// consumer.GroupConfig and a txn.Config.
//
// # Keys and errors
//
// Client accepts only client keys, Producer client and producer keys,
// Consumer client and consumer keys, Group client, consumer and group keys
// (GroupKeys: group.id, session.timeout.ms, partition.assignment.strategy
// with Java's assignor class names, ...), Transactional client, producer and
// transactional keys (transactional.id, transaction.timeout.ms), All every
// key; Keys lists them with the field each one sets. Values are validated by type (integers of
// milliseconds or bytes, booleans, enumerations): a key no function accepts
// fails with ErrUnknownKey, a bad value with ErrInvalidValue, a Java setting
// gregor lacks (GSSAPI, JKS stores, max.poll.records) or a group or
// transactional key given to a function that does not build that config with
// ErrUnsupported, and a setting that would weaken durability (acks=0 or 1,
// enable.idempotence=false, more than 5 requests in flight) with
// ErrWeakensDurability. Every error is a *KeyError naming the key; values
// of secret keys (sasl.jaas.config, ssl.key.password) are never shown.
// When several keys are wrong, the first in key order is reported.
//
// # Values and security
//
// Durations are whole milliseconds as in Java; a Java value of 0 that means
// "none" maps to gregor's "none" (linger.ms=0 is no linger, Linger -1).
// Security: security.protocol PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL;
// sasl.mechanism PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 with the credentials
// in sasl.jaas.config (PlainLoginModule or ScramLoginModule, username and
// password options), or OAUTHBEARER (KIP-255) with OAuthBearerLoginModule,
// which sets client.Config.Mechanism: either a token file
// (sasl.oauthbearer.token.endpoint.url=file:/path, a compact JWT read at
// build and again when 80% of its exp lifetime has passed; extension_<name>
// options are SASL extensions, KIP-342) or, with no URL, Java's unsecured
// login (unsecuredLoginStringClaim_sub, unsecuredLoginLifetimeSeconds,
// default 3600, ..._NumberClaim_, ..._ListClaim_, ...Extension_,
// unsecuredLoginPrincipalClaimName): unsigned tokens for brokers running
// the unsecured validator, for tests only. An https: token endpoint and
// sasl.login.callback.handler.class are ErrUnsupported (give gregor a
// client.TokenSource instead). TLS trust from PEM only (ssl.truststore.type=PEM with
// ssl.truststore.location or ssl.truststore.certificates; absent, the system
// roots), a client certificate from a PEM keystore (ssl.keystore.location
// holding the chain and an unencrypted key, or ssl.keystore.certificate.chain
// and ssl.keystore.key), and ssl.endpoint.identification.algorithm empty to
// skip the host name check (the chain is still verified). Keys that only
// tune Java's own machinery (key.serializer, reconnect.backoff.ms, ...)
// are accepted and ignored; Ignored lists them.
package properties
