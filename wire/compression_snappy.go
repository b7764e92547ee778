package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/golang/snappy"
)

// xerialMagic starts the snappy-java ("xerial") stream framing the Java
// client writes for snappy batches: magic, then int32 version and int32
// minimum compatible version, then chunks of [int32 length][raw snappy block].
var xerialMagic = []byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}

const xerialHeaderLen = 16

// decodeSnappy appends the decompression of src (raw snappy block or xerial
// framing) to dst, producing at most max bytes.
func decodeSnappy(dst, src []byte, max int) ([]byte, error) {
	if !bytes.HasPrefix(src, xerialMagic) {
		return decodeSnappyBlock(dst, src, max)
	}
	if len(src) < xerialHeaderLen {
		return dst, errors.New("short xerial header")
	}
	start := len(dst)
	rest := src[xerialHeaderLen:]
	for len(rest) > 0 {
		if len(rest) < 4 {
			return dst[:start], errors.New("short xerial chunk length")
		}
		n := binary.BigEndian.Uint32(rest)
		rest = rest[4:]
		if uint64(n) > uint64(len(rest)) {
			return dst[:start], fmt.Errorf("xerial chunk of %d bytes with %d left", n, len(rest))
		}
		var err error
		dst, err = decodeSnappyBlock(dst, rest[:n], max-(len(dst)-start))
		if err != nil {
			return dst[:start], err
		}
		rest = rest[n:]
	}
	return dst, nil
}

// decodeSnappyBlock appends the decompression of one raw snappy block,
// checking its announced length against max before allocating.
func decodeSnappyBlock(dst, src []byte, max int) ([]byte, error) {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return dst, err
	}
	if n > max {
		return dst, ErrDecompressedTooLarge
	}
	start := len(dst)
	dst = growLen(dst, n)
	out, err := snappy.Decode(dst[start:], src)
	if err != nil {
		return dst[:start], err
	}
	if len(out) != n || (n > 0 && &out[0] != &dst[start]) {
		return dst[:start], errors.New("snappy decoded length mismatch")
	}
	return dst, nil
}

// appendXerialSnappy appends src as xerial-framed snappy with chunks of at
// most chunk bytes of input, as the Java client writes it. Used by tests and
// fuzz seeds; the producer writes raw snappy blocks.
func appendXerialSnappy(dst, src []byte, chunk int) []byte {
	dst = append(dst, xerialMagic...)
	dst = AppendInt32(dst, 1) // version
	dst = AppendInt32(dst, 1) // minimum compatible version
	for len(src) > 0 {
		n := min(chunk, len(src))
		enc := snappy.Encode(nil, src[:n])
		dst = AppendInt32(dst, int32(len(enc)))
		dst = append(dst, enc...)
		src = src[n:]
	}
	return dst
}
