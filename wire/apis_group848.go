package wire

// groupNextAPIs lists the APIs of the consumer group protocol of KIP-848
// that members speak (the heartbeat; ConsumerGroupDescribe is an admin API
// in apis_admin.go) with the versions gregor implements: every version
// Apache Kafka 4.4 serves.
var groupNextAPIs = []APIInfo{
	{Key: KeyConsumerGroupHeartbeat, Name: "ConsumerGroupHeartbeat", MinVersion: 0, MaxVersion: 1, Flexible: 0},
}
