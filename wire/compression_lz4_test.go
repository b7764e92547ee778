package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// TestDecodeLZ4FrameMatchesStreamReader decodes frames pierrec's writer
// made with every block size and checksum option, into no spare capacity,
// a little and plenty, and requires exactly the input back (as the stream
// reader gives it), without verifying block and content checksums.
func TestDecodeLZ4FrameMatchesStreamReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	text := make([]byte, 3<<20)
	for i := range text {
		text[i] = byte('a' + rng.IntN(8)) // compresses, with long matches
	}
	for _, size := range []int{0, 1, 100, 70 << 10, 3 << 20} {
		for _, bs := range []lz4.BlockSize{lz4.Block64Kb, lz4.Block256Kb, lz4.Block1Mb, lz4.Block4Mb} {
			for _, sums := range []bool{false, true} {
				name := fmt.Sprintf("%d/%v/sums=%v", size, bs, sums)
				in := text[:size]
				var frame bytes.Buffer
				w := lz4.NewWriter(&frame)
				opts := []lz4.Option{lz4.BlockSizeOption(bs), lz4.ChecksumOption(sums), lz4.BlockChecksumOption(sums)}
				if sums {
					opts = append(opts, lz4.SizeOption(uint64(size)))
				}
				if err := w.Apply(opts...); err != nil {
					t.Fatal(err)
				}
				if _, err := w.Write(in); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				want, err := io.ReadAll(lz4.NewReader(bytes.NewReader(frame.Bytes())))
				if err != nil || !bytes.Equal(want, in) {
					t.Fatalf("%s: stream reader: %v", name, err)
				}
				for _, spare := range []int{0, 10, size + 1<<22} {
					dst := make([]byte, 3, 3+spare)
					got, err := decodeLZ4Frame(dst, frame.Bytes(), DefaultMaxDecompressedBytes)
					if err != nil || !bytes.Equal(got[:3], dst[:3]) || !bytes.Equal(got[3:], in) {
						t.Fatalf("%s spare %d: %d bytes, %v", name, spare, len(got)-3, err)
					}
					if spare > size+blockMaxOf(bs) && size > 0 && &got[0] != &dst[0] {
						t.Fatalf("%s spare %d: decoded outside the spare capacity", name, spare)
					}
				}
				if size > 0 {
					if _, err := decodeLZ4Frame(nil, frame.Bytes(), size-1); !errors.Is(err, ErrDecompressedTooLarge) {
						t.Fatalf("%s: bound %d: %v", name, size-1, err)
					}
					for _, cut := range []int{5, 8, frame.Len() - 5} {
						if cut > 0 && cut < frame.Len() {
							if _, err := decodeLZ4Frame(nil, frame.Bytes()[:cut], DefaultMaxDecompressedBytes); err == nil && !sums {
								// Without a content checksum the end mark
								// is the last 4 bytes: cutting them fails.
								t.Fatalf("%s: cut at %d decoded", name, cut)
							}
						}
					}
				}
			}
		}
	}
}

func blockMaxOf(bs lz4.BlockSize) int { return int(bs) }

// TestXXH32Small pins the descriptor checksum to pierrec's frame header
// check: every FLG/BD combination it accepts has the byte xxh32Small gives.
func TestXXH32Small(t *testing.T) {
	for _, flg := range []byte{0x40, 0x60, 0x64, 0x6c, 0x70, 0x7c} {
		for bd := byte(4); bd <= 7; bd++ {
			desc := []byte{0x04, 0x22, 0x4d, 0x18, flg, bd << 4}
			if flg&lz4FlagSize != 0 {
				desc = append(desc, 1, 2, 3, 4, 5, 6, 7, 8)
			}
			desc = append(desc, byte(xxh32Small(desc[4:])>>8))
			if ok, err := lz4.ValidFrameHeader(desc); !ok {
				t.Fatalf("flg %#x bd %d: pierrec rejects checksum %#x: %v", flg, bd, desc[len(desc)-1], err)
			}
		}
	}
}
