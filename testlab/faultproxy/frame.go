package faultproxy

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"time"
)

// DefaultMaxFrameBytes bounds one frame unless Options.MaxFrameBytes says otherwise.
const DefaultMaxFrameBytes = 64 << 20

// readFrame reads one size-prefixed frame, the prefix included, bounding the
// size before allocating.
func readFrame(r io.Reader, max int) ([]byte, error) {
	var pre [4]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(pre[:]))
	if n < 0 || int(n) > max {
		return nil, fmt.Errorf("faultproxy: frame size %d outside [0, %d]", n, max)
	}
	f := make([]byte, 4+int(n))
	copy(f, pre[:])
	if _, err := io.ReadFull(r, f[4:]); err != nil {
		return nil, err
	}
	return f, nil
}

// meta is what the proxy knows of a frame.
type meta struct {
	api, version int16
	corr         int32
}

// requestMeta parses a request header (API key, version, correlation ID);
// a frame too short for one gets API and version -1.
func requestMeta(f []byte) meta {
	if len(f) < 12 {
		return meta{api: -1, version: -1, corr: -1}
	}
	return meta{
		api:     int16(binary.BigEndian.Uint16(f[4:])),
		version: int16(binary.BigEndian.Uint16(f[6:])),
		corr:    int32(binary.BigEndian.Uint32(f[8:])),
	}
}

// requestClientID parses a request header's client_id (header v1 and v2:
// a nullable int16-length string after the correlation ID); "" when the
// frame is too short for it or it is null.
func requestClientID(f []byte) string {
	if len(f) < 14 {
		return ""
	}
	n := int(int16(binary.BigEndian.Uint16(f[12:])))
	if n <= 0 || len(f) < 14+n {
		return ""
	}
	return string(f[14 : 14+n])
}

// responseCorr is a response frame's correlation ID, -1 if it is too short.
func responseCorr(f []byte) int32 {
	if len(f) < 8 {
		return -1
	}
	return int32(binary.BigEndian.Uint32(f[4:]))
}

func noteOf(conn int, dir Direction, m meta, f []byte) FrameNote {
	head := f
	if len(head) > 64 {
		head = head[:64]
	}
	return FrameNote{At: time.Now(), Conn: conn, Dir: dir, API: m.api, Version: m.version, Corr: m.corr, Size: len(f), Head: hex.EncodeToString(head)}
}
