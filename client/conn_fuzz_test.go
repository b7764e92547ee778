package client

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// FuzzResponseStream feeds arbitrary bytes as the broker's side of a
// connection with two requests in flight: the reader must never panic or
// allocate beyond MaxResponseBytes, and each request must reach exactly one
// terminal: a response whose correlation ID matched, or ErrProtocol /
// ErrTransport with PossiblySent.
func FuzzResponseStream(f *testing.F) {
	info, _ := wire.LookupAPI(wire.KeyCreateTopics)
	ok := func(corr int32) []byte {
		r := &fakeReq{hdr: wire.RequestHeader{Key: wire.KeyCreateTopics, Version: info.MaxVersion, CorrelationID: corr}}
		return frame(r, corr, echoCreateTopics(createTopics("a")))
	}
	f.Add(append(ok(1), ok(2)...))
	f.Add(append(ok(2), ok(1)...))
	f.Add(ok(1)[:7])
	f.Add(binary.BigEndian.AppendUint32(nil, 0x7fffffff))
	f.Add([]byte{0, 0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, stream []byte) {
		c, err := New(Config{Bootstrap: []string{"fuzz:1"}, MaxResponseBytes: minResponseBytes})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		client, broker := net.Pipe()
		defer broker.Close()
		cn := newConn(c, client, "fuzz:1", 1, LaneControl)
		cn.versions.set([]wire.ApiVersionsResponseKey{{ApiKey: wire.KeyCreateTopics, MinVersion: info.MinVersion, MaxVersion: info.MaxVersion}})
		go func() { // read both requests, then answer with the stream and hang up
			var size [4]byte
			for range 2 {
				if _, err := io.ReadFull(broker, size[:]); err != nil {
					return
				}
				if _, err := io.CopyN(io.Discard, broker, int64(binary.BigEndian.Uint32(size[:]))); err != nil {
					return
				}
			}
			_, _ = broker.Write(stream)
			_ = broker.Close()
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var ps []*pending
		for range 2 {
			p := c.newPending(ctx, createTopics("a"), info, info.MaxVersion, 1, false)
			p.cn = cn
			p.watch()
			if err := cn.send(p); err != nil {
				t.Fatalf("send: %v", err)
			}
			ps = append(ps, p)
		}
		for i, p := range ps {
			select {
			case <-p.Done():
			case <-time.After(5 * time.Second):
				t.Fatalf("request %d never completed", i)
			}
			resp, err := p.Result()
			switch {
			case err == nil:
				if _, ok := resp.(*wire.CreateTopicsResponse); !ok {
					t.Fatalf("request %d: response %T", i, resp)
				}
			case errors.Is(err, ErrTimeout):
				t.Fatalf("request %d timed out: the stream ended, so the connection must have failed", i)
			case !errors.Is(err, ErrProtocol) && !errors.Is(err, ErrTransport):
				t.Fatalf("request %d: untyped failure %v", i, err)
			case CertaintyOf(err) != PossiblySent:
				t.Fatalf("request %d: %v with certainty %v", i, err, CertaintyOf(err))
			}
		}
	})
}
