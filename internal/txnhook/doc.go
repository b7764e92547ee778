// Package txnhook connects a producer.Producer to package txn's transaction
// manager without widening the producer's public API: package txn fills
// the transaction's side of a Hooks and passes it in producer.Config; the
// producer fills its own side in producer.New. Only gregor's packages can
// import it.
package txnhook
