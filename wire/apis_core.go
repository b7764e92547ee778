package wire

// coreAPIs lists the core APIs (connection setup, metadata, produce, fetch,
// offsets, coordinators) with the versions gregor implements: from the Kafka
// 4.x baseline (KIP-896) to the newest stable version Apache Kafka 4.4 speaks.
// Sorted by key. Source: clients/src/main/resources/common/message/*.json on
// the 4.4 branch.
var coreAPIs = []APIInfo{
	{Key: KeyProduce, Name: "Produce", MinVersion: 3, MaxVersion: 13, Flexible: 9},
	{Key: KeyFetch, Name: "Fetch", MinVersion: 4, MaxVersion: 18, Flexible: 12},
	{Key: KeyListOffsets, Name: "ListOffsets", MinVersion: 1, MaxVersion: 11, Flexible: 6},
	{Key: KeyMetadata, Name: "Metadata", MinVersion: 0, MaxVersion: 13, Flexible: 9},
	{Key: KeyFindCoordinator, Name: "FindCoordinator", MinVersion: 0, MaxVersion: 6, Flexible: 3},
	{Key: KeySaslHandshake, Name: "SaslHandshake", MinVersion: 0, MaxVersion: 1, Flexible: -1},
	{Key: KeyApiVersions, Name: "ApiVersions", MinVersion: 0, MaxVersion: 5, Flexible: 3},
	{Key: KeyInitProducerId, Name: "InitProducerId", MinVersion: 0, MaxVersion: 5, Flexible: 2},
	{Key: KeyOffsetForLeaderEpoch, Name: "OffsetForLeaderEpoch", MinVersion: 2, MaxVersion: 4, Flexible: 4},
	{Key: KeySaslAuthenticate, Name: "SaslAuthenticate", MinVersion: 0, MaxVersion: 2, Flexible: 2},
}
