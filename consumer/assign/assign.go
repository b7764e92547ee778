package assign

// RebalanceProtocol is how an assignor's members give up partitions
// (KIP-429): all at once before every rebalance (Eager), or only those
// that move, in a second rebalance (Cooperative).
type RebalanceProtocol int8

const (
	// Eager revokes every owned partition before joining (range,
	// roundrobin, sticky).
	Eager RebalanceProtocol = iota
	// Cooperative keeps owned partitions across a rebalance and revokes
	// only those assigned elsewhere (cooperative-sticky).
	Cooperative
)

// String returns "eager" or "cooperative".
func (p RebalanceProtocol) String() string {
	if p == Cooperative {
		return "cooperative"
	}
	return "eager"
}

// TopicPartitions names some partitions of one topic.
type TopicPartitions struct {
	Topic      string
	Partitions []int32
}

// Member is one group member's subscription as the leader sees it: the
// JoinGroup member id and instance id, and the fields of its
// ConsumerProtocolSubscription (v0: topics and user data; v1: owned
// partitions; v2: generation; v3: rack).
type Member struct {
	MemberID   string
	InstanceID string // group.instance.id; "" for a dynamic member
	Topics     []string
	UserData   []byte
	Owned      []TopicPartitions // partitions the member owns now (v1+)
	Generation int32             // generation of Owned (v2+); -1 if unknown
	Rack       string            // client.rack (v3+); "" if unset
}

// Partition is one partition of a subscribed topic, as metadata lists it.
type Partition struct {
	ID    int32
	Racks []string // the racks of its replicas, for rack-aware assignment (KIP-881); nil if unknown
}

// Assignor computes a classic group's assignment on the leader.
type Assignor interface {
	// Name is the protocol name sent in JoinGroup ("range",
	// "roundrobin", "sticky", "cooperative-sticky"); members agree on
	// the first name that all of them list.
	Name() string
	// Protocol is the rebalance protocol the assignor needs.
	Protocol() RebalanceProtocol
	// Assign returns each member's partitions, keyed by member id, given
	// every member's subscription and the partitions of every topic any
	// member subscribed to (a topic missing from topics has no known
	// partitions and is not assigned). Every member id of members has an
	// entry (possibly empty). Members and partitions may be given in any
	// order; the result depends only on their content, as the Java
	// assignors' does.
	Assign(members []Member, topics map[string][]Partition) (map[string][]TopicPartitions, error)
}
