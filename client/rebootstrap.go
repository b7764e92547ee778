package client

import (
	"sync"
	"time"
)

// rebootstrapState decides when AnyBroker requests go to the Bootstrap
// addresses instead of the brokers metadata named (KIP-899, KIP-1102).
type rebootstrapState struct {
	mu sync.Mutex
	// unreachableSince is when routing for AnyBroker first found no known
	// broker reachable; zero after metadata was fetched.
	unreachableSince time.Time // guarded by mu
	// required: a broker answered REBOOTSTRAP_REQUIRED; cleared after
	// metadata was fetched.
	required bool // guarded by mu
	// active: the current episode was counted (Rebootstraps).
	active bool // guarded by mu
}

// due reports whether AnyBroker routing should use only the Bootstrap
// addresses now, counting the episode once.
func (c *Client) rebootstrapDue() bool {
	if c.cfg.MetadataRecoveryStrategy != RecoveryRebootstrap {
		return false
	}
	rb := &c.rb
	rb.mu.Lock()
	defer rb.mu.Unlock()
	due := rb.required || (!rb.unreachableSince.IsZero() && time.Since(rb.unreachableSince) >= c.cfg.RebootstrapTrigger)
	if due && !rb.active {
		rb.active = true
		c.m.rebootstraps.Add(1)
		c.cfg.Logger.Info("gregor: rebootstrapping", "bootstrap", c.cfg.Bootstrap, "required", rb.required)
	}
	return due
}

// knownUnreachable records that no known broker could be reached.
func (c *Client) knownUnreachable() {
	rb := &c.rb
	rb.mu.Lock()
	if rb.unreachableSince.IsZero() {
		rb.unreachableSince = time.Now()
	}
	rb.mu.Unlock()
}

// knownReachable records that a known broker was connected to: no
// rebootstrap is due for unreachability (a REBOOTSTRAP_REQUIRED still is).
func (c *Client) knownReachable() {
	rb := &c.rb
	rb.mu.Lock()
	rb.unreachableSince = time.Time{}
	rb.mu.Unlock()
}

// requireRebootstrap records a REBOOTSTRAP_REQUIRED answer.
func (c *Client) requireRebootstrap() {
	rb := &c.rb
	rb.mu.Lock()
	rb.required = true
	rb.mu.Unlock()
}

// metadataFetched ends any rebootstrap episode: the brokers metadata names
// are known and reachable again.
func (c *Client) metadataFetched() {
	rb := &c.rb
	rb.mu.Lock()
	rb.unreachableSince, rb.required, rb.active = time.Time{}, false, false
	rb.mu.Unlock()
}
