// Package protocol is the gregor-adapter binary's implementation of the
// testctl JSON Lines control protocol v34: the command and event types, a
// strict decoder, the command table onto gregor's public API, the handle
// registry and the single event writer. Stdout carries protocol lines only.
// It is internal: the protocol (../../PROTOCOL.md) is the contract, and
// adapter/cmd/gregor-adapter its one user.
//
// The protocol itself is described in adapter/PROTOCOL.md: every command
// and event kind with an example line (real exchanges with the test bed),
// the hello security block, error codes and the failure rules
// (command_failed, fatal, exit statuses). Every v34 command is implemented
// (consumer groups with the classic and the KIP-848 consumer protocol, share
// groups, transactions including execute_transactional_transform).
//
// Layout:
//
//   - commands_table.go: the command table; each row names a kind, its
//     payload type and its handler. Each feature family declares its rows
//     beside its handlers: session_client.go (lifecycle, clients),
//     session_producer.go, session_actors.go, session_consumer.go
//     (assigned consumer), group_session.go, txn_session.go,
//     share_session.go and admin_session.go (admin handlers in
//     admin_handlers.go). decode.go reads a row's payload, dispatch.go runs
//     its handler; nothing else routes commands.
//   - The group, txn, share and admin families are each one file group,
//     <family>_*.go: <family>_commands.go (payloads), <family>_events.go,
//     <family>_backend.go (the interface), <family>_gregor.go (its
//     implementation), <family>_session.go (rows and handlers). The core
//     (client, producer, assigned consumer) is in the unprefixed files.
//   - ids.go, bytestring.go, values.go: identifiers (§1.4), ByteString
//     (§3.1) and the shared value types (§3).
//   - commands.go, *_commands.go: command payloads (§4); decode.go and strict.go: the
//     envelope-first strict decoder (unknown keys, missing keys and
//     misplaced nulls rejected at every level).
//   - events.go, *_events.go, metrics.go: event payloads (§5); writer.go: the one event
//     writer (compact, whole lines, envelope first).
//   - linereader.go: the 4 MiB bounded line reader (§9.3).
//   - session.go, registry.go: the session loop, handle registry,
//     lifecycle and failure rules (§9).
//   - normalize*.go: error normalization to "<kind>" / "<kind>:broker_<n>" (§6).
//   - backend.go, *_backend.go: the small interfaces the session calls;
//     gregor.go, *_gregor.go
//     implement them with gregor's client, producer, consumer, admin and
//     txn packages, one public call per operation.
package protocol
