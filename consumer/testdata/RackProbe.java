// RackProbe reads partition 0 of a topic with Apache Kafka's Java consumer
// and client.rack set, and prints the preferred-read-replica metric (KIP-392:
// the replica the leader named, -1 for the leader) once it read the given
// number of records and the metric names a replica, or when 90s passed.
// Run in Java's source-file mode: java -cp <kafka jars> RackProbe.java
// <bootstrap> <topic> <rack> <records>.
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

public class RackProbe {
    public static void main(String[] args) {
        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("client.rack", args[2]);
        p.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        TopicPartition tp = new TopicPartition(args[1], 0);
        long want = Long.parseLong(args[3]);
        long read = 0;
        double replica = -1;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long deadline = System.currentTimeMillis() + 90_000;
            while (System.currentTimeMillis() < deadline) {
                read += c.poll(Duration.ofMillis(200)).count();
                replica = -1;
                for (Map.Entry<MetricName, ? extends Metric> e : c.metrics().entrySet()) {
                    MetricName n = e.getKey();
                    if (n.name().equals("preferred-read-replica") && tp.topic().equals(n.tags().get("topic"))
                            && "0".equals(n.tags().get("partition"))) {
                        replica = ((Number) e.getValue().metricValue()).doubleValue();
                    }
                }
                if (read >= want && replica >= 0) {
                    break;
                }
            }
        }
        System.out.printf("preferred-read-replica=%d records=%d%n", (int) replica, read);
    }
}
