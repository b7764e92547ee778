package share

import (
	"github.com/gregor-kafka/gregor"
)

// unsupported is the error ending a share consumer whose coordinator lacks
// share groups: ShareGroupHeartbeat not advertised in ApiVersions (err is
// client.ErrUnsupportedVersion, nothing was sent) or answered
// UNSUPPORTED_VERSION. It is never retried.
func unsupported(broker string, err error) error {
	return &gregor.UnsupportedFeatureError{
		Feature: "KIP-932 share groups (ShareGroupHeartbeat)",
		Broker:  broker,
		Remedy:  "use a consumer group (consumer.NewGroup), or a cluster with share groups enabled (Kafka 4.1+, share.version 1)",
		Err:     err,
	}
}
