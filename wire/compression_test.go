package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

func TestCompressionRoundTrip(t *testing.T) {
	c, err := NewCompressor(CompressionLevels{Gzip: 1, LZ4: 3, Zstd: 9})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecompressor(0)
	inputs := [][]byte{{}, []byte("x"), bytes.Repeat([]byte("kafka record "), 20000)}
	for _, codec := range allCodecs {
		for _, in := range inputs {
			enc, err := c.Compress([]byte("pre"), codec, in)
			if err != nil || !bytes.HasPrefix(enc, []byte("pre")) {
				t.Fatalf("%v: compress: %v", codec, err)
			}
			out, err := d.Decompress([]byte("P"), codec, enc[3:], 0)
			if err != nil || !bytes.Equal(out[1:], in) || out[0] != 'P' {
				t.Fatalf("%v: %d bytes: err %v, round trip differs", codec, len(in), err)
			}
		}
	}
	for _, bad := range []CompressionLevels{{Gzip: 10}, {LZ4: 10}, {Zstd: 23}, {LZ4: -1}} {
		if _, err := NewCompressor(bad); err == nil {
			t.Errorf("levels %+v accepted", bad)
		}
	}
	if _, err := c.Compress(nil, 7, nil); !errors.Is(err, ErrUnsupportedCompressionType) {
		t.Errorf("codec 7: %v", err)
	}
	if _, err := d.Decompress(nil, 7, nil, 0); !errors.Is(err, ErrUnsupportedCompressionType) {
		t.Errorf("codec 7: %v", err)
	}
}

func TestDecompressCorrupt(t *testing.T) {
	d := NewDecompressor(0)
	for _, codec := range allCodecs[1:] {
		_, err := d.Decompress(nil, codec, []byte("definitely not compressed data"), 0)
		if !errors.Is(err, ErrCorruptMessage) {
			t.Errorf("%v: err %v, want ErrCorruptMessage", codec, err)
		}
	}
}

func TestDecompressBound(t *testing.T) {
	c, _ := NewCompressor(CompressionLevels{})
	zeros := make([]byte, 4<<20)
	d := NewDecompressor(1 << 20)
	for _, codec := range allCodecs {
		enc, err := c.Compress(nil, codec, zeros)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Decompress(nil, codec, enc, 0); !errors.Is(err, ErrDecompressedTooLarge) {
			t.Errorf("%v: decompressor limit: err %v", codec, err)
		}
		if _, err := NewDecompressor(0).Decompress(nil, codec, enc, 1000); !errors.Is(err, ErrDecompressedTooLarge) {
			t.Errorf("%v: per-call limit: err %v", codec, err)
		}
		if out, err := NewDecompressor(0).Decompress(nil, codec, enc, len(zeros)); err != nil || len(out) != len(zeros) {
			t.Errorf("%v: exact limit: err %v", codec, err)
		}
	}
	// A raw snappy block claiming 2 GiB is refused before allocating.
	claim := []byte{0x80, 0x80, 0x80, 0x80, 0x08, 0x00}
	if _, err := d.Decompress(nil, CompressionSnappy, claim, 0); !errors.Is(err, ErrDecompressedTooLarge) {
		t.Errorf("snappy claim: %v", err)
	}
}

// goldenXerial is snappy-java's stream framing with two chunks, "hello " and
// "world", each a raw snappy block of one literal.
var goldenXerial = []byte{
	0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, // magic
	0, 0, 0, 1, // version
	0, 0, 0, 1, // minimum compatible version
	0, 0, 0, 8, 0x06, 0x14, 'h', 'e', 'l', 'l', 'o', ' ', // chunk 1: len 6, literal of 6
	0, 0, 0, 7, 0x05, 0x10, 'w', 'o', 'r', 'l', 'd', // chunk 2: len 5, literal of 5
}

func TestXerialSnappy(t *testing.T) {
	d := NewDecompressor(0)
	out, err := d.Decompress(nil, CompressionSnappy, goldenXerial, 0)
	if err != nil || string(out) != "hello world" {
		t.Fatalf("golden xerial: %q %v", out, err)
	}
	if got := appendXerialSnappy(nil, []byte("hello world"), 6); !bytes.Equal(got, goldenXerial) {
		t.Fatalf("appendXerialSnappy:\n%x\nwant\n%x", got, goldenXerial)
	}
	big := bytes.Repeat([]byte("0123456789"), 10000)
	framed := appendXerialSnappy(nil, big, 32<<10) // 4 chunks
	if out, err := d.Decompress(nil, CompressionSnappy, framed, 0); err != nil || !bytes.Equal(out, big) {
		t.Fatalf("multi-chunk: %v", err)
	}
	if _, err := d.Decompress(nil, CompressionSnappy, framed, 50000); !errors.Is(err, ErrDecompressedTooLarge) {
		t.Fatalf("multi-chunk bound: %v", err)
	}
	for _, cut := range []int{10, 17, 22, len(goldenXerial) - 1} {
		if _, err := d.Decompress(nil, CompressionSnappy, goldenXerial[:cut], 0); !errors.Is(err, ErrCorruptMessage) {
			t.Errorf("cut %d: %v", cut, err)
		}
	}
}

func TestCompressionSupported(t *testing.T) {
	cases := []struct {
		c    Compression
		api  APIKey
		v    int16
		fail bool
	}{
		{CompressionZstd, KeyProduce, 6, true},
		{CompressionZstd, KeyProduce, 7, false},
		{CompressionZstd, KeyFetch, 9, true},
		{CompressionZstd, KeyFetch, 10, false},
		{CompressionLZ4, KeyProduce, 3, false},
		{CompressionGzip, KeyFetch, 4, false},
		{Compression(5), KeyProduce, 13, true},
		{Compression(-1), KeyFetch, 13, true},
	}
	for _, tc := range cases {
		err := CompressionSupported(tc.c, tc.api, tc.v)
		if (err != nil) != tc.fail || (err != nil && !errors.Is(err, ErrUnsupportedCompressionType)) {
			t.Errorf("%v api %d v%d: %v", tc.c, tc.api, tc.v, err)
		}
	}
}

// TestLZ4FrameAsJavaWritesIt: lz4 output is one LZ4 frame with 64 KiB
// blocks and no content checksum (FLG bit 2 clear; BD block size code 4),
// the framing of the Java client's KafkaLZ4BlockOutputStream, and it
// decompresses back to the input.
func TestLZ4FrameAsJavaWritesIt(t *testing.T) {
	c, err := NewCompressor(CompressionLevels{})
	if err != nil {
		t.Fatal(err)
	}
	src := bytes.Repeat([]byte("kafka records compress well "), 10000)
	out, err := c.Compress(nil, CompressionLZ4, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 7 || binary.LittleEndian.Uint32(out) != 0x184D2204 {
		t.Fatalf("not an LZ4 frame: % x", out[:min(len(out), 8)])
	}
	if flg := out[4]; flg&0x04 != 0 {
		t.Fatalf("FLG %08b: content checksum set", flg)
	}
	if bd := out[5]; bd>>4&7 != 4 {
		t.Fatalf("BD %08b: block size code %d, want 4 (64 KiB)", bd, bd>>4&7)
	}
	got, err := NewDecompressor(1<<30).Decompress(nil, CompressionLZ4, out, len(src))
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("round trip: %v (%d bytes, want %d)", err, len(got), len(src))
	}
}
