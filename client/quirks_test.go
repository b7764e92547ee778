package client

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// Quirks of Kafka-compatible brokers that cannot run here, emulated with
// the fake broker; each test names its public source.

// TestQuirkApiVersionsResetOnV4: Azure Event Hubs resets the connection
// on ApiVersions v4 (Kafka 3.9's) instead of answering UNSUPPORTED_VERSION
// (twmb/franz-go#1022: "read ApiVersions v4 ... connection reset by
// peer"). The client connects once more with ApiVersions v3 and keeps v3
// for later connections; without the fallback every connection failed
// with ErrTransport.
func TestQuirkApiVersionsResetOnV4(t *testing.T) {
	fc := newFakeCluster(t, 1)
	fc.leaders["t"], fc.epochs["t"] = []int32{1}, []int32{0}
	fc.setHandle(func(c *fakeConn, r *fakeReq) bool {
		if r.hdr.Key != wire.KeyApiVersions || r.hdr.Version < 4 {
			return false
		}
		if tc, ok := c.nc.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset, as Event Hubs sends, not a clean close
		}
		c.close()
		return true
	})
	cl := newTestClient(t, fc.config())
	if _, err := cl.Metadata(testCtx(t, 10*time.Second), []string{"t"}); err != nil {
		t.Fatalf("Metadata through a broker resetting ApiVersions v4: %v", err)
	}
	// The fetch lane's connection starts at v3 at once.
	if _, err := cl.Request(testCtx(t, 10*time.Second), 1, fetchByName("t")); err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	var got []int16
	for _, r := range fc.requests(wire.KeyApiVersions) {
		got = append(got, r.hdr.Version)
	}
	if len(got) < 3 || got[0] < 4 {
		t.Fatalf("ApiVersions versions sent %v: want one above v3, then v3 on every connection", got)
	}
	for _, v := range got[1:] {
		if v != apiVersionsHangupFallback {
			t.Fatalf("ApiVersions versions sent %v: after the reset, only v3", got)
		}
	}
}

// TestQuirkNoTopicIDs: Azure Event Hubs has no topic IDs (it advertises
// Metadata up to v9, before KIP-516's topic IDs in v10, and OffsetFetch up
// to v8; Azure/azure-event-hubs-for-kafka#209, whose ApiVersions dump has no topic-ID version). The
// client's metadata has a zero topic ID and no error, and the requests
// that name topics by name or ID are sent at a version naming them by
// name (Fetch v12, OffsetFetch v8), never v13+/v9+ with a zero ID.
func TestQuirkNoTopicIDs(t *testing.T) {
	fc := newFakeCluster(t, 1)
	fc.leaders["t"], fc.epochs["t"] = []int32{1}, []int32{0}
	fc.versions[wire.KeyMetadata] = [2]int16{0, 9}
	fc.versions[wire.KeyOffsetFetch] = [2]int16{0, 8}
	fc.versions[wire.KeyOffsetCommit] = [2]int16{0, 8}
	fc.versions[wire.KeyFetch] = [2]int16{0, 12}
	cl := newTestClient(t, fc.config())
	md, err := cl.Metadata(testCtx(t, 10*time.Second), []string{"t"})
	if err != nil {
		t.Fatal(err)
	}
	tm := md.Topics["t"]
	if tm == nil || tm.Err != nil || !tm.ID.IsZero() || len(tm.Partitions) != 1 {
		t.Fatalf("topic metadata %+v: want partition 0, no error, a zero topic ID", tm)
	}
	for _, r := range fc.requests(wire.KeyMetadata) {
		if r.hdr.Version > 9 {
			t.Fatalf("Metadata v%d sent", r.hdr.Version)
		}
	}
	vers, err := cl.BrokerVersions(testCtx(t, 10*time.Second), 1)
	if err != nil {
		t.Fatal(err)
	}
	if vers[wire.KeyFetch][1] != 12 || vers[wire.KeyOffsetFetch][1] != 8 {
		t.Fatalf("negotiated ranges %v", vers)
	}
	// A Fetch naming the topic by name only (the consumer's, for a zero
	// ID) goes out at v12, which carries the name.
	if _, err := cl.Request(testCtx(t, 10*time.Second), 1, fetchByName("t")); err != nil {
		t.Fatal(err)
	}
	fr := fc.requests(wire.KeyFetch)
	if len(fr) != 1 || fr[0].hdr.Version != 12 {
		t.Fatalf("Fetch requests %d, version %d: want one at v12", len(fr), fr[0].hdr.Version)
	}
	if got := fr[0].req.(*wire.FetchRequest).Topics; len(got) != 1 || got[0].Topic != "t" {
		t.Fatalf("Fetch v12 named %+v, want topic t by name", got)
	}
}

// TestQuirkWarpStreamMissingAPIs: WarpStream advertises no
// ConsumerGroupHeartbeat, no share-group APIs and no DeleteRecords
// (docs.warpstream.com/warpstream/reference/protocol-and-feature-support).
// Each fails at once with gregor.ErrUnsupportedFeature naming the way out,
// not sent (the fake decodes none of them and would fail the test).
func TestQuirkWarpStreamMissingAPIs(t *testing.T) {
	fc := newFakeCluster(t, 1)
	for _, k := range []wire.APIKey{wire.KeyConsumerGroupHeartbeat, wire.KeyShareGroupHeartbeat, wire.KeyShareFetch,
		wire.KeyShareAcknowledge, wire.KeyShareGroupDescribe, wire.KeyDeleteRecords} {
		fc.omit[k] = true
	}
	cl := newTestClient(t, fc.config())
	for _, tc := range []struct {
		req    wire.Request
		remedy string
	}{
		{&wire.ConsumerGroupHeartbeatRequest{GroupID: "g", MemberEpoch: 0}, `"classic"`},
		{&wire.ShareGroupHeartbeatRequest{GroupID: "s"}, "consumer group"},
		{&wire.DeleteRecordsRequest{TimeoutMs: 1000}, "retention.ms"},
	} {
		start := time.Now()
		_, err := cl.Request(testCtx(t, 10*time.Second), 1, tc.req)
		var ue *gregor.UnsupportedFeatureError
		if !errors.Is(err, gregor.ErrUnsupportedFeature) || !errors.As(err, &ue) || !strings.Contains(ue.Remedy, tc.remedy) {
			t.Fatalf("%T: %v, want gregor.ErrUnsupportedFeature with a remedy naming %s", tc.req, err, tc.remedy)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("%T failed after %v", tc.req, d)
		}
	}
	if n := len(fc.log); n == 0 {
		t.Fatal("nothing reached the fake broker")
	}
	for _, r := range fc.log {
		if k := r.hdr.Key; k != wire.KeyApiVersions && k != wire.KeyMetadata {
			t.Fatalf("API key %d was sent", k)
		}
	}
}

// fetchByName is a Fetch of partition 0 of topic naming it by name only.
func fetchByName(topic string) *wire.FetchRequest {
	return &wire.FetchRequest{ReplicaID: -1, MaxWaitMs: 1, MaxBytes: 1 << 20, SessionEpoch: -1,
		Topics: []wire.FetchTopic{{Topic: topic, Partitions: []wire.FetchPartition{{Partition: 0, CurrentLeaderEpoch: -1, LogStartOffset: -1, PartitionMaxBytes: 1 << 20}}}}}
}
