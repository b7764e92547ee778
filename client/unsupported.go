package client

import (
	"fmt"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// apiRemedies is the way out named in the gregor.UnsupportedFeatureError of
// an API the broker lacks, for the APIs that have one.
var apiRemedies = map[wire.APIKey]string{
	wire.KeyDescribeTopicPartitions:   "use admin DescribeTopics (Metadata), or Kafka 3.8+ (KIP-966)",
	wire.KeyConsumerGroupHeartbeat:    `use GroupConfig.Protocol "classic", or Kafka 4.0+ (KIP-848)`,
	wire.KeyShareGroupHeartbeat:       "use a consumer group (consumer.NewGroup), or Kafka 4.1+ with share.version 1 (KIP-932)",
	wire.KeyShareGroupDescribe:        "share groups need Kafka 4.1+ with share.version 1 (KIP-932)",
	wire.KeyShareFetch:                "use a consumer group (consumer.NewGroup), or Kafka 4.1+ with share.version 1 (KIP-932)",
	wire.KeyShareAcknowledge:          "use a consumer group (consumer.NewGroup), or Kafka 4.1+ with share.version 1 (KIP-932)",
	wire.KeyDescribeShareGroupOffsets: "share groups need Kafka 4.1+ with share.version 1 (KIP-932)",
	wire.KeyAlterShareGroupOffsets:    "share groups need Kafka 4.1+ with share.version 1 (KIP-932)",
	wire.KeyDeleteShareGroupOffsets:   "share groups need Kafka 4.1+ with share.version 1 (KIP-932)",
	wire.KeyDeleteRecords:             "the cluster cannot truncate a partition (retention.ms or a topic deletion are the way)",
}

// unsupportedAPI wraps err, the broker's lack of an API gregor speaks, in
// the gregor.ErrUnsupportedFeature error callers of every package match,
// with the way out when there is one.
func unsupportedAPI(info wire.APIInfo, err error) error {
	return &gregor.UnsupportedFeatureError{Feature: "API " + info.Name, Remedy: apiRemedies[info.Key], Err: err}
}

// apiVersionsHangupFallback is the ApiVersions version dial retries with
// after a broker closed or reset the connection instead of answering a
// newer one: Azure Event Hubs resets the connection on ApiVersions v4
// (Kafka 3.9's; twmb/franz-go#1022) where Kafka answers UNSUPPORTED_VERSION
// with the versions it speaks. v3 is what every client sent before 3.9.
const apiVersionsHangupFallback = 3

// apiVersionsHangup is negotiate's failure when the broker hung up on the
// first ApiVersions at a version above apiVersionsHangupFallback: dial
// then lowers the client's ApiVersions version and connects once more.
type apiVersionsHangup struct {
	version int16
	err     error
}

func (h *apiVersionsHangup) Error() string { return h.err.Error() }
func (h *apiVersionsHangup) Unwrap() error { return h.err }

// floorRemedies is the way out of a field the broker's version lacks, for
// the fields that have one besides a newer broker.
var floorRemedies = map[string]string{
	"TypesFilter":            "filter on ListedGroup.Type instead (Kafka 4.0+ reports it)",
	"TransactionalIDPattern": "filter the listed transactional IDs yourself, or Kafka 4.1+ (KIP-1152)",
	"DurationFilter":         "use DescribeTransactions' start times, or Kafka 3.8+ (KIP-994)",
}

// checkFloor fails req when version v lacks a field it sets (a
// wire.VersionFloorer): the broker at addr would ignore that field and
// answer another question. The error is a gregor.ErrUnsupportedFeature
// wrapping ErrUnsupportedVersion.
func checkFloor(req wire.Request, info wire.APIInfo, v int16, addr string) error {
	vf, ok := req.(wire.VersionFloorer)
	if !ok {
		return nil
	}
	need, field := vf.FloorVersion()
	if need <= v {
		return nil
	}
	return &gregor.UnsupportedFeatureError{
		Feature: fmt.Sprintf("%s %s (v%d+)", info.Name, field, need),
		Broker:  fmt.Sprintf("broker at %s speaks %s up to v%d", addr, info.Name, v),
		Remedy:  floorRemedies[field],
		Err:     fmt.Errorf("%w: %s v%d lacks %s", ErrUnsupportedVersion, info.Name, v, field),
	}
}
