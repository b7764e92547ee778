package producer_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// Cut modes of cutConn.
const (
	cutNone       int32 = iota
	cutAfterWrite       // a Produce request is written whole; the connection dies when its answer arrives
	cutInWrite          // half of a Produce request's first bytes are written, then the connection dies
)

var errCut = errors.New("test: connection cut")

// cutConn cuts connections around Produce requests (API key 0) as mode
// says. Frames are tracked across Write calls (a frame may be written as
// several buffers).
type cutConn struct {
	net.Conn
	mode     *atomic.Int32
	left     int  // bytes left of the frame being written (writer only)
	produce  bool // that frame is a Produce request
	awaiting atomic.Bool
}

func (c *cutConn) Write(b []byte) (int, error) {
	written := 0
	for len(b) > 0 {
		if c.left == 0 {
			if len(b) < 6 {
				return written, fmt.Errorf("test: frame starts with %d bytes", len(b))
			}
			c.left = 4 + int(binary.BigEndian.Uint32(b))
			c.produce = binary.BigEndian.Uint16(b[4:]) == uint16(wire.KeyProduce)
		}
		chunk := b[:min(len(b), c.left)]
		if c.produce && c.mode.Load() == cutInWrite {
			n, _ := c.Conn.Write(chunk[:len(chunk)/2])
			c.Conn.Close()
			return written + n, errCut
		}
		// Armed before the frame's last bytes go out: the broker may answer
		// (and the reader see it) before this Write returns.
		if len(chunk) == c.left && c.produce && c.mode.Load() == cutAfterWrite {
			c.awaiting.Store(true)
		}
		n, err := c.Conn.Write(chunk)
		written += n
		if err != nil {
			return written, err
		}
		c.left -= n
		b = b[n:]
	}
	return written, nil
}

// Read drops the connection when bytes arrive after a Produce request was
// written under cutAfterWrite: the broker has handled it (a connection's
// requests are handled in order), the client never sees the answer.
func (c *cutConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && c.awaiting.Load() {
		c.Conn.Close()
		return 0, errCut
	}
	return n, err
}

