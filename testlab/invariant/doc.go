// Package invariant checks a recorded client history against the promises
// Kafka's replication, idempotence, transaction and group protocols make to a
// client, and reports every violation it finds (not just the first).
//
// A History is plain data: acknowledged and failed sends with their offsets,
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
// Instants are time.Time; an assignment owns its partition over the half-open
// interval [Start, End), a zero End meaning still owned. Events of one kind
// for the same key are judged in slice order when their instants tie.
// Missing data is not a violation: a partition with no final log is not
// checked for loss or duplicates.
package invariant
