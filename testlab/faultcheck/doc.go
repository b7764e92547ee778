// Package faultcheck drives gregor's client and producer through the fault
// proxy (testlab/faultproxy) against real Kafka and judges every outcome the
// client reports against an independent franz-go reader and the proxy's own
// evidence (issue 23).
//
// Judge is the certainty verdict: an acknowledged record must sit at its
// offset; a record reported NotSent must be absent from the log and the proxy
// must not have forwarded a byte of a Produce request since it was handed to
// the producer; PossiblySent is always honest and the log decides the truth.
// The tests (certainty_test.go) put one fault class each between the client
// and the broker: a Produce request cut after it was written, connections cut
// and refused before it was written, a wrong correlation ID, a replayed
// response and a bounded stall; each checks the certainty the client must
// report, that later requests succeed, the invariant checker's verdict on the
// history, and that the verdict fails a client that lies (a mutated claim).
//
// kills_test.go runs idempotent producers, a consumer group of gregor
// members (group_load_test.go: members replaced now and then, manual
// commits), a transactional copier (copier_load_test.go: read_committed
// consume, transactional produce with SendOffsets) and Jepsen's
// transactional queue (queue_load_test.go: group members each polling,
// sending to the same topic and committing offsets in one transaction) on a
// 1+3 cluster while
// brokers are SIGKILLed, SIGSTOPped and restarted and proxy faults (on
// Produce and on the group's and the copier's APIs) come and go. The
// invariant checker judges the history; the group's and the copier's own
// checks (every record below the group's commit delivered, none delivered
// below an accepted commit outside a fenced member, commits only by owners;
// exactly once in the copier's committed output) are in their files. A
// quorum observer (quorum_observer_test.go) samples the KRaft quorum and
// the partitions' leader epochs, high watermarks and log starts meanwhile,
// judged by invariant.CheckQuorum beside the client invariants. The soak
// also runs Apache's Java clients in the mix (java_*_test.go:
// VerifiableProducer on the soak topic, a VerifiableConsumer member in the
// gregor group that reports a fenced loss as partitions_lost
// (java/LostReportingConsumer.java), TransactionalMessageCopier; their
// stderr logs kept in testlab/evidence), their JSON events parsed into
// the same history and group verdict, pauses the KRaft controller, and
// writes a fault timeline with each fault's recovery time and the
// acknowledged records per second (cmd/soakreport: the chart and tables of
// RESULTS.md). The short version runs in `make test`, `make soak` the long
// one (build tag soak, SOAK_DURATION).
package faultcheck
