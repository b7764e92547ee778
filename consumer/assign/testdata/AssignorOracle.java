// AssignorOracle runs Apache Kafka's own client-side assignors (the
// kafka-clients jar of the test bed) over the cases of cases.json and
// prints their assignments, the expectations of gregor's consumer/assign
// tests. Run as a single-file program:
//
//	java -cp '<jar dir>/*' AssignorOracle.java cases.json golden.json
//
// (the output goes to a file: Kafka's logging writes to standard output).
//
// Each case is one group: its members (in JoinGroup response order, the
// order the leader fills its subscriptions map in), the topics' partitions
// with the racks of their replicas, and rounds of membership changes. In
// every round after the first each remaining member subscribes with what
// the previous round assigned it (owned partitions, generation, and its
// assignor's user data, as a Java member's assignor writes them); members
// may leave and join, or change their subscriptions, between rounds. A
// round where the assignor throws records the exception's class; every
// round records the user data each member's assignor then writes (hex).
//
// With a third argument N (the scale test's timing mode) every round is
// also assigned N more times by a fresh assignor and the round records
// the median time of those runs in "nanos" (the first, untimed run warms
// the JIT up for the rest).
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.io.File;
import java.nio.ByteBuffer;
import java.util.*;

public class AssignorOracle {
    static ConsumerPartitionAssignor newAssignor(String name) {
        switch (name) {
            case "range": return new RangeAssignor();
            case "roundrobin": return new RoundRobinAssignor();
            case "sticky": return new StickyAssignor();
            case "cooperative-sticky": return new CooperativeStickyAssignor();
            default: throw new IllegalArgumentException("unknown assignor " + name);
        }
    }

    // memberState is one member as its own client sees it between rounds.
    static final class MemberState {
        String id, instanceId, rack;
        List<String> topics = new ArrayList<>();
        List<TopicPartition> owned = new ArrayList<>();
        int generation = -1;
        ByteBuffer userData;
        ConsumerPartitionAssignor clientAssignor; // the member's own instance, for its user data
    }

    static MemberState parseMember(JsonNode m, String assignor) {
        MemberState s = new MemberState();
        s.id = m.get("member_id").asText();
        s.instanceId = m.path("instance_id").asText("");
        s.rack = m.path("rack").asText("");
        m.path("topics").forEach(t -> s.topics.add(t.asText()));
        m.path("owned").forEach(o -> o.get("partitions").forEach(p -> s.owned.add(new TopicPartition(o.get("topic").asText(), p.asInt()))));
        s.generation = m.path("generation").asInt(-1);
        if (m.hasNonNull("user_data"))
            s.userData = ByteBuffer.wrap(HexFormat.of().parseHex(m.get("user_data").asText()));
        s.clientAssignor = newAssignor(assignor);
        return s;
    }

    static Cluster cluster(JsonNode topics) {
        Map<String, Node> racks = new HashMap<>();
        Node noRack = new Node(0, "localhost", 9092, null);
        List<Node> nodes = new ArrayList<>(List.of(noRack));
        List<PartitionInfo> parts = new ArrayList<>();
        topics.fields().forEachRemaining(e -> {
            for (JsonNode p : e.getValue()) {
                List<Node> replicas = new ArrayList<>();
                for (JsonNode r : p.path("racks")) {
                    Node n = racks.computeIfAbsent(r.asText(), name -> {
                        Node node = new Node(racks.size() + 1, "localhost", 9093 + racks.size(), name);
                        nodes.add(node);
                        return node;
                    });
                    replicas.add(n);
                }
                if (replicas.isEmpty())
                    replicas.add(noRack);
                Node[] rs = replicas.toArray(new Node[0]);
                parts.add(new PartitionInfo(e.getKey(), p.get("id").asInt(), rs[0], rs, rs));
            }
        });
        return new Cluster("oracle", nodes, parts, Collections.emptySet(), Collections.emptySet());
    }

    static ObjectNode render(ObjectMapper om, List<MemberState> members, Map<String, Assignment> result) {
        ObjectNode out = om.createObjectNode();
        for (MemberState m : members) {
            List<TopicPartition> tps = new ArrayList<>(result.get(m.id).partitions());
            tps.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
            ArrayNode list = out.putArray(m.id);
            for (TopicPartition tp : tps)
                list.add(tp.topic() + ":" + tp.partition());
        }
        return out;
    }

