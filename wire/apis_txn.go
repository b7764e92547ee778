package wire

// txnAPIs lists the transaction APIs a transactional producer sends (KIP-98,
// KIP-447, KIP-890) with the versions gregor implements: every version
// Apache Kafka 4.4 serves. InitProducerId, which the idempotent producer
// also sends, is in coreAPIs. AddPartitionsToTxn v4+ is the broker-to-
// coordinator batched form (KIP-890 verification); clients send v3 or lower.
var txnAPIs = []APIInfo{
	{Key: KeyAddPartitionsToTxn, Name: "AddPartitionsToTxn", MinVersion: 0, MaxVersion: 5, Flexible: 3},
	{Key: KeyAddOffsetsToTxn, Name: "AddOffsetsToTxn", MinVersion: 0, MaxVersion: 4, Flexible: 3},
	{Key: KeyEndTxn, Name: "EndTxn", MinVersion: 0, MaxVersion: 5, Flexible: 3},
	{Key: KeyTxnOffsetCommit, Name: "TxnOffsetCommit", MinVersion: 0, MaxVersion: 6, Flexible: 3},
}
