// Package invariant checks a recorded client history against the promises
// Kafka's replication, idempotence, transaction and group protocols make to a
// client, and reports every violation it finds (not just the first).
//
// A History is plain data: acknowledged, failed and unknown sends with their
// offsets and invocation and completion instants,
// the log as an independent reader saw it at the end, consumed ranges,
// group assignments with start and end instants, group stability instants,
// offset commits, transactions and the leader epochs a client observed.
// Check returns one Violation per broken promise, each naming its Rule:
//
//   - RuleAckedLost: an acknowledged record is never lost (its offset, unless
//     below the partition's final log start, holds the same record).
//   - RuleDuplicate: an idempotent send is never duplicated (a record ID occurs
//     in a partition's log at most as often as it was sent).
//   - RuleOrder: one producer's acknowledged records of a partition have
//     increasing offsets in the order they were sent.
//   - RuleTxnAtomic: a transaction's records are all visible or none: a
//     read_committed reader sees no record of an aborted or unfinished
//     transaction, and every record of a committed one within the range it read.
//   - RuleOwnership: no partition is owned by two members of a group at once.
//   - RuleStableCoverage: once a group is stable every partition it
//     subscribes to is owned by a member.
//   - RuleCommitRegress: a group's committed offset for a partition never
//     decreases (an explicit reset starts over).
//   - RuleEpochRegress: the leader epochs one client observes for a partition
//     never decrease.
//   - RuleFencedLeader: a client never accepts data from a leader whose epoch is
//     below one it has already observed for that partition (KIP-320).
//
// # The anomalies of Jepsen's Kafka workload
//
// The rules below are the anomalies Jepsen's Kafka queue workload checks
// (the namespace documentation of jepsen.tests.kafka in
// github.com/jepsen-io/jepsen, and the analyses that used it:
// https://jepsen.io/analyses/redpanda-21.10.1 and
// https://jepsen.io/analyses/bufstream-0.1.0), restated over this
// package's History. A partition's version order is the offset order of
// the records known to be in it; a read_committed reader is judged by the
// records it must see (acknowledged outside a transaction or in a committed
// one, or delivered to some read_committed reader), a read_uncommitted one
// by every record known (the final log, every read, every acknowledgement).
//
//   - RuleLostWrite (lost-write): an acknowledged record every reader must
//     see sits at an offset inside a range some Read covered, and no reader
//     delivered it: the readers went past it.
//   - RuleUnseen (unseen): on a partition a reader read to its end (Read.ToEnd)
//     after the sends completed, an acknowledged record no reader ever
//     delivered and no read range covers.
//   - RuleDuplicate (duplicate) also counts the offsets readers and
//     acknowledgements saw a record at, not only the final log's.
//   - RuleInconsistentOffsets (inconsistent-offsets): the final log, a
//     reader or an acknowledgement disagree on which record is at an offset.
//   - RuleAbortedRead (aborted-read): a reader delivered a record whose write
//     certainly failed: every send of it was NotSent or, for read_committed,
//     in an aborted transaction (or the acknowledged send at its offset was).
//   - RulePollSkip (poll-skip): a reader's consecutive records of a partition,
//     within a Read or from a Read to the next one that Continues it, skip a
//     record of the version order (a Read marked Unordered, as a share
//     group's, is not judged by the poll rules or lost-write).
//   - RuleNonmonotonicPoll (nonmonotonic-poll): such consecutive records go
//     back (a record at or before the previous one) without a seek.
//   - RuleNonmonotonicSend (nonmonotonic-send) is RuleOrder.
//   - RuleInternal (internal): a committed transaction disagrees with itself:
//     its reads of a partition do not continue each other, or it read its
//     own write before committing (Jepsen's internal read contiguity and
//     precommitted read).
//
// The last four are Adya's phenomena over the dependency graph of committed
// transactions, built from read_committed reads (as Elle does for Jepsen):
// a wr edge T1→T2 when T2 read a record T1 wrote, a ww edge T1→T2 when T1's
// write immediately precedes T2's in a partition's version order. Kafka
// does not order the writes of concurrent transactions of different
// producers (the write isolation the Redpanda analysis and Redpanda's reply
// discuss), so a ww edge is drawn only between transactions that cannot
// have overlapped: the same producer's, or one ended (Transaction.End)
// before the other began. Cycles are found by search (Tarjan's strongly
// connected components, then a shortest cycle inside each), and printed
// edge by edge in the Violation's Detail.
//
//   - RuleG0 (write cycle): a cycle of ww edges.
//   - RuleG1a (aborted read): a committed transaction read a record of an
//     aborted one.
//   - RuleG1b (intermediate read): a read_committed read completed before
//     the EndTxn of the transaction whose record it delivered was invoked,
//     so it saw the transaction's state before its end (in a log every state
//     before the commit marker is intermediate).
//   - RuleG1c (circular information flow): a cycle of ww and wr edges with
//     at least one wr edge.
//
// Every rule costs time near-linear in the history (maps and sorts), except
// the cycle search, linear in the graph's size per component.
//
// # The quorum observer
//
// CheckQuorum judges Samples an observer took of the cluster while the
// clients ran (DescribeQuorum's leader and epoch; each partition's leader,
// leader epoch, high watermark and log start) against the KRaft safety
// properties a client can see the effects of: one leader per epoch, epochs
// never decreasing, high watermarks never decreasing, and every record
// acknowledged before a leader change present after it. Its rules are
// QuorumRules, documented on CheckQuorum.
//
// Instants are time.Time; an assignment owns its partition over the half-open
// interval [Start, End), a zero End meaning still owned. Events of one kind
// for the same key are judged in slice order when their instants tie.
// Missing data is not a violation: a partition with no final log is not
// checked for loss or duplicates.
package invariant
