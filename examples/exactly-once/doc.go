// Command exactly-once copies a topic to another exactly once: a group
// consumer reads the input (read_committed), and a transactional producer
// writes each batch, upper-cased, to the output together with the batch's
// input offsets (SendOffsets with the member's group metadata, KIP-447),
// so the output and the group's committed position move together or not
// at all. To have something to copy it first sends -n records to the input.
// It stops when it has copied every record the input held when it started.
//
//	go run ./examples/exactly-once -b 127.0.0.1:9092 [-in orders] [-out orders-upper] [-group copier] [-n 100]
package main
