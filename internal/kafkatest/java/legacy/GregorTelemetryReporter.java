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
// This is the variant for releases before Kafka 4.4 (3.7, KIP-714's first,
// to 4.3): it implements ClientTelemetry/ClientTelemetryReceiver, whose
// request context carries no push interval, so push_interval_ms is -1. The
// test bed (internal/kafkatest/telemetry.go) compiles it when the release's
// jars lack ClientTelemetryExporterProvider (../GregorTelemetryReporter.java).

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.telemetry.ClientTelemetry;
import org.apache.kafka.server.telemetry.ClientTelemetryReceiver;
import org.apache.kafka.server.telemetry.ClientTelemetryPayload;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.Metric;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.MetricsData;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import org.apache.kafka.shaded.io.opentelemetry.proto.metrics.v1.ScopeMetrics;

public class GregorTelemetryReporter implements MetricsReporter, ClientTelemetry {
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
    public ClientTelemetryReceiver clientReceiver() {
        return this::export;
    }

    private void export(AuthorizableRequestContext ctx, ClientTelemetryPayload payload) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"time_ms\":").append(System.currentTimeMillis());
        b.append(",\"client_instance_id\":");
        quote(b, String.valueOf(payload.clientInstanceId()));
        b.append(",\"terminating\":").append(payload.isTerminating());
        b.append(",\"push_interval_ms\":-1");
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
