package consumer

import (
	"context"
	"testing"
	"time"
)

// TestGroupIntegrationMembersShareOneClient: on the real broker, three
// members of one group share one client. The coordinator holds each
// member's JoinGroup until every member has rejoined, and a broker answers
// one connection's requests in order: were the members' group requests on
// one shared connection, the second member's JoinGroup would wait behind the
// first's until the RebalanceTimeout (30s) expired. Each Group has its own
// group-lane connection (client.WithGroupConnection), so the members split
// the partitions well within it, and take over when one leaves.
func TestGroupIntegrationMembersShareOneClient(t *testing.T) {
	e := newGroupEnv(t, 6)
	group := e.topic + "-g"
	shared := newTestClient(t, e.cluster)
	mod := func(c *GroupConfig) { c.RebalanceTimeout = 30 * time.Second }
	t0 := time.Now()
	a := e.joinOn(shared, group, mod)
	b := e.joinOn(shared, group, mod)
	c := e.joinOn(shared, group, mod)
	e.stableSplit(6, a, b, c)
	if took := time.Since(t0); took > 15*time.Second {
		t.Fatalf("three members on one client took %v to split the partitions (RebalanceTimeout 30s): their JoinGroups waited on each other", took)
	}
	ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	if err := c.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	e.stableSplit(6, a, b)
}