    // subscriptions is what the members send this round (fresh buffers:
    // an assignor reads the user data).
    static Map<String, Subscription> subscriptions(List<MemberState> members) {
        Map<String, Subscription> subs = new HashMap<>();
        for (MemberState m : members) {
            Subscription s = new Subscription(m.topics, m.userData == null ? null : m.userData.duplicate(), m.owned, m.generation,
                m.rack.isEmpty() ? Optional.empty() : Optional.of(m.rack));
            s.setGroupInstanceId(m.instanceId.isEmpty() ? Optional.empty() : Optional.of(m.instanceId));
            subs.put(m.id, s);
        }
        return subs;
    }

    // medianNanos runs work reps times and returns the median duration.
    static long medianNanos(int reps, Runnable work) {
        long[] ns = new long[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            work.run();
            ns[i] = System.nanoTime() - t0;
        }
        Arrays.sort(ns);
        return ns[reps / 2];
    }

    @SuppressWarnings("removal") // ConsumerGroupMetadata's constructor, as KafkaConsumer builds it
    public static void main(String[] args) throws Exception {
        ObjectMapper om = new ObjectMapper();
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        JsonNode cases = om.readTree(new File(args[0]));
        ArrayNode outCases = om.createArrayNode();
        for (JsonNode c : cases) {
            String assignorName = c.get("assignor").asText();
            Cluster cluster = cluster(c.get("topics"));
            List<MemberState> members = new ArrayList<>();
            c.get("members").forEach(m -> members.add(parseMember(m, assignorName)));
            ObjectNode outCase = om.createObjectNode();
            outCase.put("name", c.get("name").asText());
            ArrayNode rounds = outCase.putArray("rounds");
            int rounds0 = 1 + c.path("next").size();
            for (int r = 0; r < rounds0; r++) {
                if (r > 0) {
                    JsonNode change = c.get("next").get(r - 1);
                    Set<String> leaving = new HashSet<>();
                    change.path("leave").forEach(l -> leaving.add(l.asText()));
                    members.removeIf(m -> leaving.contains(m.id));
                    change.path("join").forEach(m -> members.add(parseMember(m, assignorName)));
                    for (MemberState m : members) {
                        JsonNode topics = change.path("subscribe").path(m.id);
                        if (topics.isArray()) {
                            m.topics = new ArrayList<>();
                            topics.forEach(t -> m.topics.add(t.asText()));
                        }
                    }
                }
                Map<String, Subscription> subs = subscriptions(members);
                ObjectNode round = om.createObjectNode();
                try {
                    Map<String, Assignment> result = newAssignor(assignorName).assign(cluster, new GroupSubscription(subs)).groupAssignment();
                    round.set("assignment", render(om, members, result));
                    if (reps > 0)
                        round.put("nanos", medianNanos(reps, () -> newAssignor(assignorName).assign(cluster, new GroupSubscription(subscriptions(members)))));
                    int gen = c.path("generation").asInt(1) + r;
                    for (MemberState m : members) {
                        // the member receives its partitions sorted, as gregor's assignors list them
                        List<TopicPartition> sorted = new ArrayList<>(result.get(m.id).partitions());
                        sorted.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
                        Assignment a = new Assignment(sorted);
                        m.owned = sorted;
                        m.generation = gen;
                        m.clientAssignor.onAssignment(a, new ConsumerGroupMetadata("g", gen, m.id, Optional.empty()));
                        m.userData = m.clientAssignor.subscriptionUserData(new HashSet<>(m.topics));
                        if (m.userData != null) {
                            byte[] b = new byte[m.userData.remaining()];
                            m.userData.duplicate().get(b);
                            round.with("user_data").put(m.id, HexFormat.of().formatHex(b));
                        }
                    }
                } catch (RuntimeException e) {
                    round.put("error", e.getClass().getSimpleName());
                }
                rounds.add(round);
            }
            outCases.add(outCase);
        }
        om.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), outCases);
    }
}
