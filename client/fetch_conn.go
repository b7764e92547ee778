package client

import "context"

// fetchConnKey is the context key of WithFetchConnection's name.
type fetchConnKey struct{}

// WithFetchConnection returns a copy of ctx whose requests in the fetch lane
// (LaneFetch: Fetch, ShareFetch, ShareAcknowledge) travel on connections
// dedicated to name, one per broker, instead of the client's shared
// fetch-lane connection. Requests in other lanes are not affected. An empty
// name means the shared connection.
//
// A broker answers the requests of one connection in order and holds a
// Fetch for up to its max_wait_ms: a request that must not wait behind a
// held Fetch (the consumer's sessionless Fetch for a partition just moved
// by Seek, Resume or Assign) goes on a connection of its own this way.
// Each distinct name costs one connection per broker (closed after
// ConnIdleTimeout like any other).
func WithFetchConnection(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, fetchConnKey{}, name)
}

// fetchConnName returns the dedicated fetch-lane connection name of ctx, or
// "" for the shared connection.
func fetchConnName(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	name, _ := ctx.Value(fetchConnKey{}).(string)
	return name
}
