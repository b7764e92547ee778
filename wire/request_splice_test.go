package wire

import (
	"bytes"
	"testing"
)

// TestProduceRequestSplicedMatchesAppendTo checks that reinserting the
// spliced record batches gives AppendTo's bytes at every version, that only
// fields of at least SpliceMinBytes are spliced, and that they alias Records.
func TestProduceRequestSplicedMatchesAppendTo(t *testing.T) {
	big1 := bytes.Repeat([]byte{0xa1}, SpliceMinBytes)
	big2 := bytes.Repeat([]byte{0xb2}, 3*SpliceMinBytes+7)
	small := bytes.Repeat([]byte{0xc3}, SpliceMinBytes-1)
	tid := "tx"
	req := &ProduceRequest{
		TransactionalID: &tid, Acks: -1, TimeoutMs: 30000,
		TopicData: []ProduceRequestTopic{
			{Name: "a", TopicID: UUID{1}, PartitionData: []ProduceRequestPartition{
				{Index: 0, Records: big1}, {Index: 1, Records: small}, {Index: 2, Records: nil},
			}},
			{Name: "b", TopicID: UUID{2}, PartitionData: []ProduceRequestPartition{
				{Index: 7, Records: big2}, {Index: 8, Records: []byte{}},
			}},
		},
	}
	for v := int16(3); v <= 13; v++ {
		want := req.AppendTo([]byte("prefix"), v)
		got, splices := req.AppendSplicedTo([]byte("prefix"), v, nil)
		if len(splices) != 2 {
			t.Fatalf("v%d: %d splices, want 2 (the two fields of at least %d bytes)", v, len(splices), SpliceMinBytes)
		}
		if &splices[0].Bytes[0] != &big1[0] || &splices[1].Bytes[0] != &big2[0] {
			t.Fatalf("v%d: splices do not alias Records", v)
		}
		var joined []byte
		prev := 0
		for _, s := range splices {
			if s.At < prev || s.At > len(got) {
				t.Fatalf("v%d: splice at %d out of order or range (prev %d, len %d)", v, s.At, prev, len(got))
			}
			joined = append(joined, got[prev:s.At]...)
			joined = append(joined, s.Bytes...)
			prev = s.At
		}
		joined = append(joined, got[prev:]...)
		if !bytes.Equal(joined, want) {
			t.Fatalf("v%d: spliced encoding differs from AppendTo", v)
		}
	}
}

// TestProduceRequestSplicedNone checks that without large fields nothing is
// spliced and the bytes equal AppendTo's.
func TestProduceRequestSplicedNone(t *testing.T) {
	req := &ProduceRequest{Acks: -1, TopicData: []ProduceRequestTopic{{Name: "t",
		PartitionData: []ProduceRequestPartition{{Index: 3, Records: []byte{1, 2, 3}}}}}}
	got, splices := req.AppendSplicedTo(nil, 9, nil)
	if len(splices) != 0 || !bytes.Equal(got, req.AppendTo(nil, 9)) {
		t.Fatalf("splices %d or bytes differ", len(splices))
	}
}

// TestProduceRequestSplicedInlineBound: a request of many small batches
// copies them into the encoding only up to SpliceInlineMaxBytes, splices
// the rest, and still equals AppendTo's bytes once they are reinserted.
func TestProduceRequestSplicedInlineBound(t *testing.T) {
	small := bytes.Repeat([]byte{0xd4}, 2<<10)
	req := &ProduceRequest{Acks: -1, TimeoutMs: 30000, TopicData: []ProduceRequestTopic{{Name: "t", TopicID: UUID{3}}}}
	for i := int32(0); i < 1024; i++ { // 2 MiB of batches, each below SpliceMinBytes
		req.TopicData[0].PartitionData = append(req.TopicData[0].PartitionData, ProduceRequestPartition{Index: i, Records: small})
	}
	for _, v := range []int16{8, 13} {
		got, splices := req.AppendSplicedTo(nil, v, nil)
		if len(got) > SpliceInlineMaxBytes+len(small)+64<<10 {
			t.Fatalf("v%d: encoding holds %d bytes, want about SpliceInlineMaxBytes (%d)", v, len(got), SpliceInlineMaxBytes)
		}
		if len(splices) == 0 {
			t.Fatalf("v%d: nothing spliced", v)
		}
		var joined []byte
		prev := 0
		for _, s := range splices {
			joined = append(joined, got[prev:s.At]...)
			joined = append(joined, s.Bytes...)
			prev = s.At
		}
		joined = append(joined, got[prev:]...)
		if !bytes.Equal(joined, req.AppendTo(nil, v)) {
			t.Fatalf("v%d: spliced encoding differs from AppendTo", v)
		}
	}
}
