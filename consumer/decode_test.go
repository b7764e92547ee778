package consumer

import (
	"errors"
	"slices"
	"testing"

	"github.com/gregor-kafka/gregor/wire"
)

func TestDecodeFetchPartition(t *testing.T) {
	raw, aborted := txnLog(t)
	p := &wire.FetchResponsePartition{Records: raw}
	for _, a := range aborted {
		p.AbortedTransactions = append(p.AbortedTransactions, wire.FetchAbortedTransaction{ProducerID: a.ProducerID, FirstOffset: a.FirstOffset})
	}
	recs, next, err := DecodeFetchPartition(testTP, ReadCommitted, 1, p, nil)
	if err != nil || next != 17 || !slices.Equal(offsetsOf(recs), []int64{1, 6, 7, 9, 12, 13, 15}) {
		t.Fatalf("got %v next %d err %v", offsetsOf(recs), next, err)
	}
	good := encodeAll(t, dataBatch(0, 2))
	bad := encodeAll(t, dataBatch(2, 2))
	bad[len(bad)-1] ^= 1
	recs, next, err = DecodeFetchPartition(testTP, ReadUncommitted, 0, &wire.FetchResponsePartition{Records: append(good, bad...)}, nil)
	if !errors.Is(err, wire.ErrCorruptMessage) || next != 2 || len(recs) != 2 {
		t.Fatalf("corrupt tail: %v next %d err %v", offsetsOf(recs), next, err)
	}
}
