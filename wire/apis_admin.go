package wire

// adminAPIs lists the admin and group-administration APIs of the wire
// package with the versions gregor implements: from the Kafka 4.x baseline
// (KIP-896) to the newest stable version of Apache Kafka 4.4.
var adminAPIs = []APIInfo{
	{Key: KeyOffsetCommit, Name: "OffsetCommit", MinVersion: 2, MaxVersion: 10, Flexible: 8},
	{Key: KeyOffsetFetch, Name: "OffsetFetch", MinVersion: 1, MaxVersion: 10, Flexible: 6},
	{Key: KeyDescribeGroups, Name: "DescribeGroups", MinVersion: 0, MaxVersion: 6, Flexible: 5},
	{Key: KeyListGroups, Name: "ListGroups", MinVersion: 0, MaxVersion: 5, Flexible: 3},
	{Key: KeyCreateTopics, Name: "CreateTopics", MinVersion: 2, MaxVersion: 7, Flexible: 5},
	{Key: KeyDeleteTopics, Name: "DeleteTopics", MinVersion: 1, MaxVersion: 6, Flexible: 4},
	{Key: KeyDeleteRecords, Name: "DeleteRecords", MinVersion: 0, MaxVersion: 2, Flexible: 2},
	{Key: KeyDescribeConfigs, Name: "DescribeConfigs", MinVersion: 1, MaxVersion: 4, Flexible: 4},
	{Key: KeyCreatePartitions, Name: "CreatePartitions", MinVersion: 0, MaxVersion: 3, Flexible: 2},
	{Key: KeyDeleteGroups, Name: "DeleteGroups", MinVersion: 0, MaxVersion: 3, Flexible: 2},
	{Key: KeyIncrementalAlterConfigs, Name: "IncrementalAlterConfigs", MinVersion: 0, MaxVersion: 1, Flexible: 1},
	{Key: KeyOffsetDelete, Name: "OffsetDelete", MinVersion: 0, MaxVersion: 0, Flexible: -1},
	{Key: KeyDescribeCluster, Name: "DescribeCluster", MinVersion: 0, MaxVersion: 2, Flexible: 0},
	{Key: KeyConsumerGroupDescribe, Name: "ConsumerGroupDescribe", MinVersion: 0, MaxVersion: 1, Flexible: 0},
}
