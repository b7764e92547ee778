package consumer

import (
	"encoding/binary"
	"hash/crc32"
	"strconv"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

// tRec is one record of a hand-built golden batch; delta is its offset delta.
type tRec struct {
	delta   int32
	key     []byte
	value   []byte
	headers []wire.Header
}

// tBatch describes a magic v2 batch field by field, so tests can build the
// exact bytes a broker sends (compacted gaps, empty batches, markers).
type tBatch struct {
	base      int64
	epoch     int32
	attrs     int16
	lastDelta int32
	pid       int64
	ts        int64
	codec     wire.Compression
	recs      []tRec
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func appendVarBytes(dst, b []byte) []byte {
	if b == nil {
		return wire.AppendVarint(dst, -1)
	}
	return append(wire.AppendVarint(dst, int32(len(b))), b...)
}

// encode appends the batch's bytes to dst.
func (b tBatch) encode(t testing.TB, dst []byte) []byte {
	t.Helper()
	var recs []byte
	for _, r := range b.recs {
		var body []byte
		body = wire.AppendInt8(body, 0)
		body = wire.AppendVarlong(body, int64(r.delta)) // timestamp delta = offset delta
		body = wire.AppendVarint(body, r.delta)
		body = appendVarBytes(body, r.key)
		body = appendVarBytes(body, r.value)
		body = wire.AppendVarint(body, int32(len(r.headers)))
		for _, h := range r.headers {
			body = appendVarBytes(body, []byte(h.Key))
			body = appendVarBytes(body, h.Value)
		}
		recs = wire.AppendVarint(recs, int32(len(body)))
		recs = append(recs, body...)
	}
	attrs := b.attrs | int16(b.codec)
	if b.codec != wire.CompressionNone && len(recs) > 0 {
		c, err := wire.NewCompressor(wire.CompressionLevels{})
		if err != nil {
			t.Fatal(err)
		}
		if recs, err = c.Compress(nil, b.codec, recs); err != nil {
			t.Fatal(err)
		}
	}
	start := len(dst)
	dst = wire.AppendInt64(dst, b.base)
	dst = wire.AppendInt32(dst, 0) // length, patched
	dst = wire.AppendInt32(dst, b.epoch)
	dst = wire.AppendInt8(dst, 2)
	dst = wire.AppendUint32(dst, 0) // crc, patched
	dst = wire.AppendInt16(dst, attrs)
	dst = wire.AppendInt32(dst, b.lastDelta)
	dst = wire.AppendInt64(dst, b.ts)
	dst = wire.AppendInt64(dst, b.ts+int64(b.lastDelta))
	dst = wire.AppendInt64(dst, b.pid)
	dst = wire.AppendInt16(dst, 0)
	dst = wire.AppendInt32(dst, -1)
	dst = wire.AppendInt32(dst, int32(len(b.recs)))
	dst = append(dst, recs...)
	batch := dst[start:]
	binary.BigEndian.PutUint32(batch[8:], uint32(len(batch)-12))
	binary.BigEndian.PutUint32(batch[17:], crc32.Checksum(batch[21:], castagnoli))
	return dst
}

// dataBatch is a batch of n records at base with values "v<offset>".
func dataBatch(base int64, n int) tBatch {
	b := tBatch{base: base, lastDelta: int32(n - 1), pid: -1, ts: 1_700_000_000_000}
	for i := range n {
		b.recs = append(b.recs, tRec{delta: int32(i), key: []byte{byte(i)}, value: []byte("v" + itoa(base+int64(i)))})
	}
	return b
}

// txnBatch is a transactional data batch of producer pid.
func txnBatch(base int64, n int, pid int64) tBatch {
	b := dataBatch(base, n)
	b.attrs |= wire.AttrTransactional
	b.pid = pid
	return b
}

// marker is a transaction marker (control batch) of producer pid.
func marker(base int64, pid int64, typ wire.ControlRecordType) tBatch {
	key := binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, 0), uint16(typ))
	value := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint16(nil, 0), 3)
	return tBatch{base: base, attrs: wire.AttrTransactional | wire.AttrControl, pid: pid, ts: 1_700_000_000_000,
		recs: []tRec{{delta: 0, key: key, value: value}}}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func encodeAll(t testing.TB, bs ...tBatch) []byte {
	var out []byte
	for _, b := range bs {
		out = b.encode(t, out)
	}
	return out
}

func offsetsOf(rs []Record) []int64 {
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = r.Offset
	}
	return out
}
