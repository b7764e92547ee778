package kafkatest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTelemetryReporterCompilesAndConfigures compiles the reporter against
// the cached jars (a second call hits the cache), and checks that only a
// cluster with it puts it on the classpath and in metric.reporters.
func TestTelemetryReporterCompilesAndConfigures(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	java, err := findJava(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := ensureJars(ctx, Version(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := compileTelemetryReporter(ctx, java, lib)
	if err != nil {
		t.Fatal(err)
	}
	class := filepath.Join(dir, TelemetryReporterClass+".class")
	st, err := os.Stat(class)
	if err != nil {
		t.Fatal(err)
	}
	again, err := compileTelemetryReporter(ctx, java, lib)
	if err != nil || again != dir {
		t.Fatalf("second compile: %q, %v (want the cached %q)", again, err, dir)
	}
	if st2, _ := os.Stat(class); !st2.ModTime().Equal(st.ModTime()) {
		t.Fatal("the cached classes were rebuilt")
	}
	for _, with := range []bool{false, true} {
		c := &Cluster{shape: SingleNode, controllerPort: 9000, brokerConfig: map[string]string{}, dir: t.TempDir()}
		if with {
			c.telemetryClasses = dir
		}
		n := &node{id: 1, roles: "broker,controller", dir: t.TempDir(), ports: map[Listener]int{Plaintext: 9001}}
		c.nodes = []*node{n}
		got := map[string]string{}
		for _, kv := range c.nodeConfig(n) {
			got[kv[0]] = kv[1]
		}
		cp := c.nodeClasspath(jarSet{classpath: "a.jar"})
		if with != (got["metric.reporters"] == TelemetryReporterClass) || with != strings.HasSuffix(cp, dir) || with != (c.TelemetryLog() != "") {
			t.Fatalf("reporter %v: metric.reporters %q, classpath %q, log %q", with, got["metric.reporters"], cp, c.TelemetryLog())
		}
		if with && got["gregor.telemetry.file"] != c.TelemetryLog() {
			t.Fatalf("gregor.telemetry.file %q", got["gregor.telemetry.file"])
		}
	}
}
