package consumer

import "github.com/gregor-kafka/gregor"

// Record is one delivered record. Key, Value and header values are nil for
// null and non-nil (possibly empty) otherwise. The byte slices share memory
// with the fetched response; the application owns them after Receive.
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	Timestamp int64 // Unix milliseconds (CreateTime or LogAppendTime)
	Key       []byte
	Value     []byte
	Headers   []gregor.Header
}
