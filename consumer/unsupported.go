package consumer

import (
	"github.com/gregor-kafka/gregor"
)

// kip848Feature names KIP-848 consumer groups in a
// gregor.UnsupportedFeatureError.
const kip848Feature = "KIP-848 consumer groups (ConsumerGroupHeartbeat)"

// kip848Unsupported is the error ending a ProtocolConsumer member whose
// coordinator lacks ConsumerGroupHeartbeat: not advertised in ApiVersions
// (err is client.ErrUnsupportedVersion, nothing was sent) or answered
// UNSUPPORTED_VERSION (broker says so). It is never retried.
func kip848Unsupported(broker string, err error) error {
	return &gregor.UnsupportedFeatureError{
		Feature: kip848Feature,
		Broker:  broker,
		Remedy:  `use GroupConfig.Protocol "classic" (or "" to follow the cluster's group.version)`,
		Err:     err,
	}
}
