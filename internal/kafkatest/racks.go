package kafkatest

// RackAwareReplicaSelector is the broker's replica selector that answers a
// consumer's Fetch with the replica in the consumer's rack (client.rack =
// broker.rack) as its preferred read replica (KIP-392); Options.Racks sets
// it as replica.selector.class.
const RackAwareReplicaSelector = "org.apache.kafka.common.replica.RackAwareReplicaSelector"

// Rack returns the broker.rack Options.Racks gives broker id: "rack-a" for
// broker 1, "rack-b" for 2, "rack-c" for 3, and so on ("" for ids below 1).
func Rack(id int32) string {
	if id < 1 {
		return ""
	}
	return "rack-" + string(rune('a'+(id-1)%26))
}

// BrokerRack returns broker id's broker.rack: Rack(id) on a cluster started
// with Options.Racks, "" otherwise (or for no such broker).
func (c *Cluster) BrokerRack(id int32) string {
	n := c.node(id)
	if !c.racks || n == nil || !n.isBroker() {
		return ""
	}
	return Rack(n.id)
}

// rackConfig adds broker n's rack settings (Options.Racks) to p, before
// Options.BrokerConfig, which may override them.
func (c *Cluster) rackConfig(n *node, p *props) {
	if !c.racks || !n.isBroker() {
		return
	}
	p.set("broker.rack", Rack(n.id))
	p.set("replica.selector.class", RackAwareReplicaSelector)
}
