// GregorTelemetryReporter is the test bed's broker-side receiver of client
// telemetry (KIP-714). Configured with metric.reporters, it makes the broker
// advertise GetTelemetrySubscriptions and PushTelemetry, decodes every push
// with the OTLP classes Kafka ships (shaded opentelemetry-proto in
// kafka-clients) and appends one JSON line per push to the file named by
// the broker property gregor.telemetry.file:
//
//   {"time_ms":..., "client_instance_id":"...", "terminating":false,
//    "push_interval_ms":..., "content_type":"...", "bytes":...,
//    "metrics":["org.apache.kafka.producer.connection.creation.total", ...],
//    "error":"..."}   (error only when the payload did not decode)
//
// It implements ClientTelemetryExporterProvider, the broker plugin
// interface of Kafka 4.4 (the older ClientTelemetry/ClientTelemetryReceiver
// pair is its deprecated predecessor). It is compiled by the test bed
// (internal/kafkatest/telemetry.go) against the running release's jars;
// for a release before 4.4 the test bed first edits it onto the older pair
// (legacyReporterEdits: keep the lines they name as they are).

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.server.telemetry.ClientTelemetryContext;
import org.apache.kafka.server.telemetry.ClientTelemetryExporter;
import org.apache.kafka.server.telemetry.ClientTelemetryExporterProvider;
import org.apache.kafka.server.telemetry.ClientTelemetryPayload;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.Metric;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.MetricsData;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.ScopeMetrics;

public class GregorTelemetryReporter implements MetricsReporter, ClientTelemetryExporterProvider {
    public static final String FILE_CONFIG = "gregor.telemetry.file";

    private OutputStream out;

    @Override
    public synchronized void configure(Map<String, ?> configs) {
        Object path = configs.get(FILE_CONFIG);
        if (path == null) {
            throw new IllegalArgumentException(FILE_CONFIG + " is not set");
        }
        try {
            out = new FileOutputStream(path.toString(), true);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot open " + path + ": " + e);
        }
    }

    @Override
    public void init(List<KafkaMetric> metrics) {}

    @Override
    public void metricChange(KafkaMetric metric) {}

    @Override
    public void metricRemoval(KafkaMetric metric) {}

    @Override
    public synchronized void close() {
        try {
            if (out != null) out.close();
        } catch (IOException ignored) {
        }
    }

    @Override
    public ClientTelemetryExporter clientTelemetryExporter() {
        return this::export;
    }

    private void export(ClientTelemetryContext ctx, ClientTelemetryPayload payload) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"time_ms\":").append(System.currentTimeMillis());
        b.append(",\"client_instance_id\":");
        quote(b, String.valueOf(payload.clientInstanceId()));
        b.append(",\"terminating\":").append(payload.isTerminating());
        b.append(",\"push_interval_ms\":").append(ctx.pushIntervalMs());
        b.append(",\"content_type\":");
        quote(b, payload.contentType());
        ByteBuffer data = payload.data().duplicate();
        b.append(",\"bytes\":").append(data.remaining());
        b.append(",\"metrics\":[");
        try {
            MetricsData md = MetricsData.parseFrom(data);
            boolean first = true;
            for (ResourceMetrics rm : md.getResourceMetricsList()) {
                for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                    for (Metric m : sm.getMetricsList()) {
                        if (!first) b.append(',');
                        first = false;
                        quote(b, m.getName());
                    }
                }
            }
            b.append(']');
        } catch (Exception e) {
            b.append("],\"error\":");
            quote(b, e.toString());
        }
        b.append("}\n");
        write(b.toString());
    }

    private synchronized void write(String line) {
        try {
            out.write(line.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException ignored) {
        }
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }
}
