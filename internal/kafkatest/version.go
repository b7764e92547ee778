package kafkatest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// EnvKafkaVersion selects the Apache Kafka release the test bed runs
// (KAFKA_VERSION=3.9.2); unset, KafkaVersion.
const EnvKafkaVersion = "KAFKA_VERSION"

// SupportedVersions are the releases the test bed is known to run: the
// newest patch of every release line from 3.7 to 4.4 on Maven Central
// (checked 2026-12-01), oldest first. `make matrix` runs them in turn.
var SupportedVersions = []string{"3.7.2", "3.8.1", "3.9.2", "4.0.2", "4.1.2", "4.2.2", "4.3.2", "4.4.0"}

// Version returns the Kafka release the bed runs: $KAFKA_VERSION, or
// KafkaVersion when it is unset.
func Version() string {
	if v := strings.TrimSpace(os.Getenv(EnvKafkaVersion)); v != "" {
		return v
	}
	return KafkaVersion
}

// release is a Kafka version's major and minor number.
type release struct{ major, minor int }

// parseRelease parses "3.9.2" (or "4.0") into {3, 9}.
func parseRelease(v string) (release, error) {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return release{}, fmt.Errorf("kafkatest: %s=%q: want a release such as 4.4.0", EnvKafkaVersion, v)
	}
	var r release
	var err1, err2 error
	r.major, err1 = strconv.Atoi(parts[0])
	r.minor, err2 = strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return release{}, fmt.Errorf("kafkatest: %s=%q: want a release such as 4.4.0", EnvKafkaVersion, v)
	}
	if !r.atLeast(3, 7) {
		return release{}, fmt.Errorf("kafkatest: %s=%q: the test bed supports Kafka 3.7 and later (%s)", EnvKafkaVersion, v, strings.Join(SupportedVersions, ", "))
	}
	return r, nil
}

// atLeast reports whether r is major.minor or later.
func (r release) atLeast(major, minor int) bool {
	return r.major > major || r.major == major && r.minor >= minor
}

// dynamicQuorum reports whether the release has KIP-853 dynamic KRaft
// quorums (3.9+): controller.quorum.bootstrap.servers, `format
// --standalone`, and the controller listener in advertised.listeners.
// Older releases need the static controller.quorum.voters and reject a
// controller listener among a broker's advertised.listeners.
func (r release) dynamicQuorum() bool { return r.atLeast(3, 9) }

// AtLeast reports whether the cluster runs Kafka major.minor or later
// (false when its version is unknown). Tests use it to expect, on an older
// release, what that release does instead: gregor.ErrUnsupportedFeature for
// a feature it lacks, or its own answer where brokers differ.
func (c *Cluster) AtLeast(major, minor int) bool {
	r, err := parseRelease(c.Version())
	return err == nil && r.atLeast(major, minor)
}
