// Package producer is gregor's producer: always idempotent with acks=all
// (KIP-98 idempotence, KIP-360 epoch bumps), batching with linger, keyed
// murmur2 partitioning compatible with the Java client, uniform sticky
// partitioning for unkeyed records (KIP-794), per-record delivery handles with
// truthful certainty, and per-record cancellation.
package producer
