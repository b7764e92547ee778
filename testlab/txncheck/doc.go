// Package txncheck holds integration tests of gregor's transactional
// producer (package txn) on the real test bed, each claim checked by an
// independent client: franz-go reading read_committed and read_uncommitted,
// and kadm fetching the committed group offsets. TestExactlyOnceUnderKills
// starts its own 1+3 cluster and SIGKILLs brokers under a
// consume-transform-produce job (transactions v1 and v2, transaction.version
// 2 and 1).
package txncheck
