// Package faultproxy is testlab's fault proxy and protocol adversary
// (issue 23): a TCP proxy between a Kafka client and one broker listener
// (kafkatest.Proxied advertises the proxy's address, so a client bootstrapped
// through it stays behind it for every broker) that injects faults on
// purpose and records what each one did.
//
// The proxy forwards whole Kafka frames (a 4-byte big-endian size, then the
// body). It reads a request's header (API key, API version, correlation ID)
// and pairs each response with the oldest outstanding request of its
// connection, so a fault can target one API and one point of its frames.
// Frames above MaxFrameBytes (default 64 MiB) or with a negative size cut the
// connection.
//
// Faults (Fault, by Kind), each applied with Proxy.Apply and removed with
// Applied.Remove, exactly once each:
//
//   - Delay: every frame in Dir waits Delay before it is forwarded.
//   - Blackhole: connections are accepted and frames read but never
//     forwarded, in both directions.
//   - CutAll: every open connection is cut when applied (an instant fault).
//   - CutFrame: the next frame in Dir of API (AnyAPI: any) is forwarded up to
//     Bytes bytes (prefix included; -1 the whole frame, 0 none), then the
//     connection is cut: a cut before a request, after it was written, or a
//     partial frame then close.
//   - Refuse: new connections are closed at once (RST).
//   - WrongCorrelation: the next response to API gets another correlation ID.
//   - Replay: before the next response to API the connection's previous
//     response is sent again (a response to an earlier request).
//   - Stall: the next frame in Dir of API and everything behind it on that
//     connection waits Delay (bounded), then flows again.
//
// Every fault yields a Record: when it was applied and removed, how often it
// fired, the connections, frames and bytes it touched, the longest hold it
// imposed, and the frames (direction, API, version, correlation ID, size, the
// first 64 bytes in hex) of the connection around the moment it fired.
// Proxy.Close fails when a fault was applied but never removed.
//
// Set runs one proxy per broker of a kafkatest cluster and applies faults to
// all of them or to one broker.
package faultproxy
