package consumer

import (
	"time"

	"github.com/gregor-kafka/gregor"
)

// Record is one delivered record. Key, Value and header values are nil for
// null and non-nil (possibly empty) otherwise. The byte slices share memory
// with the fetched response; the application owns them after Receive.
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	// Timestamp is the record's CreateTime, or the batch's LogAppendTime
	// when its topic uses it (millisecond precision, local time zone).
	Timestamp time.Time
	Key       []byte
	Value     []byte
	Headers   []gregor.Header
}
