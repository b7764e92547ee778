package kafkatest

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
)

// newKafkaUUID returns a random ID in the form Kafka's Uuid.randomUuid()
// produces: 16 random bytes as unpadded URL-safe base64 (22 characters),
// never starting with '-' and never the reserved ZERO or METADATA IDs. Used for
// cluster IDs so that formatting needs no extra JVM start.
func newKafkaUUID() string {
	for {
		var b [16]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
		zero := true
		for _, x := range b[:15] {
			if x != 0 {
				zero = false
			}
		}
		if zero && (b[15] == 0 || b[15] == 1) {
			continue
		}
		s := base64.RawURLEncoding.EncodeToString(b[:])
		if strings.HasPrefix(s, "-") {
			continue
		}
		return s
	}
}
