// Package adapter implements the testctl JSON Lines control protocol v34: the
// command and event types, a strict decoder, the dispatcher onto gregor's
// public API, the handle registry and the single event writer. Stdout carries
// protocol lines only.
package adapter
