package share

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/wire"
)

// TestShareGroupsUnsupported: a coordinator without share groups (no
// ShareGroupHeartbeat in ApiVersions, Kafka 3.x and 4.0; or the broker
// answering UNSUPPORTED_VERSION) ends the consumer at its first heartbeat:
// AwaitJoined and Receive return gregor.ErrUnsupportedFeature within a
// second, and the heartbeat is not retried (it was, every 200 ms, until
// the caller's deadline); Close then succeeds, with nothing to leave.
func TestShareGroupsUnsupported(t *testing.T) {
	for name, f := range map[string]*fakeT{
		"not advertised": {hbErr: fmt.Errorf("%w: broker at b does not support ShareGroupHeartbeat", client.ErrUnsupportedVersion)},
		"UNSUPPORTED_VERSION": {hb: func(*wire.ShareGroupHeartbeatRequest) *wire.ShareGroupHeartbeatResponse {
			return &wire.ShareGroupHeartbeatResponse{ErrorCode: wire.ErrUnsupportedVersion.Code}
		}},
	} {
		t.Run(name, func(t *testing.T) {
			f.t, f.parts = t, 1
			c := startFake(t, f, Config{})
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			err := c.AwaitJoined(ctx)
			var ue *gregor.UnsupportedFeatureError
			if !errors.Is(err, gregor.ErrUnsupportedFeature) || !errors.As(err, &ue) || ue.Remedy == "" {
				t.Fatalf("AwaitJoined: %v, want an UnsupportedFeatureError with a remedy", err)
			}
			if _, err := c.Receive(ctx); !errors.Is(err, gregor.ErrUnsupportedFeature) {
				t.Fatalf("Receive: %v", err)
			}
			<-c.hbDone // the heartbeat goroutine has ended
			f.mu.Lock()
			hbs := f.hbs
			f.mu.Unlock()
			if hbs != 1 {
				t.Fatalf("%d heartbeats, want 1", hbs)
			}
			// A member that never joined has nothing to leave: Close
			// succeeds (it failed with the unsupported leave before).
			if err := c.Close(ctx); err != nil {
				t.Fatalf("Close: %v, want nil", err)
			}
		})
	}
}
