package kafkatest

import "testing"

// TestRackConfig: Options.Racks gives each broker of the 1+3 shape its own
// broker.rack and the rack-aware replica selector, the controller neither;
// BrokerConfig still overrides them; without Racks there are none.
func TestRackConfig(t *testing.T) {
	render := func(racks bool, extra map[string]string) (*Cluster, map[int32]map[string]string) {
		c := &Cluster{shape: ThreeBrokers, controllerPort: 9000, brokerConfig: extra, racks: racks}
		c.nodes = []*node{{id: 100, roles: "controller", dir: t.TempDir()}}
		for id := int32(1); id <= 3; id++ {
			c.nodes = append(c.nodes, &node{id: id, roles: "broker", dir: t.TempDir(), ports: map[Listener]int{}})
		}
		out := map[int32]map[string]string{}
		for _, n := range c.nodes {
			got := map[string]string{}
			for _, kv := range c.nodeConfig(n) {
				got[kv[0]] = kv[1]
			}
			out[n.id] = got
		}
		return c, out
	}
	c, got := render(true, map[string]string{})
	for id, want := range map[int32]string{1: "rack-a", 2: "rack-b", 3: "rack-c"} {
		if got[id]["broker.rack"] != want || c.BrokerRack(id) != want {
			t.Errorf("broker %d: broker.rack %q, BrokerRack %q, want %q", id, got[id]["broker.rack"], c.BrokerRack(id), want)
		}
		if got[id]["replica.selector.class"] != RackAwareReplicaSelector {
			t.Errorf("broker %d: replica.selector.class %q", id, got[id]["replica.selector.class"])
		}
	}
	if _, ok := got[100]["broker.rack"]; ok || c.BrokerRack(100) != "" {
		t.Errorf("the controller has a rack: %q", got[100]["broker.rack"])
	}
	_, got = render(true, map[string]string{"broker.rack": "other"})
	if got[2]["broker.rack"] != "other" { // the last setting wins in a properties file
		t.Errorf("BrokerConfig did not override broker.rack: %q", got[2]["broker.rack"])
	}
	c, got = render(false, map[string]string{})
	if _, ok := got[1]["broker.rack"]; ok || c.BrokerRack(1) != "" {
		t.Errorf("a rack without Options.Racks: %q", got[1]["broker.rack"])
	}
	if _, ok := got[1]["replica.selector.class"]; ok {
		t.Error("a replica selector without Options.Racks")
	}
}
