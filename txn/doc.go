// Package txn will hold gregor's transactional producer (KIP-98, with the
// transaction protocol v2 of KIP-890): InitProducerId with a transactional.id,
// AddPartitionsToTxn, EndTxn and TxnOffsetCommit, with fencing reported as typed
// errors. It is not implemented yet; the adapter does not advertise the
// "transactions" capability until it is.
package txn
