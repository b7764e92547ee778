package protocol

import (
	"errors"

	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
	"github.com/gregor-kafka/gregor/wire"
)

// extraKinds maps the public packages' own sentinel errors (producer,
// consumer, admin) to §6 kinds; checked after wire.KafkaError, any
// ProtocolKind() classifier and the client sentinels.
var extraKinds = []struct {
	err  error
	kind string
}{
	{client.ErrInvalidConfig, KindConfiguration},
	{producer.ErrConfig, KindConfiguration},
	{producer.ErrRecordTooLarge, KindInvalidRecord},
	{producer.ErrInvalidRecord, KindInvalidRecord},
	{producer.ErrSequenceReset, KindState},
	{consumer.ErrNotAssigned, KindState},
}

// brokerCodeOf gives the Kafka error code behind a public package's error
// that carries none in its chain: a consumer's *TopicIDChangedError is
// UNKNOWN_TOPIC_OR_PARTITION (3) for a deleted topic (§6: a missing topic
// is broker:broker_3) and UNKNOWN_TOPIC_ID (100) for a recreated one (the
// positions' topic ID is gone).
func brokerCodeOf(err error) (int16, bool) {
	var tc *consumer.TopicIDChangedError
	if !errors.As(err, &tc) {
		return 0, false
	}
	if tc.NewID.IsZero() {
		return wire.ErrUnknownTopicOrPartition.Code, true
	}
	return wire.ErrUnknownTopicID.Code, true
}
