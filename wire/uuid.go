package wire

import "encoding/base64"

// UUID is a 16-byte Kafka UUID (topic IDs, cluster-assigned IDs). The zero
// value is Kafka's Uuid.ZERO_UUID, meaning "no ID".
type UUID [16]byte

// IsZero reports whether u is the all-zero UUID.
func (u UUID) IsZero() bool { return u == UUID{} }

// String formats u the way Kafka does: URL-safe base64 without padding
// (22 characters).
func (u UUID) String() string { return base64.RawURLEncoding.EncodeToString(u[:]) }

// ParseUUID parses Kafka's 22-character URL-safe base64 form.
func ParseUUID(s string) (UUID, error) {
	var u UUID
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return u, err
	}
	if len(b) != 16 {
		return u, ErrInvalidLength
	}
	copy(u[:], b)
	return u, nil
}
