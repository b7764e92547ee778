// Package backoff is the one jittered exponential backoff of gregor's retry
// loops: retry.backoff.ms doubling per try up to retry.backoff.max.ms, with
// ±20% jitter, and a sleep that gives up when the context, the deadline or
// a stop channel ends first. admin uses it; client.(*Client).backoff still
// carries its own copy of the same rule (to be switched when client/ is not
// under parallel edit).
package backoff
