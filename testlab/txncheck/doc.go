// Package txncheck holds integration tests of gregor's transactional
// producer (package txn) on the real test bed, each claim checked by an
// independent client: franz-go reading read_committed and read_uncommitted,
// and kadm fetching the committed group offsets.
package txncheck
