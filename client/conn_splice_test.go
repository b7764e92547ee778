package client

import (
	"bytes"
	"io"
	"net"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// spliceTestRequest is a ProduceRequest with two record fields large enough
// to be spliced and one that is copied.
func spliceTestRequest() *wire.ProduceRequest {
	return &wire.ProduceRequest{Acks: -1, TimeoutMs: 1000, TopicData: []wire.ProduceRequestTopic{{
		Name: "t",
		PartitionData: []wire.ProduceRequestPartition{
			{Index: 0, Records: bytes.Repeat([]byte{1}, wire.SpliceMinBytes+5)},
			{Index: 1, Records: []byte{2, 2}},
			{Index: 2, Records: bytes.Repeat([]byte{3}, 2*wire.SpliceMinBytes)},
		},
	}}}
}

// TestWriteFrameSpliced checks that a produce frame written with its record
// batches spliced in (writev over TCP) arrives byte for byte as the whole
// frame appendRequest builds, and that the connection's lists keep no batch.
func TestWriteFrameSpliced(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		b, _ := io.ReadAll(c)
		got <- b
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	info, _ := wire.LookupAPI(wire.KeyProduce)
	clientID := DefaultClientID
	req := spliceTestRequest()
	var want []byte
	cn := &conn{nc: nc}
	for v := int16(3); v <= 9; v += 6 { // classic and flexible encodings
		want = appendRequest(want, info, v, int32(v), &clientID, req)
		buf, splices := appendRequestSpliced(cn.wbuf[:0], cn.splices[:0], info, v, int32(v), &clientID, req)
		if len(splices) != 2 {
			t.Fatalf("v%d: %d splices, want 2", v, len(splices))
		}
		n, err := cn.writeFrame(buf, splices)
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(len(buf)) + int64(len(splices[0].Bytes)+len(splices[1].Bytes)); n != want {
			t.Fatalf("v%d: wrote %d bytes, want %d", v, n, want)
		}
		cn.wbuf = buf[:0]
		cn.keepSplices(splices)
		for _, b := range cn.wvec[:cap(cn.wvec)] {
			if b != nil {
				t.Fatal("write vector keeps a reference to a written segment")
			}
		}
		for _, s := range cn.splices[:cap(cn.splices)] {
			if s.Bytes != nil {
				t.Fatal("splice list keeps a reference to a record batch")
			}
		}
	}
	nc.Close()
	if b := <-got; !bytes.Equal(b, want) {
		t.Fatalf("received %d bytes differing from the %d-byte frames appendRequest builds", len(b), len(want))
	}
}

// BenchmarkEncodeProduceSpliced encodes a produce frame with its batches
// spliced out, as the writer path does: 0 allocs/op expected, and no
// record byte copied.
func BenchmarkEncodeProduceSpliced(b *testing.B) {
	info, _ := wire.LookupAPI(wire.KeyProduce)
	req := spliceTestRequest()
	clientID := DefaultClientID
	var buf []byte
	var splices []wire.Splice
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf, splices = appendRequestSpliced(buf[:0], splices[:0], info, info.MaxVersion, int32(i), &clientID, req)
	}
}