// TestIntegrationResolve: on the real broker, records whose Produce
// answers were lost resolve Written at the offsets an independent consumer
// finds them at; records cut while their request was being written resolve
// NotWritten once the partition's epoch is fenced, and are never found;
// lost records whose range DeleteRecords removed resolve StillUnknown
// (range_deleted).
func TestIntegrationResolve(t *testing.T) {
	cluster := kafkatest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	boot := cluster.Bootstrap(kafkatest.Plaintext)
	var mode atomic.Int32
	d := &net.Dialer{}
	cl, err := client.New(client.Config{Bootstrap: boot, Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &cutConn{Conn: nc, mode: &mode}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	rcl, err := client.New(client.Config{Bootstrap: boot}) // the independent reader's and admin's
	if err != nil {
		t.Fatal(err)
	}
	defer rcl.Close(context.Background())
	adm := admin.New(rcl, admin.Config{})

	newTopic := func(t *testing.T, name string) string {
		topic := kafkatest.UniqueName(t, name)
		res, err := adm.CreateTopics(ctx, []admin.NewTopic{{Name: topic, Partitions: 1, ReplicationFactor: 1}}, admin.TopicOptions{WaitVisible: true})
		if err == nil {
			err = res[0].Err
		}
		if err != nil {
			t.Fatalf("CreateTopics: %v", err)
		}
		return topic
	}
	newProducer := func(t *testing.T, auto ...bool) *producer.Producer {
		p, err := producer.New(cl, producer.Config{Linger: time.Hour, MaxRetries: new(2), RetryBackoff: 10 * time.Millisecond,
			ResolvePossiblySent: len(auto) > 0 && auto[0]})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close(ctx) })
		return p
	}
	// send sends values as one batch (Linger holds it until Flush) and
	// returns their Results.
	send := func(t *testing.T, p *producer.Producer, topic string, values ...string) []producer.Result {
		t.Helper()
		var ds []*producer.Delivery
		for _, v := range values {
			d, err := p.Send(ctx, &producer.Record{Topic: topic, Partition: producer.ToPartition(0), Value: []byte(v)})
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, d)
		}
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		var rs []producer.Result
		for _, d := range ds {
			r, _ := d.Result()
			rs = append(rs, r)
		}
		return rs
	}
	sendOK := func(t *testing.T, p *producer.Producer, topic string, values ...string) {
		t.Helper()
		for i, r := range send(t, p, topic, values...) {
			if r.Err != nil {
				t.Fatalf("%s: %v", values[i], r.Err)
			}
		}
	}
	sendCut := func(t *testing.T, p *producer.Producer, topic string, m int32, values ...string) []producer.Result {
		t.Helper()
		mode.Store(m)
		rs := send(t, p, topic, values...)
		mode.Store(cutNone)
		for i, r := range rs {
			t.Logf("%s: %v (%v), sent %+v", values[i], r.Err, r.Certainty, r.Sent)
			if r.Err == nil {
				t.Fatalf("%s acknowledged through a cut connection", values[i])
			}
		}
		return rs
	}
	resolve := func(t *testing.T, p *producer.Producer, r producer.Result) producer.Resolution {
		t.Helper()
		res, err := p.Resolve(ctx, r)
		if err != nil {
			t.Fatalf("Resolve: %v", err)
		}
		t.Logf("resolved %+v (%v)", res, res.Reason)
		return res
	}
	// read returns the partition's records by value, as a consumer on
	// another client reads them, up to end.
	read := func(t *testing.T, topic string, end int64) map[string]consumer.Record {
		t.Helper()
		c, err := consumer.New(rcl, consumer.Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		if err := c.Assign(ctx, []consumer.PartitionPosition{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: 0}, Position: consumer.AtBeginning()}}); err != nil {
			t.Fatal(err)
		}
		out := map[string]consumer.Record{}
		for last := int64(-1); last < end-1; {
			recs, err := c.Receive(ctx)
			if err != nil {
				t.Fatalf("Receive: %v", err)
			}
			for _, r := range recs {
				out[string(r.Value)] = r
				last = r.Offset
			}
		}
		return out
	}

	t.Run("answer lost", func(t *testing.T) {
		topic := newTopic(t, "resolve-lost")
		p := newProducer(t)
		sendOK(t, p, topic, "a0", "a1")
		lost := []string{"lost0", "lost1", "lost2"}
		rs := sendCut(t, p, topic, cutAfterWrite, lost...)
		got := read(t, topic, 5)
		for i, r := range rs {
			if r.Certainty != client.PossiblySent {
				t.Fatalf("%s: certainty %v, want possibly_sent", lost[i], r.Certainty)
			}
			res := resolve(t, p, r)
			rec, ok := got[lost[i]]
			if !ok {
				t.Fatalf("%s: not in the log (%v)", lost[i], got)
			}
			if res.Verdict != producer.Written || res.Offset != rec.Offset || !res.Timestamp.Equal(rec.Timestamp) {
				t.Fatalf("%s: %+v, the reader finds it at offset %d timestamp %v", lost[i], res, rec.Offset, rec.Timestamp)
			}
		}
	})

	t.Run("cut in write", func(t *testing.T) {
		topic := newTopic(t, "resolve-cut")
		p := newProducer(t)
		sendOK(t, p, topic, "a0", "a1")
		cut := []string{"cut0", "cut1"}
		rs := sendCut(t, p, topic, cutInWrite, cut...)
		for i, r := range rs {
			if res := resolve(t, p, r); r.Certainty == client.PossiblySent && (res.Verdict != producer.StillUnknown || res.Reason != producer.ReasonNotFenced) {
				t.Fatalf("%s before the fence: %+v, want still_unknown not_fenced", cut[i], res)
			}
		}
		sendOK(t, p, topic, "after") // under the next epoch: fences the old one
		got := read(t, topic, 3)
		for i, r := range rs {
			if res := resolve(t, p, r); res.Verdict != producer.NotWritten {
				t.Fatalf("%s after the fence: %+v, want not_written", cut[i], res)
			}
			if rec, ok := got[cut[i]]; ok {
				t.Fatalf("%s found at offset %d", cut[i], rec.Offset)
			}
		}
		if len(got) != 3 || got["after"].Offset != 2 {
			t.Fatalf("log %v, want a0 a1 after", got)
		}
	})

	t.Run("range deleted", func(t *testing.T) {
		topic := newTopic(t, "resolve-deleted")
		p := newProducer(t)
		sendOK(t, p, topic, "a0", "a1")
		rs := sendCut(t, p, topic, cutAfterWrite, "gone0")
		del, err := adm.DeleteRecords(ctx, []admin.RecordsCutoff{{TopicPartition: gregor.TopicPartition{Topic: topic, Partition: 0}, Before: -1}})
		if err == nil {
			err = del[0].Err
		}
		if err != nil || del[0].LowWatermark != 3 {
			t.Fatalf("DeleteRecords: %v, low watermark %d, want 3", err, del[0].LowWatermark)
		}
		if res := resolve(t, p, rs[0]); res.Verdict != producer.StillUnknown || res.Reason != producer.ReasonRangeDeleted {
			t.Fatalf("%+v, want still_unknown range_deleted", res)
		}
	})

	t.Run("automatic", func(t *testing.T) {
		topic := newTopic(t, "resolve-auto")
		p := newProducer(t, true)
		sendOK(t, p, topic, "a0", "a1")
		mode.Store(cutAfterWrite)
		rs := send(t, p, topic, "auto0", "auto1")
		mode.Store(cutNone)
		got := read(t, topic, 4)
		for i, v := range []string{"auto0", "auto1"} {
			if rs[i].Err != nil || rs[i].Offset != got[v].Offset || rs[i].Offset != int64(2+i) || rs[i].Timestamp != got[v].Timestamp {
				t.Fatalf("%s: %+v (%v), want acknowledged at the reader's offset %d", v, rs[i], rs[i].Err, got[v].Offset)
			}
		}
	})
}
