package producer

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// TestEncodedRoomUndershoot: after a batch that compressed to almost
// nothing, the next batch's output buffer is reserved small; a batch of
// incompressible values then outgrows it, and every record still reaches
// the (fake) broker intact, in order.
func TestEncodedRoomUndershoot(t *testing.T) {
	part := &partState{lastStream: 1_000_000, lastEncoded: 4_000}
	if got := encodedRoom(part, 1_000_000); got != 4_000+1_000+4096 {
		t.Fatalf("room %d after a 250:1 batch, want %d", got, 4_000+1_000+4096)
	}
	if got := encodedRoom(&partState{}, 5000); got != 5064 {
		t.Fatalf("room %d without history, want 5064", got)
	}

	f := newFakeCluster(t, map[string]int{"t": 1}, 1)
	p := newTestProducer(t, f, Config{Compression: wire.CompressionLZ4, Linger: time.Hour, BatchMaxBytes: 64 << 10})
	rng := rand.New(rand.NewPCG(3, 4))
	var sent [][]byte
	send := func(value []byte) {
		if _, err := p.Send(context.Background(), &Record{Topic: "t", Partition: ToPartition(0), Value: value}); err != nil {
			t.Fatal(err)
		}
		sent = append(sent, value)
	}
	for range 50 {
		send(bytes.Repeat([]byte{'a'}, 1000))
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range 50 {
		v := make([]byte, 1000)
		for i := range v {
			v[i] = byte(rng.Uint32())
		}
		send(v)
	}
	if err := p.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := f.log("t", 0)
	if len(got) != len(sent) {
		t.Fatalf("broker has %d records, want %d", len(got), len(sent))
	}
	for i := range got {
		if !bytes.Equal(got[i].value, sent[i]) {
			t.Fatalf("record %d differs", i)
		}
	}
}
