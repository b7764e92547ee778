// Apache Kafka's VerifiableConsumer (the release's tools jar, unchanged)
// with one listener method more: onPartitionsLost prints a
// "partitions_lost" event instead of the interface default, which calls
// onPartitionsRevoked and so prints a loss as "partitions_revoked". The
// soak (testlab/faultcheck javaMember) runs it as a single source file:
//
//   java -cp '<kafka lib>/*' LostReportingConsumer.java BOOTSTRAP TOPIC GROUP CONFIG
//
// CONFIG is a consumer properties file; the group protocol is "consumer"
// (KIP-848), commits are manual (commitSync after every poll) and every
// record is printed (--verbose), as VerifiableConsumer's own options
// --group-protocol consumer --verbose would set them.

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.tools.VerifiableConsumer;

public class LostReportingConsumer extends VerifiableConsumer {
    LostReportingConsumer(KafkaConsumer<String, String> consumer, String topic) {
        // maxMessages -1 (no limit), no auto-commit, sync commits, verbose, close timeout 30 s.
        super(consumer, System.out, topic, -1, false, false, true, 30000);
    }

    // Called on the polling thread, like the other listener methods, so its
    // line is in order with theirs on the same stream.
    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        StringBuilder b = new StringBuilder("{\"timestamp\":").append(System.currentTimeMillis())
            .append(",\"name\":\"partitions_lost\",\"partitions\":[");
        String sep = "";
        for (TopicPartition tp : partitions) {
            b.append(sep).append("{\"topic\":\"").append(tp.topic()).append("\",\"partition\":").append(tp.partition()).append('}');
            sep = ",";
        }
        System.out.println(b.append("]}"));
    }

    public static void main(String[] args) {
        Properties props = new Properties();
        try (InputStream in = new FileInputStream(args[3])) {
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, args[2]);
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        StringDeserializer d = new StringDeserializer();
        LostReportingConsumer c = new LostReportingConsumer(new KafkaConsumer<>(props, d, d), args[1]);
        Runtime.getRuntime().addShutdownHook(new Thread(c::close, "lost-reporting-consumer-shutdown-hook"));
        c.run();
    }
}
