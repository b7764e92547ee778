package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gregor-kafka/gregor/admin"
	"github.com/gregor-kafka/gregor/client"
	"github.com/gregor-kafka/gregor/internal/kafkatest"
	"github.com/gregor-kafka/gregor/producer"
)

// bootstrapEnv points the commands at the shared cluster through the
// environment, as a user's shell would.
func bootstrapEnv(c *kafkatest.Cluster) map[string]string {
	return map[string]string{"GREGOR_BOOTSTRAP": strings.Join(c.Bootstrap(kafkatest.Plaintext), ",")}
}

func mustRun(t *testing.T, env map[string]string, stdin string, args ...string) string {
	t.Helper()
	out, errOut, code := gregor(t, stdin, env, args...)
	if code != 0 {
		t.Fatalf("gregor %s: status %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

type consumed struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
	Timestamp int64  `json:"timestamp"`
	Key       *string
	Value     *string
	Headers   []struct {
		Key   string  `json:"key"`
		Value *string `json:"value"`
	} `json:"headers"`
}

func decodeLines(t *testing.T, out string) []consumed {
	t.Helper()
	var recs []consumed
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r consumed
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestIntegrationProduceConsume100k runs the gregor binary: it produces
// 100,000 keyed records from a file and consumes them back through a
// consumer group as JSON: every record exactly once, with its key, value and
// header, in offset order per partition. Kafka's ConsumerGroupCommand then
// sees the group's committed offsets at the end of every partition, and
// the group consumes nothing more.
func TestIntegrationProduceConsume100k(t *testing.T) {
	c := kafkatest.Shared(t)
	env := bootstrapEnv(c)
	topic := kafkatest.UniqueName(t, "cli-100k")
	grp := topic + "-g"
	mustRun(t, env, "", "topic", "create", topic, "--partitions", "3")

	const n = 100000
	in := make([]byte, 0, 50*n)
	for i := range n {
		in = fmt.Appendf(in, "key-%06d|value %d with \"quotes\" and ünïcode\n", i, i)
	}
	file := filepath.Join(t.TempDir(), "records.txt")
	if err := os.WriteFile(file, in, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, errOut, code := gregorExec(t, "", env, "produce", topic, "--file", file, "--key-separator", "|", "-H", "origin=cli-test", "--progress", "--progress-interval", "50ms")
	if code != 0 {
		t.Fatalf("produce: status %d: %s", code, errOut)
	}
	t.Logf("produced %d records in %v", n, time.Since(start))
	checkProgress(t, errOut, "produced 100,000 records to "+topic+" in ")

	// The group's log (assignment changes) goes to stderr beside the
	// progress: evidence of what the member went through if it fails.
	logged := maps.Clone(env)
	logged["GREGOR_LOG_LEVEL"] = "INFO"
	start = time.Now()
	out, errOut, code := gregorExec(t, "", logged, "consume", topic, "--group", grp, "--to", "end", "--format", "json", "--progress", "--progress-interval", "50ms")
	if code != 0 {
		t.Fatalf("consume --group: status %d: %s", code, errOut)
	}
	t.Logf("consumed them through group %s as JSON in %v", grp, time.Since(start))
	errOut = withoutLog(t, errOut, `msg="gregor: assignment changed" group=`+grp+` change=assigned partitions=3`)
	checkProgress(t, errOut, "consumed 100,000 records from "+topic+" in ")
	lastOffsets := checkConsumed100k(t, topic, out, n, start.Add(-time.Minute).UnixMilli())

	// The committed offsets, as Kafka's own tool reads them.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	rows := javaGroupOffsets(ctx, t, c, grp, topic)
	for p, o := range lastOffsets {
		want := fmt.Sprintf("[%d %d 0]", o+1, o+1)
		if got := fmt.Sprint(rows[strconv.Itoa(p)]); got != want {
			t.Fatalf("partition %d: ConsumerGroupCommand CURRENT-OFFSET LOG-END-OFFSET LAG %s, want %s (rows %v)", p, got, want, rows)
		}
	}
	if out := mustRun(t, env, "", "consume", topic, "--group", grp, "--to", "end"); out != "" {
		t.Fatalf("the group consumed again after committing everything: %d bytes", len(out))
	}
	// The default protocol follows the cluster: the consumer protocol
	// (KIP-848) on Kafka 4.0+, classic before.
	want := "type consumer"
	if !c.AtLeast(4, 0) {
		want = "type classic"
	}
	if out := mustRun(t, env, "", "group", "describe", grp); !strings.Contains(out, want) {
		t.Fatalf("group describe on Kafka %s, want %q:\n%s", c.Version(), want, out)
	}
}

// withoutLog returns stderr without its GREGOR_LOG_LEVEL lines (text
// slog records, "time=..."), after checking that one of them contains want
// and that none says the member lost its partitions; a failure shows them.
func withoutLog(t *testing.T, stderr, want string) string {
	t.Helper()
	var rest, log []string
	for l := range strings.Lines(stderr) {
		if strings.HasPrefix(l, "time=") {
			log = append(log, l)
		} else {
			rest = append(rest, l)
		}
	}
	all := strings.Join(log, "")
	if !strings.Contains(all, want) || strings.Contains(all, "change=lost") {
		t.Fatalf("the log lacks %q or shows partitions lost:\n%s", want, all)
	}
	return strings.Join(rest, "")
}

// checkProgress checks --progress output: progress lines, then a summary
// line starting with summary and ending with a rate.
func checkProgress(t *testing.T, stderr, summary string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, summary) || !strings.HasSuffix(last, " records/s)") {
		t.Fatalf("summary line %q, want %q...", last, summary)
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "progress: ") || !strings.HasSuffix(l, " records/s") {
			t.Fatalf("progress line %q", l)
		}
	}
}

// javaGroupOffsets returns ConsumerGroupCommand --describe --offsets rows of
// group for topic: partition -> [CURRENT-OFFSET LOG-END-OFFSET LAG].
func javaGroupOffsets(ctx context.Context, t *testing.T, c *kafkatest.Cluster, group, topic string) map[string][]string {
	t.Helper()
	javaOut, err := c.RunTool(ctx, "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
		"--bootstrap-server", c.Bootstrap(kafkatest.Plaintext)[0], "--describe", "--group", group, "--offsets",
		"--timeout", "60000") // the default 5 s: at load 50 its connection alone took 7 s (Kafka 4.0.2)
	if err != nil {
		t.Fatal(err)
	}
	// GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG ...
	rows := map[string][]string{}
	for _, l := range strings.Split(javaOut, "\n") {
		f := strings.Fields(l)
		if len(f) >= 6 && f[0] == group && f[1] == topic {
			rows[f[2]] = f[3:6]
		}
	}
	if len(rows) == 0 {
		t.Logf("ConsumerGroupCommand --describe --offsets: no row for %s:\n%s", topic, javaOut)
	}
	return rows
}

// checkConsumed100k checks consume's JSON lines byte by byte (every record
// once, its key, value and header, offsets in order per partition, the
// partition the Java-compatible partitioner picks for its key) and decodes
// every 1000th line with encoding/json as an independent reader. It returns
// the last offset of each partition.
func checkConsumed100k(t *testing.T, topic, out string, n int, minTS int64) []int64 {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("consumed %d records, want %d", len(lines), n)
	}
	seen := make([]bool, n)
	lastOffset := []int64{-1, -1, -1}
	prefix := `{"topic":"` + topic + `","partition":`
	for idx, l := range lines {
		rest, ok := strings.CutPrefix(l, prefix)
		pStr, rest, ok1 := strings.Cut(rest, `,"offset":`)
		oStr, rest, ok2 := strings.Cut(rest, `,"timestamp":`)
		tsStr, rest, ok3 := strings.Cut(rest, `,"key":"key-`)
		p, perr := strconv.Atoi(pStr)
		o, oerr := strconv.ParseInt(oStr, 10, 64)
		ts, terr := strconv.ParseInt(tsStr, 10, 64)
		if !ok || !ok1 || !ok2 || !ok3 || perr != nil || oerr != nil || terr != nil || p < 0 || p > 2 || len(rest) < 6 {
			t.Fatalf("line %d: %q", idx, l)
		}
		i, err := strconv.Atoi(rest[:6])
		if err != nil || i >= n || seen[i] {
			t.Fatalf("line %d: bad or repeated key in %q", idx, l)
		}
		seen[i] = true
		if want := fmt.Sprintf(`%06d","value":"value %d with \"quotes\" and ünïcode","headers":[{"key":"origin","value":"cli-test"}]}`, i, i); rest != want {
			t.Fatalf("line %d: %q, want the key/value/headers %q", idx, rest, want)
		}
		if o != lastOffset[p]+1 || ts < minTS {
			t.Fatalf("line %d: %s/%d@%d (timestamp %d) after offset %d", idx, topic, p, o, ts, lastOffset[p])
		}
		lastOffset[p] = o
		if want := producer.KeyPartition(fmt.Appendf(nil, "key-%06d", i), 3); int32(p) != want {
			t.Fatalf("key-%06d in partition %d, the partitioner picks %d", i, p, want)
		}
		if idx%1000 == 0 {
			recs := decodeLines(t, l)
			if r := recs[0]; r.Key == nil || *r.Key != fmt.Sprintf("key-%06d", i) || r.Partition != int32(p) || r.Offset != o ||
				len(r.Headers) != 1 || r.Headers[0].Value == nil || *r.Headers[0].Value != "cli-test" {
				t.Fatalf("line %d decodes to %+v", idx, r)
			}
		}
	}
	for p, o := range lastOffset {
		if o < 0 {
			t.Fatalf("partition %d got no records", p)
		}
	}
	return lastOffset
}

// TestIntegrationJSONAndTimestamps round-trips JSON records (null key,
// binary value, headers, explicit partition and timestamp) and reads a time
// range.
func TestIntegrationJSONAndTimestamps(t *testing.T) {
	c := kafkatest.Shared(t)
	env := bootstrapEnv(c)
	topic := kafkatest.UniqueName(t, "cli-json")
	mustRun(t, env, "", "topic", "create", topic, "--partitions", "2")
	in := `{"key":null,"value":"a","timestamp":1000000,"partition":1}
{"key":"k","value_base64":"/wA=","timestamp":2000000,"partition":1,"headers":[{"key":"h","value":null},{"key":"h","value":"x"}]}
{"value":"c","timestamp":3000000,"partition":1,"headers":{"z":"1"}}
`
	mustRun(t, env, in, "produce", topic, "--format", "json")
	out := mustRun(t, env, "", "consume", topic, "--to", "end", "--format", "json")
	want := `{"topic":"` + topic + `","partition":1,"offset":0,"timestamp":1000000,"key":null,"value":"a"}
{"topic":"` + topic + `","partition":1,"offset":1,"timestamp":2000000,"key":"k","value_base64":"/wA=","headers":[{"key":"h","value":null},{"key":"h","value":"x"}]}
{"topic":"` + topic + `","partition":1,"offset":2,"timestamp":3000000,"key":null,"value":"c","headers":[{"key":"z","value":"1"}]}
`
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	// Consume output is produce input: copy it to another topic.
	copyTopic := topic + "-copy"
	mustRun(t, env, "", "topic", "create", copyTopic, "--partitions", "2")
	mustRun(t, env, out, "produce", copyTopic, "--format", "json")
	if got := mustRun(t, env, "", "consume", copyTopic, "--to", "end", "--format", "json"); got != strings.ReplaceAll(want, topic, copyTopic) {
		t.Fatalf("copy:\n%s", got)
	}
	// Time range: from 2000000 (inclusive) to 3000000 (exclusive), RFC 3339 and ms.
	from := time.UnixMilli(2000000).UTC().Format(time.RFC3339)
	if got := mustRun(t, env, "", "consume", topic, "--from", "@"+from, "--to", "@3000000", "--print-key", "--key-separator", "="); got != "k=\xff\x00\n" {
		t.Fatalf("time range: %q", got)
	}
	if got := mustRun(t, env, "", "consume", topic, "--partitions", "1", "--from", "2", "--count", "1"); got != "c\n" {
		t.Fatalf("--from 2 --count 1: %q", got)
	}
	if got := mustRun(t, env, "", "consume", topic, "--partitions", "0", "--to", "end"); got != "" {
		t.Fatalf("empty partition: %q", got)
	}
	_, errOut, code := gregor(t, "", env, "consume", topic, "--partitions", "7", "--to", "end")
	wantOneLineFailure(t, errOut, code, "has 2 partitions: no partition 7")
	_, errOut, code = gregor(t, "not json\n", env, "produce", topic, "--format", "json")
	wantOneLineFailure(t, errOut, code, "line 1: not a JSON record")
}

// TestIntegrationTopicCommands checks create, describe, alter-configs and
// delete with Kafka's own TopicCommand and ConfigCommand as the observer.
func TestIntegrationTopicCommands(t *testing.T) {
	c := kafkatest.Shared(t)
	env := bootstrapEnv(c)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	boot := c.Bootstrap(kafkatest.Plaintext)[0]
	topic := kafkatest.UniqueName(t, "cli-topic")

	out := mustRun(t, env, "", "topic", "create", topic, "--partitions", "4", "--config", "retention.ms=123456")
	if !strings.Contains(out, "created topic "+topic+" (4 partitions, replication factor 1)") {
		t.Fatalf("create: %q", out)
	}
	javaDesc, err := c.RunTool(ctx, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", boot, "--describe", "--topic", topic)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(javaDesc, "PartitionCount: 4") || !strings.Contains(javaDesc, "retention.ms=123456") {
		t.Fatalf("TopicCommand --describe:\n%s", javaDesc)
	}
	_, errOut, code := gregor(t, "", env, "topic", "create", topic)
	wantOneLineFailure(t, errOut, code, "TOPIC_ALREADY_EXISTS")
	if out := mustRun(t, env, "", "topic", "create", topic, "--if-not-exists"); !strings.Contains(out, "already exists") {
		t.Fatalf("--if-not-exists: %q", out)
	}
	if out := mustRun(t, env, "", "topic", "list", "--names"); !strings.Contains("\n"+out, "\n"+topic+"\n") {
		t.Fatalf("list --names lacks %s:\n%s", topic, out)
	}

	mustRun(t, env, "", "topic", "alter-configs", topic, "--set", "cleanup.policy=compact", "--delete", "retention.ms")
	javaCfg, err := c.RunTool(ctx, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server", boot, "--describe", "--entity-type", "topics", "--entity-name", topic)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(javaCfg, "cleanup.policy=compact") || strings.Contains(javaCfg, "retention.ms=123456") {
		t.Fatalf("ConfigCommand --describe after alter-configs:\n%s", javaCfg)
	}
	desc := mustRun(t, env, "", "topic", "describe", topic)
	for _, want := range []string{"topic " + topic + "  id ", "partitions 4", "PARTITION  LEADER", "\n  cleanup.policy=compact\n"} {
		if !strings.Contains(desc, want) {
			t.Fatalf("describe lacks %q:\n%s", want, desc)
		}
	}

	mustRun(t, env, "", "topic", "delete", topic)
	javaList, err := c.RunTool(ctx, "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", boot, "--list")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains("\n"+javaList+"\n", "\n"+topic+"\n") {
		t.Fatalf("TopicCommand --list still shows %s:\n%s", topic, javaList)
	}
	_, errOut, code = gregor(t, "", env, "topic", "delete", topic)
	wantOneLineFailure(t, errOut, code, "UNKNOWN_TOPIC_OR_PARTITION")
	mustRun(t, env, "", "topic", "delete", topic, "--if-exists")
}

// TestIntegrationGroupCommands resets a group's offsets (dry run, then
// --execute) and checks them with Kafka's ConsumerGroupCommand.
func TestIntegrationGroupCommands(t *testing.T) {
	c := kafkatest.Shared(t)
	env := bootstrapEnv(c)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	topic := kafkatest.UniqueName(t, "cli-group")
	group := topic + "-g"
	mustRun(t, env, "", "topic", "create", topic, "--partitions", "2")
	mustRun(t, env, strings.Repeat("x\n", 10), "produce", topic, "--partition", "0")
	mustRun(t, env, strings.Repeat("y\n", 4), "produce", topic, "--partition", "1")

	plan := mustRun(t, env, "", "group", "reset-offsets", group, "--topic", topic, "--to", "latest")
	if !strings.Contains(plan, "dry run: nothing changed") || !strings.Contains(plan, topic+"  0          -        10") {
		t.Fatalf("dry run plan:\n%s", plan)
	}
	// The dry run committed nothing (gregor's admin as the observer here:
	// ConsumerGroupCommand reports a group without offsets as missing).
	cl, err := client.New(client.Config{Bootstrap: c.Bootstrap(kafkatest.Plaintext)})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close(context.Background())
	res, err := admin.New(cl, admin.Config{}).FetchOffsets(ctx, []admin.GroupOffsetsQuery{{GroupID: group}}, admin.FetchOffsetsOptions{})
	if err != nil || res[0].Err != nil || len(res[0].Offsets) != 0 {
		t.Fatalf("after the dry run: %+v, %v", res, err)
	}

	mustRun(t, env, "", "group", "reset-offsets", group, "--topic", topic, "--to", "latest", "--execute")
	mustRun(t, env, "", "group", "reset-offsets", group, "--topic", topic, "--partitions", "1", "--to", "1", "--execute")
	rows := javaGroupOffsets(ctx, t, c, group, topic)
	if fmt.Sprint(rows["0"]) != "[10 10 0]" || fmt.Sprint(rows["1"]) != "[1 4 3]" {
		t.Fatalf("ConsumerGroupCommand --describe --offsets rows %v", rows)
	}

	offs := mustRun(t, env, "", "group", "offsets", group)
	for _, want := range []string{"TOPIC", topic + "  0          10         10   0", topic + "  1          1          4    3"} {
		if !strings.Contains(offs, want) {
			t.Fatalf("group offsets lacks %q:\n%s", want, offs)
		}
	}
	if out := mustRun(t, env, "", "group", "list"); !strings.Contains(out, group) {
		t.Fatalf("group list lacks %s:\n%s", group, out)
	}
	if out := mustRun(t, env, "", "group", "describe", group); !strings.Contains(out, "group "+group+"  type classic  state Empty") {
		t.Fatalf("group describe:\n%s", out)
	}
	mustRun(t, env, "", "group", "delete", group)
	_, errOut, code := gregor(t, "", env, "group", "offsets", group)
	if code != 0 {
		wantOneLineFailure(t, errOut, code, group)
	}
}

// TestIntegrationConnectionSettings connects with a Java properties file
// (SASL_SSL with SCRAM), with environment variables for TLS and SASL, and
// reports an authentication failure in one line.
func TestIntegrationConnectionSettings(t *testing.T) {
	c := kafkatest.Shared(t)
	path, err := c.WriteClientProperties(kafkatest.SASLSSL, "SCRAM-SHA-256", kafkatest.AliceUser, kafkatest.AlicePassword)
	if err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, nil, "", "cluster", "describe", "-F", path, "-b", c.Bootstrap(kafkatest.SASLSSL)[0])
	if !strings.Contains(out, "cluster "+c.ClusterID()) {
		t.Fatalf("cluster describe: %q", out)
	}
	env := map[string]string{
		"GREGOR_BOOTSTRAP":      c.Bootstrap(kafkatest.SASLSSL)[0],
		"GREGOR_CA_FILE":        c.CAFile(),
		"GREGOR_SASL_MECHANISM": "PLAIN",
		"GREGOR_SASL_USER":      kafkatest.AdminUser,
		"GREGOR_SASL_PASSWORD":  kafkatest.AdminPassword,
	}
	if out := mustRun(t, env, "", "cluster", "features"); !strings.Contains(out, "metadata.version") {
		t.Fatalf("cluster features: %q", out)
	}
	_, errOut, code := gregor(t, "", env, "cluster", "describe", "--sasl-password", "wrong", "--timeout", "5s")
	wantOneLineFailure(t, errOut, code, "cannot connect")
	if strings.Contains(errOut, "wrong") || strings.Contains(errOut, kafkatest.AdminPassword) {
		t.Fatalf("the error shows a password: %q", errOut)
	}
}

