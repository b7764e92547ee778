package client

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestCoordinatorErrorText: a FindCoordinator refusal names the key and the
// Kafka error, with the broker's message only when it has one (an empty
// message once printed `coordinator for "g": : ...`).
func TestCoordinatorErrorText(t *testing.T) {
	for _, msg := range []*string{nil, ptr(""), ptr("Not authorized")} {
		fc := newFakeCluster(t, 1)
		fc.handle = func(c *fakeConn, r *fakeReq) bool {
			req, ok := r.req.(*wire.FindCoordinatorRequest)
			if !ok {
				return false
			}
			resp := &wire.FindCoordinatorResponse{}
			for _, k := range req.CoordinatorKeys {
				resp.Coordinators = append(resp.Coordinators, wire.FindCoordinatorResponseCoordinator{
					Key: k, NodeID: -1, ErrorCode: wire.ErrGroupAuthorizationFailed.Code, ErrorMessage: msg,
				})
			}
			c.respond(r, resp)
			return true
		}
		c := newTestClient(t, fc.config())
		_, err := c.Coordinator(testCtx(t, 5*time.Second), CoordinatorGroup, "g")
		if !errors.Is(err, wire.ErrGroupAuthorizationFailed) {
			t.Fatalf("err = %v, want GROUP_AUTHORIZATION_FAILED", err)
		}
		text := err.Error()
		if strings.Contains(text, ": :") || !strings.Contains(text, `coordinator for "g"`) {
			t.Errorf("message %v: error text %q", msg, text)
		}
		if msg != nil && *msg != "" && !strings.Contains(text, *msg) {
			t.Errorf("error text %q lacks the broker's message %q", text, *msg)
		}
	}
}

func ptr(s string) *string { return &s }
