// Package assign holds the client-side partition assignors of the classic
// consumer group protocol (KIP-429 for cooperative rebalancing, KIP-881 for
// rack awareness): "range", "roundrobin", "sticky" and
// "cooperative-sticky", under the names and with the assignments of Apache
// Kafka's Java assignors (org.apache.kafka.clients.consumer.*Assignor), so
// that a gregor member can lead a group of Java members and a Java member
// can lead a group of gregor members.
//
// The group leader calls Assign with every member's subscription (decoded
// from the JoinGroup response's ConsumerProtocolSubscription) and the
// partitions of every subscribed topic (from metadata). Assign is a pure
// function: it does no I/O and keeps no state between calls.
package assign
