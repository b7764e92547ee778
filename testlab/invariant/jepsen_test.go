package invariant

import (
	"slices"
	"testing"
)

func ackedTxn(producer string, tp TP, id string, off int64, txn string) Send {
	s := acked(producer, tp, id, off)
	s.Txn = txn
	return s
}

func txn(id string, o Outcome, begin, end int) Transaction {
	return Transaction{ID: id, Outcome: o, Begin: at(begin), EndInvoked: at(end), End: at(end)}
}

// abc is three acknowledged records of tp0 at offsets 0-2.
var abc = []Send{acked("p", tp0, "a", 0), acked("p", tp0, "b", 1), acked("p", tp0, "c", 2)}

// jepsenCases are, for each anomaly of Jepsen's Kafka workload, a history
// that has it and one that exercises the same data without it (want nil).
var jepsenCases = []struct {
	name string
	h    History
	want []Rule
}{
	{"lost write: a reader read past b and nobody delivered it", History{
		Sends: abc,
		Reads: []Read{{Reader: "r1", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "r2", TP: tp0, From: 1, To: 3, Records: []LogRecord{{2, "c"}}}},
	}, []Rule{RuleLostWrite}},
	{"no lost write: b delivered", History{
		Sends: abc,
		Reads: []Read{{Reader: "r1", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "r2", TP: tp0, From: 1, To: 3, Records: []LogRecord{{1, "b"}, {2, "c"}}}},
	}, nil},
	{"unseen: read to the end without b", History{
		Sends: abc[:2],
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 1, Records: recs("a"), ToEnd: true}},
	}, []Rule{RuleUnseen}},
	{"not unseen: the read to the end delivered both", History{
		Sends: abc[:2],
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 2, Records: recs("a", "b"), ToEnd: true}},
	}, nil},
	{"inconsistent offsets: two readers, two records at offset 0", History{
		Reads: []Read{{Reader: "r1", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "r2", TP: tp0, From: 0, To: 1, Records: recs("x")}},
	}, []Rule{RuleInconsistentOffsets}},
	{"consistent offsets: both readers saw a", History{
		Reads: []Read{{Reader: "r1", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "r2", TP: tp0, From: 0, To: 1, Records: recs("a")}},
	}, nil},
	{"aborted read: a record reported not sent was delivered", History{
		Sends: []Send{{Producer: "p", TP: tp0, ID: "a", Offset: -1, NotSent: true}},
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 1, Records: recs("a")}},
	}, []Rule{RuleAbortedRead}},
	{"aborted read by one reader is no poll skip for another", History{
		Sends:        []Send{acked("p", tp0, "a", 0), ackedTxn("q", tp0, "x", 1, "T"), acked("p", tp0, "b", 2)},
		Transactions: []Transaction{{ID: "T", Outcome: Aborted}},
		Reads: []Read{{Reader: "bad", Committed: true, TP: tp0, From: 0, To: 3, Records: []LogRecord{{0, "a"}, {1, "x"}, {2, "b"}}},
			{Reader: "good", Committed: true, TP: tp0, From: 0, To: 3, Records: []LogRecord{{0, "a"}, {2, "b"}}}},
	}, []Rule{RuleTxnAtomic, RuleAbortedRead}},
	{"no aborted read: only the acknowledged record was delivered", History{
		Sends: []Send{{Producer: "p", TP: tp0, ID: "a", Offset: -1, NotSent: true}, acked("p", tp0, "b", 0)},
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 1, Records: recs("b")}},
	}, nil},
	{"poll skip: the continuing read skipped b", History{
		Sends: abc,
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "r", TP: tp0, From: 2, To: 3, Records: []LogRecord{{2, "c"}}, Continues: true}},
	}, []Rule{RulePollSkip}},
	{"no poll skip: continued with b, then a seek past nothing", History{
		Sends: abc,
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "r", TP: tp0, From: 1, To: 3, Records: []LogRecord{{1, "b"}, {2, "c"}}, Continues: true},
			{Reader: "r", TP: tp0, From: 2, To: 3, Records: []LogRecord{{2, "c"}}}},
	}, nil},
	{"no poll rule for a share group's read: members split the partition", History{
		Sends: abc,
		Reads: []Read{{Reader: "s1", TP: tp0, From: 0, To: 3, Records: []LogRecord{{2, "c"}, {0, "a"}}, Unordered: true},
			{Reader: "s2", TP: tp0, From: 1, To: 2, Records: []LogRecord{{1, "b"}}, Unordered: true}},
	}, nil},
	{"nonmonotonic poll: the continuing read went back to b", History{
		Sends: abc[:2],
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 2, Records: recs("a", "b")},
			{Reader: "r", TP: tp0, From: 1, To: 2, Records: []LogRecord{{1, "b"}}, Continues: true}},
	}, []Rule{RuleNonmonotonicPoll}},
	{"monotonic: going back to b was a seek", History{
		Sends: abc[:2],
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 2, Records: recs("a", "b")},
			{Reader: "r", TP: tp0, From: 1, To: 2, Records: []LogRecord{{1, "b"}}}},
	}, nil},
	{"internal: a transaction's second read skipped b", History{
		Sends:        abc,
		Transactions: []Transaction{{ID: "T", Outcome: Committed}},
		Reads: []Read{{Reader: "r", Committed: true, Txn: "T", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "r", Committed: true, Txn: "T", TP: tp0, From: 2, To: 3, Records: []LogRecord{{2, "c"}}}},
	}, []Rule{RuleInternal}},
	{"internal: a transaction read its own write", History{
		Sends:        []Send{ackedTxn("p", tp1, "x", 0, "T")},
		Transactions: []Transaction{{ID: "T", Outcome: Committed}},
		Reads:        []Read{{Reader: "r", Committed: true, Txn: "T", TP: tp1, From: 0, To: 1, Records: recs("x")}},
	}, []Rule{RuleInternal}},
	{"not internal: the transaction's reads continue each other", History{
		Sends:        abc,
		Transactions: []Transaction{{ID: "T", Outcome: Committed}},
		Reads: []Read{{Reader: "r", Committed: true, Txn: "T", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "r", Committed: true, Txn: "T", TP: tp0, From: 1, To: 3, Records: []LogRecord{{1, "b"}, {2, "c"}}}},
	}, nil},
	{"G0: T1 ended before T2 began, yet T2 precedes T1 in t[1]", History{
		Sends: []Send{ackedTxn("p1", tp0, "x1", 0, "T1"), ackedTxn("p2", tp0, "x2", 1, "T2"),
			ackedTxn("p2", tp1, "y2", 0, "T2"), ackedTxn("p1", tp1, "y1", 1, "T1")},
		Transactions: []Transaction{txn("T1", Committed, 0, 1), txn("T2", Committed, 2, 3)},
	}, []Rule{RuleG0}},
	{"no G0: T1 precedes T2 in both partitions", History{
		Sends: []Send{ackedTxn("p1", tp0, "x1", 0, "T1"), ackedTxn("p2", tp0, "x2", 1, "T2"),
			ackedTxn("p1", tp1, "y1", 0, "T1"), ackedTxn("p2", tp1, "y2", 1, "T2")},
		Transactions: []Transaction{txn("T1", Committed, 0, 1), txn("T2", Committed, 2, 3)},
	}, nil},
	{"no G0: concurrent transactions of two producers may interleave", History{
		Sends: []Send{ackedTxn("p1", tp0, "x1", 0, "T1"), ackedTxn("p2", tp0, "x2", 1, "T2"),
			ackedTxn("p2", tp1, "y2", 0, "T2"), ackedTxn("p1", tp1, "y1", 1, "T1")},
		Transactions: []Transaction{txn("T1", Committed, 0, 3), txn("T2", Committed, 1, 4)},
	}, nil},
	{"G1a: a committed transaction read an aborted one's write", History{
		Sends:        []Send{ackedTxn("p1", tp0, "x", 0, "T1")},
		Transactions: []Transaction{{ID: "T1", Outcome: Aborted}, {ID: "T2", Outcome: Committed}},
		Reads:        []Read{{Reader: "r", Committed: true, Txn: "T2", TP: tp0, From: 0, To: 1, Records: recs("x")}},
	}, []Rule{RuleTxnAtomic, RuleAbortedRead, RuleG1a}},
	{"no G1a: the committed transaction read a committed write", History{
		Sends:        []Send{ackedTxn("p1", tp0, "x", 0, "T1")},
		Transactions: []Transaction{{ID: "T1", Outcome: Committed}, {ID: "T2", Outcome: Committed}},
		Reads:        []Read{{Reader: "r", Committed: true, Txn: "T2", TP: tp0, From: 0, To: 1, Records: recs("x")}},
	}, nil},
	{"G1b: read_committed delivered T1's write before T1's EndTxn", History{
		Sends:        []Send{ackedTxn("p1", tp0, "x", 0, "T1")},
		Transactions: []Transaction{txn("T1", Committed, 0, 5)},
		Reads:        []Read{{Reader: "r", Committed: true, TP: tp0, From: 0, To: 1, Records: recs("x"), Invoked: at(2), Completed: at(3)}},
	}, []Rule{RuleG1b}},
	{"no G1b: delivered after the EndTxn", History{
		Sends:        []Send{ackedTxn("p1", tp0, "x", 0, "T1")},
		Transactions: []Transaction{txn("T1", Committed, 0, 5)},
		Reads:        []Read{{Reader: "r", Committed: true, TP: tp0, From: 0, To: 1, Records: recs("x"), Invoked: at(2), Completed: at(6)}},
	}, nil},
	{"G1c: T1 and T2 each read the other's write", History{
		Sends:        []Send{ackedTxn("p1", tp0, "x", 0, "T1"), ackedTxn("p2", tp1, "y", 0, "T2")},
		Transactions: []Transaction{{ID: "T1", Outcome: Committed}, {ID: "T2", Outcome: Committed}},
		Reads: []Read{{Reader: "r1", Committed: true, Txn: "T1", TP: tp1, From: 0, To: 1, Records: recs("y")},
			{Reader: "r2", Committed: true, Txn: "T2", TP: tp0, From: 0, To: 1, Records: recs("x")}},
	}, []Rule{RuleG1c}},
	{"no G1c: information flows one way", History{
		Sends:        []Send{ackedTxn("p1", tp0, "x", 0, "T1"), ackedTxn("p2", tp1, "y", 0, "T2")},
		Transactions: []Transaction{{ID: "T1", Outcome: Committed}, {ID: "T2", Outcome: Committed}},
		Reads:        []Read{{Reader: "r2", Committed: true, Txn: "T2", TP: tp0, From: 0, To: 1, Records: recs("x")}},
	}, nil},
	{"duplicate seen by readers at two offsets", History{
		Sends: []Send{acked("p", tp0, "a", 0)},
		Reads: []Read{{Reader: "r", TP: tp0, From: 0, To: 1, Records: recs("a")},
			{Reader: "s", TP: tp0, From: 3, To: 4, Records: []LogRecord{{3, "a"}}}},
	}, []Rule{RuleDuplicate}},
}

