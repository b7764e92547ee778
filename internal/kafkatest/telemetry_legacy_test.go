package kafkatest

import (
	"bytes"
	"testing"
)

// TestLegacyReporterSource: every edit onto the pre-4.4 plugin pair
// applies, and no code of the 4.4 exporter API is left
// (TestTelemetryReporterCompilesAndConfigures compiles it on 3.7.2).
func TestLegacyReporterSource(t *testing.T) {
	src, err := legacyReporterSource()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(src, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("//")) {
			continue // the header comment names both APIs
		}
		for _, gone := range []string{"ClientTelemetryExporter", "ClientTelemetryContext", "pushIntervalMs"} {
			if bytes.Contains(line, []byte(gone)) {
				t.Errorf("the legacy reporter still uses %s: %s", gone, line)
			}
		}
	}
}
