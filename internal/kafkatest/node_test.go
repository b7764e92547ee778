package kafkatest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBindFailureDetected(t *testing.T) {
	dir := t.TempDir()
	n := &node{id: 1, dir: dir}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if n.bindFailed() {
		t.Fatal("bind failure reported without logs")
	}
	line := "[2026-11-29] ERROR [KafkaRaftServer nodeId=1] Fatal error during broker startup. Prepare to shutdown (kafka.server.BrokerServer)\n" +
		"org.apache.kafka.common.KafkaException: Socket server failed to bind to 127.0.0.1:40245: Address already in use.\n"
	if err := os.WriteFile(n.logFile(), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if !n.bindFailed() {
		t.Fatal("bind failure not detected")
	}
}

func TestPickPortsDistinct(t *testing.T) {
	ports, err := pickPorts(20)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if p <= 0 || seen[p] {
			t.Fatalf("bad or repeated port %d in %v", p, ports)
		}
		seen[p] = true
	}
}

// TestProxiedListenerConfig: a broker binds PROXIED on its backend port and
// advertises the proxy's front; the state file carries both.
func TestProxiedListenerConfig(t *testing.T) {
	c := &Cluster{shape: SingleNode, controllerPort: 9000, brokerConfig: map[string]string{}}
	n := &node{id: 1, roles: "broker,controller", dir: t.TempDir(), proxyPort: 9100,
		ports: map[Listener]int{Plaintext: 9001, SASLPlaintext: 9002, SSL: 9003, SASLSSL: 9004, Proxied: 9005}}
	c.nodes = []*node{n}
	got := map[string]string{}
	for _, kv := range c.nodeConfig(n) {
		got[kv[0]] = kv[1]
	}
	if want := "PROXIED://127.0.0.1:9005"; !strings.Contains(got["listeners"], want) {
		t.Errorf("listeners %q lack %q", got["listeners"], want)
	}
	if want := "PROXIED://127.0.0.1:9100"; !strings.Contains(got["advertised.listeners"], want) || strings.Contains(got["advertised.listeners"], ":9005") {
		t.Errorf("advertised.listeners %q: want %q and not the backend", got["advertised.listeners"], want)
	}
	if !strings.Contains(got["listener.security.protocol.map"], "PROXIED:PLAINTEXT") {
		t.Errorf("security map %q", got["listener.security.protocol.map"])
	}
	if got["inter.broker.listener.name"] != "PLAINTEXT" {
		t.Errorf("inter-broker listener %q", got["inter.broker.listener.name"])
	}
	if c.ProxyFront(1) != "127.0.0.1:9100" || c.ProxyBackend(1) != "127.0.0.1:9005" || c.BrokerAddr(1, Proxied) != "127.0.0.1:9100" {
		t.Errorf("front %s backend %s addr %s", c.ProxyFront(1), c.ProxyBackend(1), c.BrokerAddr(1, Proxied))
	}
	if s := c.State(); s.Nodes[0].ProxyPort != 9100 || s.Nodes[0].Ports[Proxied] != 9005 {
		t.Errorf("state node %+v", s.Nodes[0])
	}
	if c.ProxyFront(2) != "" {
		t.Error("front of a missing broker")
	}
}
