// Package examples holds small programs that use gregor the way an
// application would; each directory is one program with a test that runs it
// against the real broker of the test bed, so `make test` keeps them
// working:
//
//	send-receive   create a topic, send records and wait for each, read them back
//	backpressure   TrySend as fast as the producer admits, waiting when it is full
//	exactly-once   copy a topic with a group consumer and a transactional producer (KIP-447)
//	quickstart     the README's quick start: produce, read with a group, copy in a transaction
//
// Run one against make kafka-up's cluster:
//
//	go run ./examples/send-receive -b $(jq -r .bootstrap.PLAINTEXT[0] .kafka/state.json)
package examples
