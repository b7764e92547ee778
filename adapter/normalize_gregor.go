package adapter

// extraKinds maps the public packages' own sentinel errors (producer,
// consumer, admin) to §6 kinds; checked after wire.KafkaError, any
// ProtocolKind() classifier and the client sentinels.
var extraKinds = []struct {
	err  error
	kind string
}{}
