package wirecheck

import (
	"fmt"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// shareMessages lists gregor's share-group messages (KIP-932) by API key.
var shareMessages = []struct {
	key  wire.APIKey
	req  func() wire.RequestDecoder
	resp func() wire.ResponseEncoder
}{
	{wire.KeyShareGroupHeartbeat, func() wire.RequestDecoder { return new(wire.ShareGroupHeartbeatRequest) }, func() wire.ResponseEncoder { return new(wire.ShareGroupHeartbeatResponse) }},
	{wire.KeyShareGroupDescribe, func() wire.RequestDecoder { return new(wire.ShareGroupDescribeRequest) }, func() wire.ResponseEncoder { return new(wire.ShareGroupDescribeResponse) }},
	{wire.KeyShareFetch, func() wire.RequestDecoder { return new(wire.ShareFetchRequest) }, func() wire.ResponseEncoder { return new(wire.ShareFetchResponse) }},
	{wire.KeyShareAcknowledge, func() wire.RequestDecoder { return new(wire.ShareAcknowledgeRequest) }, func() wire.ResponseEncoder { return new(wire.ShareAcknowledgeResponse) }},
	{wire.KeyDescribeShareGroupOffsets, func() wire.RequestDecoder { return new(wire.DescribeShareGroupOffsetsRequest) }, func() wire.ResponseEncoder { return new(wire.DescribeShareGroupOffsetsResponse) }},
	{wire.KeyAlterShareGroupOffsets, func() wire.RequestDecoder { return new(wire.AlterShareGroupOffsetsRequest) }, func() wire.ResponseEncoder { return new(wire.AlterShareGroupOffsetsResponse) }},
	{wire.KeyDeleteShareGroupOffsets, func() wire.RequestDecoder { return new(wire.DeleteShareGroupOffsetsRequest) }, func() wire.ResponseEncoder { return new(wire.DeleteShareGroupOffsetsResponse) }},
}

// TestShareCrossCheckKmsg runs both directions of the kmsg cross-check for
// every share API and every version gregor implements.
func TestShareCrossCheckKmsg(t *testing.T) {
	for _, sm := range shareMessages {
		info, ok := wire.LookupAPI(sm.key)
		if !ok {
			t.Fatalf("key %d not in the API table", sm.key)
		}
		for v := info.MinVersion; v <= info.MaxVersion; v++ {
			t.Run(fmt.Sprintf("%s/v%d", info.Name, v), func(t *testing.T) {
				kreq := func() kcodec { return kmsg.RequestForKey(int16(sm.key)).(kcodec) }
				kresp := func() kcodec { return kmsg.ResponseForKey(int16(sm.key)).(kcodec) }
				oreq := func() codec { return sm.req() }
				oresp := func() codec { return sm.resp() }
				for _, mode := range []fillMode{fillFull, fillSparse} {
					oursToKmsg(t, v, mode, oreq, kreq)
					oursToKmsg(t, v, mode, oresp, kresp)
				}
				kmsgToOurs(t, v, oreq, kreq)
				kmsgToOurs(t, v, oresp, kresp)
			})
		}
	}
}

// The share messages' field names that kmsg spells differently.
func init() {
	for ours, theirs := range map[string]string{
		"HeartbeatIntervalMs":      "HeartbeatIntervalMillis",
		"AssignorName":             "Assignor",
		"MaxWaitMs":                "MaxWaitMillis",
		"AcquisitionLockTimeoutMs": "AcquisitionLockTimeoutMillis",
	} {
		adminFieldAliases[ours] = append(adminFieldAliases[ours], theirs)
	}
}
