package wire

import "hash/crc32"

// This file lets a producer keep a batch's CRC-32C up to date while it
// appends records (when each record's bytes are still in the cache) and
// complete the checksum at send time from the header's bytes and the
// records' running CRC, instead of re-reading a cold megabyte batch.
// The CRC itself is hash/crc32's Castagnoli; only the combination of two
// CRCs (zlib's crc32_combine method: multiplication by x^(8·len) modulo
// the polynomial) is computed here.

// castagnoliReversed is the CRC-32C polynomial in reversed bit order.
const castagnoliReversed = 0x82F63B78

// UpdateCRC32C returns the CRC-32C (Castagnoli, as record batches v2 use)
// of the bytes whose CRC-32C is crc followed by p; crc 0 starts a new
// checksum.
func UpdateCRC32C(crc uint32, p []byte) uint32 {
	return crc32.Update(crc, castagnoli, p)
}

// CombineCRC32C returns the CRC-32C of a||b given crc1 = CRC-32C(a),
// crc2 = CRC-32C(b) and len2 = len(b), in O(log len2) time.
func CombineCRC32C(crc1, crc2 uint32, len2 int) uint32 {
	if len2 <= 0 {
		return crc1
	}
	return multModP(x8nModP(len2), crc1) ^ crc2
}

// multModP returns a(x)·b(x) modulo the CRC-32C polynomial, both operands
// and the result in reversed bit order (x^0 is the top bit).
func multModP(a, b uint32) uint32 {
	var prod uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			prod ^= b
			if a&(m-1) == 0 {
				break
			}
		}
		if b&1 != 0 {
			b = b>>1 ^ castagnoliReversed
		} else {
			b >>= 1
		}
	}
	return prod
}

// x8nModP returns x^(8·n) modulo the CRC-32C polynomial (n bytes of zeros
// shift a CRC by this factor), by squaring: x^(2^k) for k = 3, 4, ...
func x8nModP(n int) uint32 {
	p := uint32(1) << 31  // x^0
	sq := uint32(1) << 23 // x^8
	for ; n != 0; n >>= 1 {
		if n&1 != 0 {
			p = multModP(sq, p)
		}
		sq = multModP(sq, sq)
	}
	return p
}
