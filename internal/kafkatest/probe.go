package kafkatest

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/gregor-kafka/gregor/wire"
)

// This file is a deliberately minimal Kafka client used only for readiness
// checks: ApiVersions v0 and Metadata v4 with non-flexible (v1) request
// headers. It does not depend on gregor's client package so that the test bed
// works while that package is under construction.

// MetadataBroker is one broker listed in a Metadata response.
type MetadataBroker struct {
	NodeID int32
	Host   string
	Port   int32
}

// ClusterMetadata is what Probe learns from one broker.
type ClusterMetadata struct {
	// MaxVersions maps API key to the highest version the broker supports.
	MaxVersions map[int16]int16
	// Brokers are the live (registered, unfenced) brokers.
	Brokers      []MetadataBroker
	ClusterID    string
	ControllerID int32
}

// HasBroker reports whether node id is among the live brokers.
func (m *ClusterMetadata) HasBroker(id int32) bool {
	for _, b := range m.Brokers {
		if b.NodeID == id {
			return true
		}
	}
	return false
}

// Probe dials addr (a PLAINTEXT listener), sends ApiVersions v0 and Metadata
// v4 for no topics, and returns what the broker answered. It is the test
// bed's readiness check and an independent view of broker liveness.
func Probe(ctx context.Context, addr string) (*ClusterMetadata, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return probeConn(ctx, conn)
}

// setProbeDeadline bounds conn's I/O by ctx's deadline, or 10 s when ctx
// has none.
func setProbeDeadline(ctx context.Context, conn net.Conn) {
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(10 * time.Second)
	}
	_ = conn.SetDeadline(dl)
}

func probeConn(ctx context.Context, conn net.Conn) (*ClusterMetadata, error) {
	setProbeDeadline(ctx, conn)
	md := &ClusterMetadata{MaxVersions: map[int16]int16{}}

	// ApiVersions v0: empty body; response: error_code, [api_key min max].
	r, err := roundTrip(conn, int16(wire.KeyApiVersions), 0, 1, nil)
	if err != nil {
		return nil, fmt.Errorf("ApiVersions: %w", err)
	}
	if code := r.Int16(); code != 0 {
		return nil, fmt.Errorf("ApiVersions: error code %d", code)
	}
	n := r.ArrayLen(false, 6)
	minMeta := int16(-1)
	for i := 0; i < n && r.Err() == nil; i++ {
		k, lo, hi := r.Int16(), r.Int16(), r.Int16()
		md.MaxVersions[k] = hi
		if k == int16(wire.KeyMetadata) {
			minMeta = lo
		}
	}
	if r.Err() != nil {
		return nil, fmt.Errorf("ApiVersions: %w", r.Err())
	}
	if minMeta < 0 || minMeta > 4 || md.MaxVersions[int16(wire.KeyMetadata)] < 4 {
		return nil, fmt.Errorf("broker does not support Metadata v4")
	}

	// Metadata v4: topics (empty array: none), allow_auto_topic_creation.
	body := wire.AppendArrayLen(nil, 0, false)
	body = wire.AppendBool(body, false)
	r, err = roundTrip(conn, int16(wire.KeyMetadata), 4, 2, body)
	if err != nil {
		return nil, fmt.Errorf("Metadata: %w", err)
	}
	r.Int32() // throttle_time_ms
	md.Brokers = wire.ReadArray(r, false, 12, func(r *wire.Reader, b *MetadataBroker) {
		b.NodeID = r.Int32()
		b.Host = r.String(false)
		b.Port = r.Int32()
		r.NullableString(false) // rack
	})
	if s := r.NullableString(false); s != nil {
		md.ClusterID = *s
	}
	md.ControllerID = r.Int32()
	if r.Err() != nil {
		return nil, fmt.Errorf("Metadata: %w", r.Err())
	}
	return md, nil
}

// roundTrip writes one size-prefixed request with a v1 header and returns a
// Reader over the response body (after the v0 response header).
func roundTrip(conn net.Conn, key, version int16, corr int32, body []byte) (*wire.Reader, error) {
	clientID := "gregor-kafkatest"
	msg := make([]byte, 4, 64+len(body))
	msg = wire.AppendInt16(msg, key)
	msg = wire.AppendInt16(msg, version)
	msg = wire.AppendInt32(msg, corr)
	msg = wire.AppendNullableString(msg, &clientID, false)
	msg = append(msg, body...)
	binary.BigEndian.PutUint32(msg, uint32(len(msg)-4))
	if _, err := conn.Write(msg); err != nil {
		return nil, err
	}
	var sz [4]byte
	if _, err := io.ReadFull(conn, sz[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(sz[:])
	if n < 4 || n > 16<<20 {
		return nil, fmt.Errorf("response size %d out of range", n)
	}
	resp := make([]byte, n)
	if _, err := io.ReadFull(conn, resp); err != nil {
		return nil, err
	}
	r := wire.NewReader(resp)
	if got := r.Int32(); got != corr {
		return nil, fmt.Errorf("correlation id %d, want %d", got, corr)
	}
	return r, nil
}

// errNotReady is returned while a broker is not yet (or no longer) live.
var errNotReady = errors.New("kafkatest: broker not ready")
