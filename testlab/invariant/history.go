package invariant

import (
	"fmt"
	"time"
)

// TP names one partition of a topic.
type TP struct {
	Topic     string
	Partition int32
}

// String returns "topic[partition]".
func (tp TP) String() string { return fmt.Sprintf("%s[%d]", tp.Topic, tp.Partition) }

// History is everything recorded about one run: what clients sent, read,
// owned and committed, and the log as an independent reader saw it at the end.
// Sends of one producer are listed in the order the producer was given them.
type History struct {
	Sends        []Send
	Logs         []Log
	Reads        []Read
	Assignments  []Assignment
	Stable       []Stable
	Commits      []Commit
	Transactions []Transaction
	Epochs       []EpochEvent
}

// Send is one record handed to a producer and what the producer reported.
type Send struct {
	// Producer identifies the producer instance (any string unique per run).
	Producer string
	// Idempotent is true for an idempotent (enable.idempotence) producer.
	Idempotent bool
	TP
	// ID identifies the record's content within the run ("" when unknown);
	// sends that share an ID may each be written once.
	ID string
	// Acked is true when the broker acknowledged the record.
	Acked bool
	// Offset is the acknowledged offset, or -1 when unknown (not acknowledged,
	// or acknowledged as a duplicate without its offset).
	Offset int64
	// Txn is the Transaction.ID the record was sent in, "" for none.
	Txn string
	// NotSent is true when the send failed and the record was certainly
	// not written (client.NotSent). A send neither Acked nor NotSent has
	// an unknown outcome.
	NotSent bool
	// Invoked and Completed are when the record was handed to the producer
	// and when its outcome was reported (zero when not recorded).
	Invoked, Completed time.Time
}

// LogRecord is one data record at Offset (control records are not listed).
type LogRecord struct {
	Offset int64
	ID     string
}

// Log is a partition's log as an independent read_uncommitted reader saw it
// after the run: every data record from Start (the log start offset) to End
// (the log end offset, exclusive), in offset order.
type Log struct {
	TP
	Start, End int64
	Records    []LogRecord
}

// Read is one contiguous stretch a client consumed from a partition: it
// covered positions [From, To) and delivered Records.
type Read struct {
	// Reader identifies the consuming client.
	Reader string
	// Committed is true for isolation.level=read_committed.
	Committed bool
	TP
	From, To int64
	Records  []LogRecord
	// Txn is the Transaction.ID the read was made in (a consume-transform-
	// produce transaction's polls), "" for none.
	Txn string
	// Continues is true when the read went on from where the same Reader's
	// previous Read of the partition ended, with no seek, assignment
	// change or restart between them; only then is its first record
	// judged against the previous read's last.
	Continues bool
	// Unordered is true when the records need not follow each other in
	// the partition: several consumers' deliveries merged, or a share
	// group's (KIP-932), whose members split a partition. The poll rules
	// and lost-write do not judge it.
	Unordered bool
	// ToEnd is true when the reader read on until it reached the
	// partition's end (the high watermark, or the last stable offset for
	// read_committed) after every send of the history completed.
	ToEnd bool
	// Invoked and Completed are when the poll was issued and when it
	// returned (zero when not recorded).
	Invoked, Completed time.Time
}

// Assignment is one member's ownership of a partition over [Start, End); a
// zero End means the member still owned it when the history ended.
type Assignment struct {
	Group, Member string
	TP
	Start, End time.Time
}

// Stable is an instant at which a group was stable (every member joined and
// synced) with the partitions its members subscribe to.
type Stable struct {
	Group      string
	At         time.Time
	Partitions []TP
}

// Commit is one committed offset of a group's partition. Reset marks an
// explicit reset (an admin alter or a seek the application asked for), after
// which the offset may be lower than before.
type Commit struct {
	Group string
	TP
	Offset int64
	At     time.Time
	Reset  bool
	Member string // who committed ("" when unknown); named in a violation
}

// Outcome is how a transaction ended.
type Outcome uint8

// Transaction outcomes.
const (
	// Open: neither committed nor aborted when the history ended.
	Open Outcome = iota
	// Committed: EndTxn(commit) succeeded.
	Committed
	// Aborted: EndTxn(abort) succeeded, or the producer was fenced.
	Aborted
)

// String names the outcome.
func (o Outcome) String() string {
	return [...]string{"open", "committed", "aborted"}[o]
}

// Transaction is one transaction of a transactional producer; its records
// are the Sends whose Txn is ID.
type Transaction struct {
	ID      string
	Outcome Outcome
	// Begin is when the transaction's first send or poll was invoked,
	// EndInvoked when EndTxn was invoked and End when it completed (zero
	// when not recorded).
	Begin, EndInvoked, End time.Time
}

// EpochEvent is a leader epoch a client observed for a partition (from
// metadata, a leader hint or an OffsetForLeaderEpoch answer) or, with Data,
// the epoch of the leader whose fetched data the client accepted.
type EpochEvent struct {
	Client string
	TP
	Epoch int32
	Data  bool
	At    time.Time
}
