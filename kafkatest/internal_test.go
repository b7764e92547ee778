package kafkatest

import (
	"testing"

	ik "github.com/gregor-kafka/gregor/internal/kafkatest"
)

// TestConstantsMatchTheTestBed: the constants spelled out here (so that go
// doc shows them) are the test bed's.
func TestConstantsMatchTheTestBed(t *testing.T) {
	for _, c := range [][2]string{
		{KafkaVersion, ik.KafkaVersion}, {EnvCacheDir, ik.EnvCacheDir},
		{AdminUser, ik.AdminUser}, {AdminPassword, ik.AdminPassword},
		{AliceUser, ik.AliceUser}, {AlicePassword, ik.AlicePassword},
		{string(SingleNode), string(ik.SingleNode)}, {string(ThreeBrokers), string(ik.ThreeBrokers)},
		{string(Plaintext), string(ik.Plaintext)}, {string(SASLPlaintext), string(ik.SASLPlaintext)},
		{string(SSL), string(ik.SSL)}, {string(SASLSSL), string(ik.SASLSSL)}, {string(MTLS), string(ik.MTLS)},
	} {
		if c[0] != c[1] {
			t.Errorf("%q here, %q in internal/kafkatest", c[0], c[1])
		}
	}
}