func TestIntegrationProduceMissingTopic(t *testing.T) {
	c := kafkatest.Shared(t)
	_, errOut, code := gregor(t, "x\n", bootstrapEnv(c), "produce", kafkatest.UniqueName(t, "cli-missing"))
	wantOneLineFailure(t, errOut, code, "UNKNOWN_TOPIC_OR_PARTITION")
}

// TestIntegrationJavaConsumerFile: a Java consumer's properties file (with
// its group settings) works for every command, and consume reads as the
// member of its group.id with its group.protocol (classic here): --count 3
// commits the three records written and no more, so the next run goes on
// with the fourth.
func TestIntegrationJavaConsumerFile(t *testing.T) {
	c := kafkatest.Shared(t)
	topic := kafkatest.UniqueName(t, "cli-javafile")
	grp := topic + "-g"
	file := filepath.Join(t.TempDir(), "consumer.properties")
	content := "bootstrap.servers=" + c.Bootstrap(kafkatest.Plaintext)[0] + "\ngroup.id=" + grp + "\ngroup.protocol=classic\nenable.auto.commit=false\n" +
		"key.deserializer=org.apache.kafka.common.serialization.ByteArrayDeserializer\nisolation.level=read_committed\n"
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, nil, "", "cluster", "describe", "-F", file); !strings.Contains(out, "cluster "+c.ClusterID()) {
		t.Fatalf("cluster describe: %q", out)
	}
	env := map[string]string{"GREGOR_CONFIG": file}
	mustRun(t, env, "", "topic", "create", topic, "--partitions", "1")
	mustRun(t, env, "a\nb\nc\nd\ne\n", "produce", topic)
	if out := mustRun(t, env, "", "consume", topic, "--count", "3"); out != "a\nb\nc\n" {
		t.Fatalf("first member: %q", out)
	}
	if out := mustRun(t, env, "", "consume", topic, "--to", "end"); out != "d\ne\n" {
		t.Fatalf("second member: %q", out)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if rows := javaGroupOffsets(ctx, t, c, grp, topic); fmt.Sprint(rows["0"]) != "[5 5 0]" {
		t.Fatalf("ConsumerGroupCommand --describe --offsets rows %v", rows)
	}
	if out := mustRun(t, env, "", "group", "describe", grp); !strings.Contains(out, "type classic") {
		t.Fatalf("group describe:\n%s", out)
	}
}

