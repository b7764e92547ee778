package client

import (
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestRoundTrip: the client keeps the shortest ApiVersions round trip per
// broker, and answers for a broker it has not connected to with the
// shortest of any connection (0 before one).
func TestRoundTrip(t *testing.T) {
	fc := newFakeCluster(t, 2)
	const slow = 30 * time.Millisecond
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		if _, ok := r.req.(*wire.ApiVersionsRequest); ok && r.broker == 2 {
			time.Sleep(slow) // broker 2 is far: its answers come late (a link, not synchronization)
		}
		return false
	})
	cl := newTestClient(t, fc.config())
	if d := cl.RoundTrip(2); d != 0 {
		t.Fatalf("RoundTrip before any connection = %v, want 0", d)
	}
	ctx := testCtx(t, 10*time.Second)
	if err := cl.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	near := cl.RoundTrip(2)
	if near <= 0 || near >= slow {
		t.Fatalf("RoundTrip(2) before a connection to it = %v, want the bootstrap's (>0, <%v)", near, slow)
	}
	if _, err := cl.Request(ctx, 2, &wire.ApiVersionsRequest{ClientSoftwareName: "t", ClientSoftwareVersion: "0", NodeID: -1}); err != nil {
		t.Fatal(err)
	}
	if d := cl.RoundTrip(2); d < slow {
		t.Errorf("RoundTrip(2) = %v, want at least %v", d, slow)
	}
	if _, err := cl.Request(ctx, 1, &wire.ApiVersionsRequest{ClientSoftwareName: "t", ClientSoftwareVersion: "0", NodeID: -1}); err != nil {
		t.Fatal(err)
	}
	if d := cl.RoundTrip(1); d <= 0 || d >= slow {
		t.Errorf("RoundTrip(1) = %v, want >0 and <%v", d, slow)
	}
}
