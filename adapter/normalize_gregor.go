package adapter

import (
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/consumer"
	"github.com/gregor-kafka/gregor/producer"
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
