package consumer

import (
	"context"
	"errors"

	"github.com/gregor-kafka/gregor/wire"
)

var errNotYet = errors.New("consumer: wire codec not available yet")

// transport sends the consumer's two requests; wireTransport speaks Kafka
// through the client, tests script a fake broker.
type transport interface {
	// fetch sends req as a FetchRequest to req.node and maps the response.
	fetch(ctx context.Context, req *fetchReq) (*fetchResp, error)
	// listOffsets sends one ListOffsetsRequest to node.
	listOffsets(ctx context.Context, node int32, isolation IsolationLevel, reqs []listReq) (map[TopicPartition]listResp, error)
}

// wireTransport is the transport over a client.
type wireTransport struct {
	cl cluster
}

func (t wireTransport) fetch(ctx context.Context, req *fetchReq) (*fetchResp, error) {
	return nil, errNotYet
}

func (t wireTransport) listOffsets(ctx context.Context, node int32, isolation IsolationLevel, reqs []listReq) (map[TopicPartition]listResp, error) {
	return nil, errNotYet
}

// decodeBatches decodes the record batches of a partition's records field
// in order, calling fn for each complete batch (a truncated trailing batch
// is ignored: the next Fetch starts at the position after the last complete
// one), and returns the bytes to charge against MaxBufferedBytes: the
// records field plus, for compressed batches, the decompressed records
// (keys, values, headers). Corrupt input fails with an error wrapping
// wire.ErrCorruptMessage; batches before it were passed to fn.
func decodeBatches(raw []byte, dec *wire.Decompressor, fn func(*wire.RecordBatch)) (int64, error) {
	br := wire.NewBatchReader(raw, wire.DecodeOptions{Decompressor: dec})
	size := int64(len(raw))
	var b wire.RecordBatch
	for br.Next(&b) {
		if b.Compression() != wire.CompressionNone {
			for i := range b.Records {
				r := &b.Records[i]
				size += int64(len(r.Key) + len(r.Value) + recordOverhead)
				for _, h := range r.Headers {
					size += int64(len(h.Key) + len(h.Value))
				}
			}
		}
		fn(&b)
	}
	return size, br.Err()
}

// recordOverhead approximates the fixed decoded size of one record beyond
// its key, value and headers (what the varints and attributes take).
const recordOverhead = 16
