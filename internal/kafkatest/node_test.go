package kafkatest

import (
	"os"
	"path/filepath"
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
