// Package assign holds the client-side partition assignors of the classic
// consumer group protocol, compatible with Java's.
//
// # Quick start
//
// A group consumer names its assignors in GroupConfig.Assignors
// (consumer.ProtocolClassic only); the leader's Assign is a pure function
// the package Example calls directly:
//
//	cfg := consumer.GroupConfig{GroupID: "billing", Topics: []string{"orders"},
//		Protocol: consumer.ProtocolClassic, Assignors: []assign.Assignor{assign.CooperativeSticky(), assign.Range()}}
//	a, ok := assign.ByName("range") // the name a JoinGroup protocol carries
//	out, err := a.Assign(members, topics) // members []assign.Member, topics map[string][]assign.Partition
//
// # Assignors
//
// The assignors (KIP-429 for cooperative rebalancing, KIP-881 for
// rack awareness) are "range", "roundrobin", "sticky" and
// "cooperative-sticky", under the names and with the assignments of Apache
// Kafka's Java assignors (org.apache.kafka.clients.consumer.*Assignor), so
// that a gregor member can lead a group of Java members and a Java member
// can lead a group of gregor members.
//
// The group leader calls Assign with every member's subscription (decoded
// from the JoinGroup response's ConsumerProtocolSubscription) and the
// partitions of every subscribed topic (from metadata). Assign is a pure
// function: it does no I/O and keeps no state between calls.
//
// Constructors: Range, RoundRobin, Sticky, CooperativeSticky, and ByName
// for a JoinGroup protocol name. Members of a "sticky" group send
// StickyUserData in their subscriptions, members of a "cooperative-sticky"
// group CooperativeStickyUserData (for leaders reading subscriptions older
// than version 2); DecodeStickyUserData reads the former.
//
// Member order: give the members in the JoinGroup response's order. Java's
// leader keeps the subscriptions in a java.util.HashMap filled in that
// order, and the sticky assignors' choices follow that map's iteration
// order, which these assignors reproduce; for two member ids in one hash
// bucket it is the response order. Range and roundrobin order members by
// group.instance.id (static members first), then member id.
//
// Partitions are expected as metadata lists them: ids 0..n-1 per topic.
// Topics with no partitions are not assigned. An owned partition that does
// not exist is ignored (Java would hand it out again).
//
// Errors: Assign fails for an empty or repeated member id, and the sticky
// assignors fail where Java's throw for the same input (subscriptions
// contradicting each other so that the quotas cannot be met). With no
// members every assignor returns an empty map (Java's sticky and
// roundrobin assignors throw).
package assign