// TestG1cCyclePrinted checks a G1c violation names the cycle, edge by edge.
func TestG1cCyclePrinted(t *testing.T) {
	for _, c := range jepsenCases {
		if !slices.Equal(c.want, []Rule{RuleG1c}) {
			continue
		}
		vs := Check(&c.h)
		const want = "cycle of 2 transactions: T2 -wr t[1]@0-> T1 -wr t[0]@0-> T2"
		if len(vs) != 1 || vs[0].Detail != want {
			t.Fatalf("violations %v, want one with detail %q", vs, want)
		}
		return
	}
	t.Fatal("no G1c case")
}

// TestLongCycle finds a ww cycle through 200 transactions of one producer
// whose last wrote before its first, by search, not by pairs.
func TestLongCycle(t *testing.T) {
	var h History
	const n = 200
	for i := range n {
		id := string(rune('A'+i%26)) + string(rune('a'+i/26))
		h.Transactions = append(h.Transactions, Transaction{ID: id, Outcome: Committed})
		// Transaction i writes offset i of t[0]; the last one also writes
		// t[1] before the first.
		h.Sends = append(h.Sends, ackedTxn("p", tp0, "v"+id, int64(i), id))
	}
	h.Sends = append(h.Sends, ackedTxn("p", tp1, "w-last", 0, h.Transactions[n-1].ID), ackedTxn("p", tp1, "w-first", 1, h.Transactions[0].ID))
	if txns, ww, wr := Dependencies(&h); txns != n || ww != n || wr != 0 {
		t.Errorf("graph of %d transactions, %d ww and %d wr edges; want %d, %d, 0", txns, ww, wr, n, n)
	}
	vs := Check(&h)
	if len(vs) != 1 || vs[0].Rule != RuleG0 {
		t.Fatalf("violations %v, want one G0", vs)
	}
	if want := "cycle of 200 transactions"; len(vs[0].Detail) < len(want) || vs[0].Detail[:len(want)] != want {
		t.Errorf("detail %q, want it to start with %q", vs[0].Detail, want)
	}
}

// TestEveryAnomalyPasses checks each anomaly has a passing history in the
// table (named "no …", "not …", "consistent …" or "monotonic …").
func TestEveryAnomalyPasses(t *testing.T) {
	passing := 0
	for _, c := range jepsenCases {
		if c.want == nil {
			passing++
		}
	}
	if anomalies := len(Rules) - 9; passing < anomalies {
		t.Errorf("%d passing histories for %d anomalies", passing, anomalies)
	}
}
