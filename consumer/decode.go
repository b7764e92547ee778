package consumer

import (
	"math"

	"github.com/gregor-kafka/gregor"
	"github.com/gregor-kafka/gregor/wire"
)

// DecodeFetchPartition decodes the records of one FetchResponse partition
// exactly as a Consumer delivers them: records below fetchOffset, control
// batches and (under ReadCommitted, using p.AbortedTransactions) records of
// aborted transactions are dropped. It returns the records, the next
// position (past the last complete batch header, so empty and compacted
// batches advance it), and an error wrapping wire.ErrCorruptMessage for
// corrupt input (the records before it are returned). Keys, values and
// header values alias p.Records or the decompressed buffers. dec may be
// nil (a Decompressor with the default bound is then made per call). It
// is the building block for tools and benchmarks that issue their own
// Fetch requests.
func DecodeFetchPartition(tp gregor.TopicPartition, isolation IsolationLevel, fetchOffset int64, p *wire.FetchResponsePartition, dec *wire.Decompressor) ([]Record, int64, error) {
	if dec == nil {
		dec = wire.NewDecompressor(0)
	}
	fp := fetchRespPart{TopicPartition: tp, Records: p.Records}
	for _, a := range p.AbortedTransactions {
		fp.Aborted = append(fp.Aborted, abortedTxn{a.ProducerID, a.FirstOffset})
	}
	c := Consumer{dec: dec, cfg: Config{Isolation: isolation}}
	ch, err := c.decodePartition(&fp, fetchOffset, math.MaxInt64, 0, true, nil, nil)
	return ch.records[:len(ch.records):len(ch.records)], ch.next, err
}
