// Package adapter implements the testctl JSON Lines control protocol v34: the
// command and event types, a strict decoder, the dispatcher onto gregor's
// public API, the handle registry and the single event writer. Stdout carries
// protocol lines only.
//
// The protocol itself is described in PROTOCOL.md in this package's
// directory: every command and event kind with an example line (real
// exchanges with the test bed), the hello security block, error codes and
// the failure rules (command_failed, fatal, exit statuses). Every v34
// command is implemented (consumer groups with the classic protocol, share
// groups, transactions including execute_transactional_transform);
// create_group_consumer with protocol "consumer" (KIP-848) fails with
// command_failed internal.
//
// Layout:
//
//   - ids.go, bytestring.go, values.go: identifiers (§1.4), ByteString
//     (§3.1) and the shared value types (§3).
//   - commands.go, commands_admin.go: command payloads (§4); decode.go and
//     strict.go: the envelope-first strict decoder (unknown keys, missing
//     keys and misplaced nulls rejected at every level).
//   - events.go, events_admin.go, metrics.go: event payloads (§5);
//     writer.go: the one event writer (compact, whole lines, envelope first).
//   - linereader.go: the 4 MiB bounded line reader (§9.3).
//   - session*.go, registry.go, dispatch.go: the session loop, handle
//     registry, lifecycle and failure rules (§9), one handler per command.
//   - normalize*.go: error normalization to "<kind>" / "<kind>:broker_<n>" (§6).
//   - backend.go, backend_txn.go: the small interfaces the session calls;
//     gregor.go, gregor_admin.go and gregor_txn.go implement them with
//     gregor's client, producer, consumer, admin and txn packages, one
//     public call per operation.
//   - session_txn.go: the transaction commands (§4.8): staged records
//     report transaction_staged with their offset.
//   - The consumer-group commands (§4.5/§5.4) live in the *_group*.go files
//     and the share-group commands (§4.6/§5.5) in the *_share.go files
//     (commands, events, backend, session, gregor); the share ones register
//     themselves.
package adapter
