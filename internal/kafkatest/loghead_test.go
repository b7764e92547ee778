package kafkatest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestLogHeadIsBounded: the version is found at a log's start, and a log
// longer than versionScanBytes is read only that far (a 2.2 GB server log
// read whole by every version check ran -race test binaries out of memory).
func TestLogHeadIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "server.log")
	data := append([]byte("[2026-12-02] INFO Kafka version: 4.4.0 (org.apache.kafka.common.utils.AppInfoParser)\n"),
		bytes.Repeat([]byte("x"), versionScanBytes)...)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	head := logHead(path)
	if len(head) != versionScanBytes {
		t.Fatalf("read %d bytes of a %d-byte log, want %d", len(head), len(data), versionScanBytes)
	}
	if m := versionRE.FindSubmatch(head); m == nil || string(m[1]) != "4.4.0" {
		t.Fatalf("version not found in the log's head: %q", m)
	}
	if logHead(filepath.Join(t.TempDir(), "missing.log")) != nil {
		t.Fatal("a missing log gave bytes")
	}
}
