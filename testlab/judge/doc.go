// Package judge applies the completion rules of adapter control protocol v34
// (§7 of adapter-protocol-v34.md) to the event lines an adapter writes: the
// version on every event, known command ids, the event kinds and identities
// allowed for the active command, the 64-event limit per command, and which
// event completes a command. Every event is decoded strictly into the struct
// of its kind (Event.Payload: *OperationTerminal, *ReceiveCompleted, ...):
// a missing or unknown key, a wrong JSON type, an out-of-range integer or a
// bad enum value is a Problem (adapter_output_invalid) naming the kind and
// the field. It does no I/O: the runner feeds it lines and acts on its
// answers.
package judge
