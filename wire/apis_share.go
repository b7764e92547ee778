package wire

// shareAPIs are the share-group APIs of KIP-932 (queues for Kafka), with the
// versions Apache Kafka 4.4 serves: ShareFetch and ShareAcknowledge v2 carry
// the acquire mode of KIP-1206 and the Renew acknowledgement of KIP-1222;
// DescribeShareGroupOffsets v1 adds Lag (KIP-1226). Version 0 of the first
// four was an early-access format removed in Kafka 4.1 and is not spoken.
var shareAPIs = []APIInfo{
	{Key: KeyShareGroupHeartbeat, Name: "ShareGroupHeartbeat", MinVersion: 1, MaxVersion: 1, Flexible: 0},
	{Key: KeyShareGroupDescribe, Name: "ShareGroupDescribe", MinVersion: 1, MaxVersion: 1, Flexible: 0},
	{Key: KeyShareFetch, Name: "ShareFetch", MinVersion: 1, MaxVersion: 2, Flexible: 0},
	{Key: KeyShareAcknowledge, Name: "ShareAcknowledge", MinVersion: 1, MaxVersion: 2, Flexible: 0},
	{Key: KeyDescribeShareGroupOffsets, Name: "DescribeShareGroupOffsets", MinVersion: 0, MaxVersion: 1, Flexible: 0},
	{Key: KeyAlterShareGroupOffsets, Name: "AlterShareGroupOffsets", MinVersion: 0, MaxVersion: 0, Flexible: 0},
	{Key: KeyDeleteShareGroupOffsets, Name: "DeleteShareGroupOffsets", MinVersion: 0, MaxVersion: 0, Flexible: 0},
}
