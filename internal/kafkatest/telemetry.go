package kafkatest

import (
	"context"
	"crypto/sha256"
	_ "embed" // the reporter's source
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// TelemetryReporterClass is the broker-side client telemetry receiver of
// Options.TelemetryReporter (source: java/GregorTelemetryReporter.java).
const TelemetryReporterClass = "GregorTelemetryReporter"

//go:embed java/GregorTelemetryReporter.java
var telemetryReporterSource []byte

// TelemetryPush is one JSON line the reporter writes per PushTelemetry it
// receives (see the Java source for the format).
type TelemetryPush struct {
	TimeMs           int64    `json:"time_ms"`
	ClientInstanceID string   `json:"client_instance_id"`
	Terminating      bool     `json:"terminating"`
	PushIntervalMs   int      `json:"push_interval_ms"`
	ContentType      string   `json:"content_type"`
	Bytes            int      `json:"bytes"`
	Metrics          []string `json:"metrics"`
	Error            string   `json:"error,omitempty"`
}

// TelemetryLog is the file the brokers' telemetry reporter appends
// TelemetryPush lines to ("" without Options.TelemetryReporter).
func (c *Cluster) TelemetryLog() string {
	if c.telemetryClasses == "" {
		return ""
	}
	return filepath.Join(c.dir, "telemetry.jsonl")
}

// compileTelemetryReporter compiles the reporter with javac against the
// release's jars in lib, once per source and release: the classes are
// cached beside lib under the source's content hash.
func compileTelemetryReporter(ctx context.Context, java javaRuntime, lib string) (string, error) {
	sum := sha256.Sum256(telemetryReporterSource)
	dir := filepath.Join(filepath.Dir(lib), "telemetry-reporter-"+hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, TelemetryReporterClass+".class")); err == nil {
		return dir, nil
	}
	javac := filepath.Join(filepath.Dir(java.Path), "javac")
	if _, err := os.Stat(javac); err != nil {
		if javac, err = exec.LookPath("javac"); err != nil {
			return "", classErrorf(ErrNoJDK, "kafkatest: the telemetry reporter needs javac (a JDK, not a JRE): %v", err)
		}
	}
	tmp, err := os.MkdirTemp(filepath.Dir(lib), "telemetry-reporter-tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, TelemetryReporterClass+".java")
	if err := os.WriteFile(src, telemetryReporterSource, 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, javac, "-nowarn", "-cp", filepath.Join(lib, "*"), "-d", filepath.Join(tmp, "classes"), src).CombinedOutput()
	if err != nil {
		return "", classErrorf(ErrStartup, "kafkatest: javac %s: %v: %s", TelemetryReporterClass, err, tail(out, 2000))
	}
	if err := os.Rename(filepath.Join(tmp, "classes"), dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(filepath.Join(dir, TelemetryReporterClass+".class")); statErr != nil {
			return "", fmt.Errorf("kafkatest: cache telemetry reporter: %w", err)
		}
	}
	return dir, nil
}

// nodeClasspath is the JVM classpath of a node: the release's jars, and
// the telemetry reporter's classes when the cluster has one.
func (c *Cluster) nodeClasspath(js jarSet) string {
	if c.telemetryClasses == "" {
		return js.classpath
	}
	return js.classpath + string(os.PathListSeparator) + c.telemetryClasses
}

// telemetryProps configures a broker's telemetry reporter.
func (c *Cluster) telemetryProps(p *props) {
	if c.telemetryClasses == "" {
		return
	}
	p.set("metric.reporters", TelemetryReporterClass)
	p.set("gregor.telemetry.file", c.TelemetryLog())
}
