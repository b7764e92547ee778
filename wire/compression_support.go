package wire

import "fmt"

// CompressionSupported reports whether codec c may be used with version v of
// api. zstd needs Produce v7+ and Fetch v10+ (KIP-110); a broker answers older
// versions carrying zstd with UNSUPPORTED_COMPRESSION_TYPE. The error wraps
// ErrUnsupportedCompressionType; nil means allowed. Codecs other than the
// five public ones are always refused. APIs other than Produce and Fetch
// carry no records and are not checked.
func CompressionSupported(c Compression, api APIKey, v int16) error {
	if c < CompressionNone || c > CompressionZstd {
		return fmt.Errorf("%w: codec %d", ErrUnsupportedCompressionType, int8(c))
	}
	if c != CompressionZstd {
		return nil
	}
	switch {
	case api == KeyProduce && v < 7:
		return fmt.Errorf("%w: zstd needs Produce v7+, have v%d (KIP-110)", ErrUnsupportedCompressionType, v)
	case api == KeyFetch && v < 10:
		return fmt.Errorf("%w: zstd needs Fetch v10+, have v%d (KIP-110)", ErrUnsupportedCompressionType, v)
	}
	return nil
}
