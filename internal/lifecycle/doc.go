// Package lifecycle holds the lifecycle matrix test (lifecycle_test.go):
// every public object x every close order x the states it can be in, each
// pending call at a close and each call after it ending within a bound with
// an error of the ErrClosed family and the right certainty, and no
// goroutine left behind. INTERNALS.md ("Lifecycle matrix") tabulates the
// cases and their outcomes.
package lifecycle
