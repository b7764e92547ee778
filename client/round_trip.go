package client

import (
	"sync"
	"time"
)

// roundTrips keeps the shortest connection-setup round trip the client
// measured (negotiate's ApiVersions, which a broker answers without
// waiting on anything): per broker, and over every connection, bootstrap
// ones included. Guarded by mu.
type roundTrips struct {
	mu       sync.Mutex
	byBroker map[int32]time.Duration // mu
	least    time.Duration           // mu; 0 before a connection
}

// note records one setup round trip to broker (-1: a bootstrap address).
func (r *roundTrips) note(broker int32, d time.Duration) {
	d = max(d, 1)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.least == 0 || d < r.least {
		r.least = d
	}
	if broker < 0 {
		return
	}
	if r.byBroker == nil {
		r.byBroker = map[int32]time.Duration{}
	}
	if old, ok := r.byBroker[broker]; !ok || d < old {
		r.byBroker[broker] = d
	}
}

// RoundTrip returns the shortest round trip of a connection-setup
// ApiVersions request the client measured to broker: close to the network
// round trip, since a broker answers ApiVersions at once. Before a
// connection to broker it returns the shortest to any broker, bootstrap
// addresses included, and 0 before the client connected at all. The
// consumer uses it to judge, before its first Fetch to a broker, whether a
// response will take longer to come than to decode.
func (c *Client) RoundTrip(broker int32) time.Duration {
	r := &c.rtts
	r.mu.Lock()
	defer r.mu.Unlock()
	if d, ok := r.byBroker[broker]; ok {
		return d
	}
	return r.least
}
