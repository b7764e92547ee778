package invariant

import (
	"cmp"
	"slices"
)

// tpOff is one offset of one partition.
type tpOff struct {
	tp  TP
	off int64
}

// tpID is one record ID within one partition.
type tpID struct {
	tp TP
	id string
}

// index is what the Jepsen rules look records up by, built once per Check
// in one pass over the history.
type index struct {
	txns map[string]*Transaction
	// ackedAt is the acknowledged send at each offset.
	ackedAt map[tpOff]*Send
	// sendsOf counts the sends of an ID, and how many of them certainly
	// failed (NotSent) or belong to an aborted transaction.
	sendsOf map[tpID]*idSends
	// orders are the version orders: every offset known to hold a data
	// record a read_uncommitted (all) or read_committed reader must see.
	all, committed map[TP][]int64
	// txnProducer is the producer of each transaction's first send.
	txnProducer map[string]string
}

// idSends is what the sends of one ID within a partition came to.
type idSends struct {
	total, notSent, aborted int
	// txn is the one transaction that sent the ID; "" when none or several.
	txn   string
	multi bool
}

func newIndex(h *History) *index {
	ix := &index{txns: map[string]*Transaction{}, ackedAt: map[tpOff]*Send{}, sendsOf: map[tpID]*idSends{},
		txnProducer: map[string]string{}}
	for i := range h.Transactions {
		ix.txns[h.Transactions[i].ID] = &h.Transactions[i]
	}
	all, committed := map[TP]map[int64]struct{}{}, map[TP]map[int64]struct{}{}
	add := func(m map[TP]map[int64]struct{}, tp TP, off int64) {
		if off < 0 {
			return
		}
		if m[tp] == nil {
			m[tp] = map[int64]struct{}{}
		}
		m[tp][off] = struct{}{}
	}
	for i := range h.Sends {
		s := &h.Sends[i]
		if s.Txn != "" && ix.txnProducer[s.Txn] == "" {
			ix.txnProducer[s.Txn] = s.Producer
		}
		if s.ID != "" {
			ix.noteSend(s)
		}
		if !s.Acked || s.Offset < 0 {
			continue
		}
		ix.ackedAt[tpOff{s.TP, s.Offset}] = s
		add(all, s.TP, s.Offset)
		if ix.mustSee(s) {
			add(committed, s.TP, s.Offset)
		}
	}
	for _, l := range h.Logs {
		for _, r := range l.Records {
			add(all, l.TP, r.Offset)
		}
	}
	for _, r := range h.Reads {
		for _, rec := range r.Records {
			add(all, r.TP, rec.Offset)
			// A record no read_committed reader should have seen (an
			// aborted read) does not make the others skip it.
			if r.Committed && !ix.failed(r.TP, rec, true) {
				add(committed, r.TP, rec.Offset)
			}
		}
	}
	ix.all, ix.committed = sortedSets(all), sortedSets(committed)
	return ix
}

func (ix *index) noteSend(s *Send) {
	k := tpID{s.TP, s.ID}
	is := ix.sendsOf[k]
	if is == nil {
		is = &idSends{txn: s.Txn}
		ix.sendsOf[k] = is
	}
	is.total++
	switch {
	case s.NotSent:
		is.notSent++
	case s.Txn != "" && ix.outcome(s.Txn) == Aborted:
		is.aborted++
	}
	if is.txn != s.Txn {
		is.multi = true
	}
}

func sortedSets(m map[TP]map[int64]struct{}) map[TP][]int64 {
	out := make(map[TP][]int64, len(m))
	for tp, set := range m {
		offs := make([]int64, 0, len(set))
		for o := range set {
			offs = append(offs, o)
		}
		slices.Sort(offs)
		out[tp] = offs
	}
	return out
}

// outcome is the outcome of transaction id (Open when unknown).
func (ix *index) outcome(id string) Outcome {
	if t := ix.txns[id]; t != nil {
		return t.Outcome
	}
	return Open
}

// mustSee reports whether every reader must see s's record: acknowledged
// outside a transaction or in a committed one.
func (ix *index) mustSee(s *Send) bool { return s.Txn == "" || ix.outcome(s.Txn) == Committed }

// order is the version order a reader of the given isolation judges by.
func (ix *index) order(tp TP, committed bool) []int64 {
	if committed {
		return ix.committed[tp]
	}
	return ix.all[tp]
}

// rank is off's position in order, and whether order holds it.
func rank(order []int64, off int64) (int, bool) { return slices.BinarySearch(order, off) }

// writer is the transaction that wrote the record rec of tp: the
// acknowledged send at its offset, else the only transaction that sent its
// ID ("" when unknown or not transactional).
func (ix *index) writer(tp TP, rec LogRecord) string {
	if s := ix.ackedAt[tpOff{tp, rec.Offset}]; s != nil && (rec.ID == "" || s.ID == "" || s.ID == rec.ID) {
		return s.Txn
	}
	if is := ix.sendsOf[tpID{tp, rec.ID}]; rec.ID != "" && is != nil && !is.multi {
		return is.txn
	}
	return ""
}

// failed reports whether rec of tp was certainly never written for a reader
// of the given isolation: every send of its ID failed NotSent or (for
// read_committed) was aborted, or the send acknowledged at its offset was
// in an aborted transaction.
func (ix *index) failed(tp TP, rec LogRecord, committed bool) bool {
	if s := ix.ackedAt[tpOff{tp, rec.Offset}]; committed && s != nil && s.Txn != "" && ix.outcome(s.Txn) == Aborted &&
		(rec.ID == "" || s.ID == rec.ID) {
		return true
	}
	is := ix.sendsOf[tpID{tp, rec.ID}]
	if rec.ID == "" || is == nil {
		return false
	}
	if committed {
		return is.notSent+is.aborted == is.total
	}
	return is.notSent == is.total
}

// intervals are a partition's merged [From, To) ranges some reader covered.
type intervals [][2]int64

func mergeIntervals(iv intervals) intervals {
	slices.SortFunc(iv, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	var out intervals
	for _, r := range iv {
		if r[1] <= r[0] {
			continue
		}
		if n := len(out); n > 0 && r[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

func (iv intervals) contains(off int64) bool {
	i, _ := slices.BinarySearchFunc(iv, off, func(r [2]int64, o int64) int {
		switch {
		case r[1] <= o:
			return -1
		case r[0] > o:
			return 1
		}
		return 0
	})
	return i < len(iv) && iv[i][0] <= off && off < iv[i][1]
}
