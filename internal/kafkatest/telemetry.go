package kafkatest

import (
	"archive/zip"
	"bytes"
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

// telemetryReporterSource is the ClientTelemetryExporterProvider plugin of
// Kafka 4.4; legacyReporterEdits turn it into the ClientTelemetry /
// ClientTelemetryReceiver one for the releases before (3.7 to 4.3), whose
// request context carries no push interval (push_interval_ms -1).
//
//go:embed java/GregorTelemetryReporter.java
var telemetryReporterSource []byte

var legacyReporterEdits = [][2]string{
	{"import org.apache.kafka.server.telemetry.ClientTelemetryContext;\n", "import org.apache.kafka.server.authorizer.AuthorizableRequestContext;\n"},
	{"import org.apache.kafka.server.telemetry.ClientTelemetryExporter;\n", "import org.apache.kafka.server.telemetry.ClientTelemetryReceiver;\n"},
	{"import org.apache.kafka.server.telemetry.ClientTelemetryExporterProvider;\n", "import org.apache.kafka.server.telemetry.ClientTelemetry;\n"},
	{"implements MetricsReporter, ClientTelemetryExporterProvider {", "implements MetricsReporter, ClientTelemetry {"},
	{"public ClientTelemetryExporter clientTelemetryExporter() {", "public ClientTelemetryReceiver clientReceiver() {"},
	{"export(ClientTelemetryContext ctx,", "export(AuthorizableRequestContext ctx,"},
	{".append(ctx.pushIntervalMs());", ".append(-1);"},
}

// legacyReporterSource applies legacyReporterEdits, each exactly once.
func legacyReporterSource() ([]byte, error) {
	src := telemetryReporterSource
	for _, e := range legacyReporterEdits {
		if n := bytes.Count(src, []byte(e[0])); n != 1 {
			return nil, fmt.Errorf("kafkatest: telemetry reporter source: %q found %d times, want once", e[0], n)
		}
		src = bytes.Replace(src, []byte(e[0]), []byte(e[1]), 1)
	}
	return src, nil
}

// telemetryExporterClass is the plugin interface Kafka 4.4 added; a release
// whose kafka-clients jar lacks it gets the legacy reporter.
const telemetryExporterClass = "org/apache/kafka/server/telemetry/ClientTelemetryExporterProvider.class"

// reporterSource returns the reporter source for the release in lib.
func reporterSource(lib string) ([]byte, error) {
	jars, err := filepath.Glob(filepath.Join(lib, "kafka-clients-*.jar"))
	if err != nil || len(jars) == 0 {
		return nil, fmt.Errorf("kafkatest: no kafka-clients jar in %s (%v)", lib, err)
	}
	zr, err := zip.OpenReader(jars[0])
	if err != nil {
		return nil, fmt.Errorf("kafkatest: %s: %w", jars[0], err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == telemetryExporterClass {
			return telemetryReporterSource, nil
		}
	}
	return legacyReporterSource()
}

// TelemetryPush is one JSON line the reporter writes per PushTelemetry it
// receives (see the Java source for the format).
type TelemetryPush struct {
	TimeMs           int64    `json:"time_ms"`
	ClientInstanceID string   `json:"client_instance_id"`
	Terminating      bool     `json:"terminating"`
	PushIntervalMs   int      `json:"push_interval_ms"` // -1 before Kafka 4.4 (its receiver API lacks it)
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

// compileTelemetryReporter compiles the reporter (reporterSource) with javac
// against the release's jars in lib, once per source and release: the classes are
// cached beside lib under the source's content hash.
func compileTelemetryReporter(ctx context.Context, java javaRuntime, lib string) (string, error) {
	source, err := reporterSource(lib)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(source)
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
	if err := os.WriteFile(src, source, 0o644); err != nil {
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
