package client

import (
	"errors"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestVersionCap: a request implementing wire.VersionCapper is sent at
// min(negotiated, cap) (a transactions v1 producer's Produce at v11, not the
// negotiated v13), uncapped at the negotiated version, and fails
// ErrUnsupportedVersion (NotSent) when the broker lacks the capped version.
func TestVersionCap(t *testing.T) {
	fc := newFakeCluster(t, 1)
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		if _, ok := r.req.(*wire.ProduceRequest); ok {
			c.respond(r, &wire.ProduceResponse{})
			return true
		}
		return false
	})
	c := newTestClient(t, fc.config())
	ctx := testCtx(t, 5*time.Second)
	info, _ := wire.LookupAPI(wire.KeyProduce)
	for _, tc := range []struct{ cap, want int16 }{{11, 11}, {0, info.MaxVersion}, {99, info.MaxVersion}} {
		if _, err := c.Request(ctx, 1, &wire.ProduceRequest{Acks: -1, VersionCap: tc.cap}); err != nil {
			t.Fatalf("cap %d: %v", tc.cap, err)
		}
		reqs := fc.requests(wire.KeyProduce)
		if got := reqs[len(reqs)-1].hdr.Version; got != tc.want {
			t.Fatalf("cap %d: sent v%d, want v%d", tc.cap, got, tc.want)
		}
	}
	_, err := c.Request(ctx, 1, &wire.ProduceRequest{Acks: -1, VersionCap: 2})
	if !errors.Is(err, ErrUnsupportedVersion) || CertaintyOf(err) != NotSent {
		t.Fatalf("cap below the broker's minimum: %v (%v)", err, CertaintyOf(err))
	}
}
