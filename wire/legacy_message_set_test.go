package wire

import (
	"errors"
	"fmt"
	"testing"
)

// goldenLegacyV0 is one magic v0 message at offset 3, key "k", value "v".
const goldenLegacyV0 = "0000000000000003" + // offset
	"00000010" + // message_size 16
	"%08x" + // crc (IEEE over magic..end)
	"00" + "00" + // magic 0, attributes 0
	"00000001" + "6b" + // key "k"
	"00000001" + "76" // value "v"

func TestLegacyMessageSetPlain(t *testing.T) {
	v0 := legacyMsg(3, 0, 0, 0, []byte("k"), []byte("v"))
	if got := fmt.Sprintf("%x", v0); got != fmt.Sprintf(goldenLegacyV0, v0[12:16]) {
		t.Fatalf("legacy builder: %s", got)
	}
	v1 := legacyMsg(4, 1, int8(AttrLogAppendTime), 1234, nil, []byte{})
	batches, br := readAll(cat(v0, v1), DecodeOptions{})
	if br.Err() != nil || len(batches) != 2 {
		t.Fatalf("err %v n %d", br.Err(), len(batches))
	}
	b0, b1 := batches[0], batches[1]
	if b0.Magic != 0 || b0.BaseOffset != 3 || b0.NextOffset() != 4 || b0.NumRecords != 1 || b0.ProducerID != -1 {
		t.Fatalf("v0 batch %+v", b0)
	}
	sameRecord(t, "v0", b0.Records[0], Record{Timestamp: -1, Key: []byte("k"), Value: []byte("v")})
	if b1.Magic != 1 || b1.BaseOffset != 4 || b1.Attributes&AttrLogAppendTime == 0 {
		t.Fatalf("v1 batch %+v", b1)
	}
	sameRecord(t, "v1", b1.Records[0], Record{Timestamp: 1234, Key: nil, Value: []byte{}})
	if b1.Records[0].Offset != 4 {
		t.Fatal("v1 offset")
	}
	// Truncated trailing legacy message.
	batches, br = readAll(cat(v0, v1[:len(v1)-1]), DecodeOptions{})
	if br.Err() != nil || !br.Truncated() || len(batches) != 1 {
		t.Fatalf("truncated: %v %v %d", br.Err(), br.Truncated(), len(batches))
	}
	// Bad CRC.
	bad := append([]byte(nil), v0...)
	bad[len(bad)-1] ^= 0xff
	if _, br = readAll(bad, DecodeOptions{}); !errors.Is(br.Err(), ErrCorruptMessage) {
		t.Fatalf("bad crc: %v", br.Err())
	}
}

func TestLegacyMessageSetCompressed(t *testing.T) {
	c, _ := NewCompressor(CompressionLevels{})
	for _, magic := range []int8{0, 1} {
		for _, codec := range []Compression{CompressionGzip, CompressionSnappy, CompressionLZ4} {
			t.Run(fmt.Sprintf("v%d/%v", magic, codec), func(t *testing.T) {
				// v1 inner offsets are relative (0,1,2) and the wrapper has the
				// absolute offset of the last (12); v0 inner offsets are absolute.
				off := func(i int64) int64 {
					if magic == 1 {
						return i
					}
					return 10 + i
				}
				inner := cat(
					legacyMsg(off(0), magic, 0, 100, []byte("a"), []byte("1")),
					legacyMsg(off(1), magic, 0, 101, nil, []byte("2")),
					legacyMsg(off(2), magic, 0, 102, []byte("c"), nil),
				)
				var payload []byte
				if codec == CompressionSnappy {
					payload = appendXerialSnappy(nil, inner, 20) // as the Java client wrote it
				} else {
					var err error
					if payload, err = c.Compress(nil, codec, inner); err != nil {
						t.Fatal(err)
					}
				}
				wrapper := legacyMsg(12, magic, int8(codec), 102, nil, payload)
				after := legacyMsg(13, magic, 0, 103, nil, []byte("after"))
				batches, br := readAll(cat(wrapper, after), DecodeOptions{})
				if br.Err() != nil || len(batches) != 2 {
					t.Fatalf("err %v n %d", br.Err(), len(batches))
				}
				b := batches[0]
				if b.BaseOffset != 10 || b.LastOffsetDelta != 2 || b.NextOffset() != 13 || b.NumRecords != 3 || b.Compression() != codec {
					t.Fatalf("wrapper batch %+v", b)
				}
				for i, r := range b.Records {
					if r.Offset != int64(10+i) {
						t.Errorf("record %d offset %d", i, r.Offset)
					}
				}
				ts := func(v int64) int64 {
					if magic == 0 {
						return -1
					}
					return v
				}
				sameRecord(t, "r1", b.Records[1], Record{Timestamp: ts(101), Value: []byte("2")})
				sameRecord(t, "r2", b.Records[2], Record{Timestamp: ts(102), Key: []byte("c")})
				if batches[1].BaseOffset != 13 {
					t.Fatal("message after wrapper")
				}
			})
		}
	}
}

func TestLegacyMessageSetCorruptInner(t *testing.T) {
	c, _ := NewCompressor(CompressionLevels{})
	inner := legacyMsg(0, 1, 0, 1, nil, []byte("x"))
	cases := map[string][]byte{
		"truncated inner": inner[:len(inner)-1],
		"magic mismatch":  legacyMsg(0, 0, 0, 0, nil, []byte("x")),
		"nested":          legacyMsg(0, 1, int8(CompressionGzip), 1, nil, []byte("x")),
		"bad inner crc":   append(append([]byte(nil), inner[:len(inner)-1]...), 'y'),
	}
	for name, in := range cases {
		payload, _ := c.Compress(nil, CompressionGzip, in)
		_, br := readAll(legacyMsg(5, 1, int8(CompressionGzip), 1, nil, payload), DecodeOptions{})
		if !errors.Is(br.Err(), ErrCorruptMessage) {
			t.Errorf("%s: %v", name, br.Err())
		}
	}
}

// TestLegacyLZ4BrokenChecksum: Kafka 0.8/0.9 wrote magic v0 lz4 wrappers
// with a wrong frame descriptor checksum (KAFKA-3160); they must decode,
// while the same damage in a magic v1 wrapper is corruption.
func TestLegacyLZ4BrokenChecksum(t *testing.T) {
	c, _ := NewCompressor(CompressionLevels{})
	for _, magic := range []int8{0, 1} {
		inner := legacyMsg(5, magic, 0, 1, nil, []byte("old"))
		frame, err := c.Compress(nil, CompressionLZ4, inner)
		if err != nil {
			t.Fatal(err)
		}
		frame[6] ^= 0x5a // FLG and BD at 4..5, no content size: checksum at 6
		batches, br := readAll(legacyMsg(5, magic, int8(CompressionLZ4), 1, nil, frame), DecodeOptions{})
		if magic == 0 {
			if br.Err() != nil || len(batches) != 1 || string(batches[0].Records[0].Value) != "old" {
				t.Fatalf("v0: %v %+v", br.Err(), batches)
			}
		} else if !errors.Is(br.Err(), ErrCorruptMessage) {
			t.Fatalf("v1: %v", br.Err())
		}
	}
	if got := fixLegacyLZ4Checksum([]byte("short")); string(got) != "short" {
		t.Fatal("short input changed")
	}
}
