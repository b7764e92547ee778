package wirecheck

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// adminMessages lists gregor's admin/group messages by API key.
var adminMessages = []struct {
	key  wire.APIKey
	req  func() wire.RequestDecoder
	resp func() wire.ResponseEncoder
}{
	{wire.KeyCreateTopics, func() wire.RequestDecoder { return new(wire.CreateTopicsRequest) }, func() wire.ResponseEncoder { return new(wire.CreateTopicsResponse) }},
	{wire.KeyDeleteTopics, func() wire.RequestDecoder { return new(wire.DeleteTopicsRequest) }, func() wire.ResponseEncoder { return new(wire.DeleteTopicsResponse) }},
	{wire.KeyCreatePartitions, func() wire.RequestDecoder { return new(wire.CreatePartitionsRequest) }, func() wire.ResponseEncoder { return new(wire.CreatePartitionsResponse) }},
	{wire.KeyDeleteRecords, func() wire.RequestDecoder { return new(wire.DeleteRecordsRequest) }, func() wire.ResponseEncoder { return new(wire.DeleteRecordsResponse) }},
	{wire.KeyDescribeConfigs, func() wire.RequestDecoder { return new(wire.DescribeConfigsRequest) }, func() wire.ResponseEncoder { return new(wire.DescribeConfigsResponse) }},
	{wire.KeyIncrementalAlterConfigs, func() wire.RequestDecoder { return new(wire.IncrementalAlterConfigsRequest) }, func() wire.ResponseEncoder { return new(wire.IncrementalAlterConfigsResponse) }},
	{wire.KeyDescribeCluster, func() wire.RequestDecoder { return new(wire.DescribeClusterRequest) }, func() wire.ResponseEncoder { return new(wire.DescribeClusterResponse) }},
	{wire.KeyListGroups, func() wire.RequestDecoder { return new(wire.ListGroupsRequest) }, func() wire.ResponseEncoder { return new(wire.ListGroupsResponse) }},
	{wire.KeyDescribeGroups, func() wire.RequestDecoder { return new(wire.DescribeGroupsRequest) }, func() wire.ResponseEncoder { return new(wire.DescribeGroupsResponse) }},
	{wire.KeyDeleteGroups, func() wire.RequestDecoder { return new(wire.DeleteGroupsRequest) }, func() wire.ResponseEncoder { return new(wire.DeleteGroupsResponse) }},
	{wire.KeyOffsetCommit, func() wire.RequestDecoder { return new(wire.OffsetCommitRequest) }, func() wire.ResponseEncoder { return new(wire.OffsetCommitResponse) }},
	{wire.KeyOffsetFetch, func() wire.RequestDecoder { return new(wire.OffsetFetchRequest) }, func() wire.ResponseEncoder { return new(wire.OffsetFetchResponse) }},
	{wire.KeyOffsetDelete, func() wire.RequestDecoder { return new(wire.OffsetDeleteRequest) }, func() wire.ResponseEncoder { return new(wire.OffsetDeleteResponse) }},
	{wire.KeyConsumerGroupDescribe, func() wire.RequestDecoder { return new(wire.ConsumerGroupDescribeRequest) }, func() wire.ResponseEncoder { return new(wire.ConsumerGroupDescribeResponse) }},
	{wire.KeyConsumerGroupHeartbeat, func() wire.RequestDecoder { return new(wire.ConsumerGroupHeartbeatRequest) }, func() wire.ResponseEncoder { return new(wire.ConsumerGroupHeartbeatResponse) }},
}

// codec is what both our requests and responses implement.
type codec interface {
	AppendTo(dst []byte, v int16) []byte
	DecodeFrom(r *wire.Reader, v int16) error
}

// kcodec is what kmsg's requests and responses implement.
type kcodec interface {
	SetVersion(int16)
	AppendTo([]byte) []byte
	ReadFrom([]byte) error
}

// oursToKmsg fills one of our messages, encodes it at v, and checks that
// kmsg decodes the bytes to the same fields and re-encodes them identically.
func oursToKmsg(t *testing.T, v int16, mode fillMode, newOurs func() codec, newKmsg func() kcodec) {
	t.Helper()
	m := newOurs()
	seed := 0
	fill(reflect.ValueOf(m).Elem(), &seed, mode, 0)
	b := m.AppendTo(nil, v)
	o2 := newOurs()
	r := wire.NewReader(b)
	if err := o2.DecodeFrom(r, v); err != nil || r.Complete() != nil {
		t.Fatalf("ours decode of ours: %v %v", err, r.Complete())
	}
	k := newKmsg()
	k.SetVersion(v)
	if err := k.ReadFrom(b); err != nil {
		t.Fatalf("kmsg decode of ours: %v\n%x", err, b)
	}
	if d := diff("", reflect.ValueOf(o2), reflect.ValueOf(k)); len(d) > 0 {
		t.Fatalf("ours->kmsg field differences (mode %d):\n%s", mode, joinDiffs(d))
	}
	if kb := k.AppendTo(nil); !bytes.Equal(kb, b) {
		t.Fatalf("kmsg re-encoding differs (mode %d):\nours %x\nkmsg %x", mode, b, kb)
	}
}

// kmsgToOurs fills a kmsg message, encodes it at v with kmsg, and checks that
// ours decodes the bytes to the same fields and re-encodes them identically.
func kmsgToOurs(t *testing.T, v int16, newOurs func() codec, newKmsg func() kcodec) {
	t.Helper()
	k := newKmsg()
	seed := 0
	fill(reflect.ValueOf(k).Elem(), &seed, fillFull, 0)
	k.SetVersion(v)
	b := k.AppendTo(nil)
	k2 := newKmsg()
	k2.SetVersion(v)
	if err := k2.ReadFrom(b); err != nil {
		t.Fatalf("kmsg decode of kmsg: %v", err)
	}
	m := newOurs()
	r := wire.NewReader(b)
	if err := m.DecodeFrom(r, v); err != nil {
		t.Fatalf("ours decode of kmsg: %v\n%x", err, b)
	}
	if err := r.Complete(); err != nil {
		t.Fatalf("ours decode of kmsg: %v", err)
	}
	if d := diff("", reflect.ValueOf(m), reflect.ValueOf(k2)); len(d) > 0 {
		t.Fatalf("kmsg->ours field differences:\n%s", joinDiffs(d))
	}
	if ob := m.AppendTo(nil, v); !bytes.Equal(ob, b) {
		t.Fatalf("our re-encoding differs:\nkmsg %x\nours %x", b, ob)
	}
}

// TestAdminCrossCheckKmsg runs both directions for every admin/group API and
// every version gregor implements, requests and responses, with every field
// set (and once with nulls, ours->kmsg).
func TestAdminCrossCheckKmsg(t *testing.T) {
	for _, am := range adminMessages {
		info, ok := wire.LookupAPI(am.key)
		if !ok {
			t.Fatalf("key %d not in the API table", am.key)
		}
		for v := info.MinVersion; v <= info.MaxVersion; v++ {
			t.Run(fmt.Sprintf("%s/v%d", info.Name, v), func(t *testing.T) {
				kreq := func() kcodec { return kmsg.RequestForKey(int16(am.key)).(kcodec) }
				kresp := func() kcodec { return kmsg.ResponseForKey(int16(am.key)).(kcodec) }
				oreq := func() codec { return am.req() }
				oresp := func() codec { return am.resp() }
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