// TestIntegrationGroupTwoMembers runs two consume --group processes of one
// group at once: whichever partitions the group gives each (one may finish
// before the other joins), together they write every record (at least once: a partition moving between them
// may repeat records written but not yet committed), and the group's
// committed offsets end at the log end of every partition.
func TestIntegrationGroupTwoMembers(t *testing.T) {
	c := kafkatest.Shared(t)
	env := bootstrapEnv(c)
	topic := kafkatest.UniqueName(t, "cli-2members")
	grp := topic + "-g"
	mustRun(t, env, "", "topic", "create", topic, "--partitions", "4")
	const n = 2000
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "k%d|v%d\n", i, i)
	}
	mustRun(t, env, in.String(), "produce", topic, "--key-separator", "|")

	type result struct {
		out, errOut string
		code        int
	}
	results := make(chan result, 2)
	for range 2 {
		go func() {
			out, errOut, code := gregorExec(t, "", env, "consume", topic, "--group", grp, "--to", "end", "--format", "json")
			results <- result{out, errOut, code}
		}()
	}
	seen := map[string]int{}
	for range 2 {
		r := <-results
		if r.code != 0 {
			t.Fatalf("a member: status %d: %s", r.code, r.errOut)
		}
		for _, rec := range decodeLines(t, r.out) {
			seen[*rec.Key]++
		}
	}
	for i := range n {
		if seen[fmt.Sprintf("k%d", i)] == 0 {
			t.Fatalf("record k%d was not consumed by either member", i)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	rows := javaGroupOffsets(ctx, t, c, grp, topic)
	total := int64(0)
	for p := range 4 {
		r := rows[strconv.Itoa(p)]
		if len(r) != 3 || r[0] != r[1] || r[2] != "0" {
			t.Fatalf("partition %d: ConsumerGroupCommand CURRENT-OFFSET LOG-END-OFFSET LAG %v (rows %v)", p, r, rows)
		}
		o, _ := strconv.ParseInt(r[0], 10, 64)
		total += o
	}
	if total != n {
		t.Fatalf("committed offsets sum to %d, want %d", total, n)
	}
}
