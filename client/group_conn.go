package client

import "context"

// groupConnKey is the context key of WithGroupConnection's name.
type groupConnKey struct{}

// WithGroupConnection returns a copy of ctx whose requests in the group lane
// (LaneGroup: JoinGroup, Heartbeat, OffsetCommit, FindCoordinator, ...)
// travel on connections dedicated to name, one per broker, instead of the
// client's shared group-lane connection. Requests in other lanes are not
// affected. An empty name means the shared connection.
//
// A broker answers the requests of one connection in order, and holds a
// JoinGroup until the group's rebalance completes (up to its rebalance
// timeout): on a shared connection one group's JoinGroup delays every other
// group's heartbeats and commits, long enough for their sessions to expire.
// consumer.Group gives each member a dedicated connection this way; use it
// for group-coordinator requests of your own that must not wait behind
// another group's rebalance. Each distinct name costs one connection per
// coordinator broker (closed after ConnIdleTimeout like any other).
func WithGroupConnection(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, groupConnKey{}, name)
}

// groupConnName returns the dedicated group-lane connection name of ctx, or
// "" for the shared connection.
func groupConnName(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	name, _ := ctx.Value(groupConnKey{}).(string)
	return name
}
