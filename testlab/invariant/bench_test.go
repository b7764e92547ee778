package invariant

import (
	"fmt"
	"testing"
)

// soakLike is a history shaped like the soak's: n idempotent records over
// 6 partitions, all in the final log and read by a group member in polls of
// 50, and half of them copied by sequential transactions of 10 records each
// that read them (read_committed, Continues) and write an output topic.
func soakLike(n int) *History {
	h := &History{}
	in, out := "in", "out"
	next := map[int32]int64{}
	logs := map[TP]*Log{}
	for p := range int32(6) {
		logs[TP{in, p}], logs[TP{out, p}] = &Log{TP: TP{in, p}}, &Log{TP: TP{out, p}}
	}
	var poll []LogRecord
	for i := range n {
		p := int32(i % 6)
		tp := TP{in, p}
		id := fmt.Sprintf("p-%d", i)
		off := next[p]
		next[p]++
		h.Sends = append(h.Sends, acked("p", tp, id, off))
		l := logs[tp]
		l.Records, l.End = append(l.Records, LogRecord{off, id}), off+1
		if p == 0 {
			poll = append(poll, LogRecord{off, id})
			if len(poll) == 50 {
				h.Reads = append(h.Reads, Read{Reader: "g", TP: tp, From: poll[0].Offset, To: off + 1, Records: poll, Continues: len(h.Reads) > 0})
				poll = nil
			}
		}
	}
	for t := 0; t*10 < n/2; t++ {
		txn := fmt.Sprintf("tx%d", t)
		h.Transactions = append(h.Transactions, Transaction{ID: txn, Outcome: Committed})
		var rs []LogRecord
		for k := range 10 {
			i := t*10 + k
			id := fmt.Sprintf("p-%d", i)
			rs = append(rs, LogRecord{int64(i), id})
			otp := TP{out, int32(k % 6)}
			ol := logs[otp]
			off := ol.End
			h.Sends = append(h.Sends, ackedTxn("c", otp, "cp-"+id, off, txn))
			ol.Records, ol.End = append(ol.Records, LogRecord{off, "cp-" + id}), off+1
		}
		h.Reads = append(h.Reads, Read{Reader: "c", Committed: true, Txn: txn, TP: TP{"copy-src", 0}, From: rs[0].Offset, To: rs[9].Offset + 1,
			Records: rs, Continues: t > 0})
	}
	for _, l := range logs {
		h.Logs = append(h.Logs, *l)
	}
	return h
}

// BenchmarkCheck shows the checker's cost grows near-linearly with the
// history: compare ns/op across the sizes.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		h := soakLike(n)
		if vs := Check(h); len(vs) != 0 {
			b.Fatalf("soak-like history of %d: %d violations, first %v", n, len(vs), vs[0])
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Check(h)
			}
		})
	}
}
