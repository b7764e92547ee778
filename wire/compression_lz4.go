package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/pierrec/lz4/v4"
)

// LZ4 frame format (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md),
// as Kafka's clients write it for compression.type=lz4.
const (
	lz4FrameMagic     = 0x184D2204
	lz4FlagVersion    = 0x40 // bits 7-6 must be 01
	lz4FlagBlockIndep = 0x20
	lz4FlagBlockSum   = 0x10
	lz4FlagSize       = 0x08
	lz4FlagDictID     = 0x01
	lz4BlockRaw       = 0x80000000 // block size high bit: stored uncompressed
	lz4WindowSize     = 64 << 10   // how far back a linked block's matches reach
)

// errLZ4Fallback marks a frame decodeLZ4Frame leaves to the stream reader
// (a dictionary ID, an unknown version).
var errLZ4Fallback = errors.New("lz4 frame needs the stream reader")

// decodeLZ4Frame appends the decompression of the LZ4 frame src to dst,
// decoding each block straight into dst (no intermediate block buffer and
// copy, as the stream reader makes). It does not verify the frame's xxh32
// header, block and content checksums: the record batch's CRC32C already
// covers every byte of src. Linked blocks (block independence off) find
// their matches in the output before them. At most max bytes are produced
// (ErrDecompressedTooLarge). Frames with a dictionary ID or another version
// fail with errLZ4Fallback before anything is written.
func decodeLZ4Frame(dst, src []byte, max int) ([]byte, error) {
	start := len(dst)
	if len(src) < 7 || binary.LittleEndian.Uint32(src) != lz4FrameMagic {
		return dst, errors.New("lz4: not a frame (bad magic or too short)")
	}
	flg, bd := src[4], src[5]
	if flg&0xC0 != lz4FlagVersion || flg&lz4FlagDictID != 0 {
		return dst, errLZ4Fallback
	}
	sizeIdx := (bd >> 4) & 7
	if sizeIdx < 4 {
		return dst, fmt.Errorf("lz4: block size index %d", sizeIdx)
	}
	blockMax := 1 << (8 + 2*int(sizeIdx)) // 4: 64 KiB ... 7: 4 MiB
	p := 6
	if flg&lz4FlagSize != 0 {
		p += 8
	}
	if len(src) <= p {
		return dst, errors.New("lz4: frame descriptor truncated")
	}
	if hc := byte(xxh32Small(src[4:p]) >> 8); src[p] != hc {
		return dst, fmt.Errorf("lz4: frame descriptor checksum %#02x, computed %#02x", src[p], hc)
	}
	p++
	linked := flg&lz4FlagBlockIndep == 0
	for {
		if len(src)-p < 4 {
			return dst[:start], errors.New("lz4: frame truncated before its end mark")
		}
		word := binary.LittleEndian.Uint32(src[p:])
		p += 4
		if word == 0 {
			return dst, nil // end mark (a content checksum may follow: not verified)
		}
		n := int(word &^ lz4BlockRaw)
		if n > blockMax || n > len(src)-p {
			return dst[:start], fmt.Errorf("lz4: block of %d bytes (max %d, %d left)", n, blockMax, len(src)-p)
		}
		data := src[p : p+n]
		p += n
		if flg&lz4FlagBlockSum != 0 {
			p += 4
		}
		if word&lz4BlockRaw != 0 {
			if len(dst)-start+n > max {
				return dst[:start], ErrDecompressedTooLarge
			}
			dst = append(dst, data...)
			continue
		}
		out, err := decodeLZ4Block(dst, start, data, blockMax, linked)
		if err != nil {
			return dst[:start], err
		}
		dst = out
		if len(dst)-start > max {
			return dst[:start], ErrDecompressedTooLarge
		}
	}
}

// decodeLZ4Block appends one compressed block to dst (whose output began at
// start), trying the spare capacity first and growing it to the frame's
// block size only when the block did not fit.
func decodeLZ4Block(dst []byte, start int, data []byte, blockMax int, linked bool) ([]byte, error) {
	if cap(dst)-len(dst) < 4*len(data) {
		// No room to speak of (the block decoder must not get an empty
		// window): grow now, at least to the compressed size's guess.
		nb := make([]byte, len(dst), len(dst)+min(blockMax, max(4*len(data), 64)))
		copy(nb, dst)
		dst = nb
	}
	for try := 0; ; try++ {
		var dict []byte
		if linked {
			dict = dst[max(start, len(dst)-lz4WindowSize):]
		}
		n, err := lz4.UncompressBlockWithDict(data, dst[len(dst):cap(dst)], dict)
		if err == nil {
			return dst[:len(dst)+n], nil
		}
		if try > 0 || cap(dst)-len(dst) >= blockMax {
			return dst, fmt.Errorf("lz4: corrupt block: %w", err)
		}
		nb := make([]byte, len(dst), len(dst)+max(blockMax, len(dst)-start))
		copy(nb, dst)
		dst = nb
	}
}

// xxh32Small is XXH32 with seed 0 of b, for inputs shorter than 16 bytes
// (an LZ4 frame descriptor: its header checksum is the second byte).
func xxh32Small(b []byte) uint32 {
	const (
		prime1 uint32 = 2654435761
		prime2 uint32 = 2246822519
		prime3 uint32 = 3266489917
		prime4 uint32 = 668265263
		prime5 uint32 = 374761393
	)
	h := prime5 + uint32(len(b))
	for ; len(b) >= 4; b = b[4:] {
		h += binary.LittleEndian.Uint32(b) * prime3
		h = bits.RotateLeft32(h, 17) * prime4
	}
	for _, c := range b {
		h += uint32(c) * prime5
		h = bits.RotateLeft32(h, 11) * prime1
	}
	h ^= h >> 15
	h *= prime2
	h ^= h >> 13
	h *= prime3
	h ^= h >> 16
	return h
}
