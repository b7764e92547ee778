package runner

import (
	"strings"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// TestLacking: a broker without ConsumerGroupHeartbeat, or advertising it
// with group.version not finalized (Kafka 3.7 to 3.9), lacks KIP-848
// groups; one with the API and group.version 1 has them.
func TestLacking(t *testing.T) {
	need := []brokerFeature{brokerFeatures["consumer_protocol_groups"]}
	api := []wire.ApiVersionsResponseKey{{ApiKey: wire.KeyConsumerGroupHeartbeat, MaxVersion: 0}}
	level1 := []wire.ApiVersionsFinalizedFeature{{Name: "group.version", MaxVersionLevel: 1}}
	for _, tc := range []struct {
		av   wire.ApiVersionsResponse
		want string
	}{
		{wire.ApiVersionsResponse{}, "ConsumerGroupHeartbeat not in ApiVersions"},
		{wire.ApiVersionsResponse{ApiKeys: api}, "group.version not finalized"},
		{wire.ApiVersionsResponse{ApiKeys: api, FinalizedFeatures: level1}, ""},
	} {
		got := lacking(&tc.av, need)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.av, got, tc.want)
		}
	}
}
