// Package judge applies the completion rules of adapter control protocol v34
// (§7 of adapter-protocol-v34.md) to the event lines an adapter writes: the
// version on every event, known command ids, the event kinds and identities
// allowed for the active command, the exact key set of every event, the
// 64-event limit per command, and which event completes a command. It does no
// I/O: the runner feeds it lines and acts on its answers.
package judge
