package gregor

import (
	"errors"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// TestUnsupportedFeatureError: it matches ErrUnsupportedFeature and its
// cause, names the feature, the broker's offer and the remedy, and says
// nothing may have been written.
func TestUnsupportedFeatureError(t *testing.T) {
	var err error = &UnsupportedFeatureError{Feature: "KIP-932 share groups", Broker: "broker 1 lacks ShareGroupHeartbeat",
		Remedy: "use a consumer group", Err: wire.ErrUnsupportedVersion}
	if !errors.Is(err, ErrUnsupportedFeature) || !errors.Is(err, wire.ErrUnsupportedVersion) || errors.Is(err, wire.ErrUnknownServerError) {
		t.Fatalf("errors.Is wrong for %v", err)
	}
	want := "gregor: KIP-932 share groups not supported by the cluster: broker 1 lacks ShareGroupHeartbeat; use a consumer group (" +
		wire.ErrUnsupportedVersion.Error() + ")"
	if err.Error() != want {
		t.Fatalf("Error() = %q, want %q", err.Error(), want)
	}
	if MayHaveBeenWritten(err) || IsRetriable(err) {
		t.Fatalf("MayHaveBeenWritten %v, IsRetriable %v", MayHaveBeenWritten(err), IsRetriable(err))
	}
}
